"""`croupier table --floor DSN --table ID`: the shipper runs beside the live table."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import psycopg

from hardware_sims.sim_process import running_simulator

FIXTURE = Path(__file__).parents[2] / "hardware-sims" / "fixtures" / "regulation.shoe"


def test_a_live_table_ships_its_journal_as_it_deals(floor_dsn: str, tmp_path: Path) -> None:
    journal = tmp_path / "table.db"
    with running_simulator(FIXTURE, "native", "--pace", "0.01") as url:
        table = subprocess.Popen(
            [sys.executable, "-m", "croupier", "table", "--shoe", url, "--journal", str(journal),
             "--floor", floor_dsn, "--table", "T3"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert table.stdout is not None
            while "coup 3" not in table.stdout.readline().lower():  # a few coups dealt, then stop
                assert table.poll() is None, table.stderr.read() if table.stderr else ""
            table.send_signal(signal.SIGINT)
            _, err = table.communicate(timeout=30)
        finally:
            if table.poll() is None:
                table.kill()
                table.wait()
    assert table.returncode == 0, err
    with sqlite3.connect(journal) as db:
        rows = db.execute("SELECT seq, at, kind, body, prev, hash FROM rows "
                          "ORDER BY seq").fetchall()
    with psycopg.connect(floor_dsn) as conn:
        shipped = conn.execute("SELECT seq, at, kind, body, prev, hash FROM journal_row "
                               "WHERE table_id = 'T3' ORDER BY seq").fetchall()
        coups = conn.execute("SELECT count(*) FROM coup WHERE table_id = 'T3'").fetchone()
    assert shipped == rows, err
    assert coups is not None
    assert coups[0] >= 2


def test_floor_needs_a_table_name_and_a_journal() -> None:
    for args in (["--floor", "dbname=x"], ["--table", "T1"],
                 ["--floor", "dbname=x", "--table", "T1", "--no-journal"]):
        done = subprocess.run(
            [sys.executable, "-m", "croupier", "table", "--shoe", str(FIXTURE), "--backend",
             "replay", *args], capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 2
        assert "--floor and --table go together, with a journal" in done.stderr


def test_the_screen_ships_its_journal_as_it_deals(floor_dsn: str, tmp_path: Path) -> None:
    import os
    import socket
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Qt's VNC platform: a real window that nobody needs to be at.
    env = {**os.environ, "QT_QPA_PLATFORM": f"vnc:port={port}"}
    journal = tmp_path / "screen.db"
    with running_simulator(FIXTURE, "native", "--pace", "0.005") as url:
        screen = subprocess.Popen(
            [sys.executable, "-m", "croupier", "ui", "--shoe", url, "--journal", str(journal),
             "--floor", floor_dsn, "--table", "S1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        try:
            deadline = time.monotonic() + 60
            shipped = 0
            while time.monotonic() < deadline and shipped < 100:
                time.sleep(0.2)
                with psycopg.connect(floor_dsn) as conn:
                    found = conn.execute("SELECT count(*) FROM journal_row "
                                         "WHERE table_id = 'S1'").fetchone()
                shipped = found[0] if found else 0
            assert shipped >= 100
        finally:
            screen.terminate()
            screen.wait(timeout=30)
    with sqlite3.connect(journal) as db:
        rows = db.execute("SELECT seq, hash FROM rows ORDER BY seq").fetchall()
    with psycopg.connect(floor_dsn) as conn:
        floor_rows = conn.execute("SELECT seq, hash FROM journal_row WHERE table_id = 'S1' "
                                  "ORDER BY seq").fetchall()
    assert floor_rows == rows[:len(floor_rows)]
    assert len(floor_rows) >= 100

