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
    assert shipped == rows
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
