"""Faults between the tables and the floor, proven on real processes and a real PostgreSQL.

In every case: nothing lost, nothing doubled, every chain verified on the floor, and the
floor caught up within 5 s of the fault's end.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from floor.embedded import EmbeddedPostgres
from floor.simtable import deal
from floor.verify import verify_floor
from tests.floor_suite.proxy import Proxy

CATCH_UP = 5.0


def _journal_rows(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True) as db:
        return db.execute("SELECT seq, at, kind, body, prev, hash FROM rows "
                          "ORDER BY seq").fetchall()


def _has_rows(journal: Path) -> bool:
    try:
        return bool(_journal_rows(journal))
    except sqlite3.OperationalError:  # the table is still creating its journal
        return False


def _floor_rows(dsn: str, table: str) -> list[tuple[object, ...]]:
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT seq, at, kind, body, prev, hash FROM journal_row "
                            "WHERE table_id = %s ORDER BY seq", (table,)).fetchall()


def _floor_head(dsn: str, table: str) -> int:
    try:
        with psycopg.connect(dsn, connect_timeout=2) as conn:
            found = conn.execute("SELECT head_seq FROM floor_table WHERE table_id = %s",
                                 (table,)).fetchone()
    except psycopg.OperationalError:
        return -1
    return int(found[0]) if found else 0


def _count(dsn: str, sql: str) -> int:
    with psycopg.connect(dsn) as conn:
        found = conn.execute(sql).fetchone()
    return int(found[0]) if found else 0


def _until(condition: Callable[[], bool], within: float) -> float:
    """Seconds it took `condition` to hold; fails the test past `within`."""
    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < within, f"not within {within} s"
        time.sleep(0.05)
    return time.monotonic() - start


def _table(journal: Path, seed: int, pace: float = 0.02) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "floor.simtable", str(journal), "--seed",
                             str(seed), "--pace", str(pace), "--fast"],
                            stdout=subprocess.DEVNULL)


def _shipper(journal: Path, table: str, dsn: str, *more: str) -> subprocess.Popen[bytes]:
    _until(journal.exists, 10)
    _until(lambda: _has_rows(journal), 10)
    return subprocess.Popen([sys.executable, "-m", "croupier", "ship", str(journal), "--table",
                             table, "--floor", dsn, *more], stderr=subprocess.PIPE)


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.terminate()
    for process in started:
        process.wait(10)


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    process.wait(10)


def _settled(dsn: str, journal: Path, table: str) -> None:
    """Nothing lost, nothing doubled, the chain holds on the floor."""
    rows = _journal_rows(journal)
    _until(lambda: _floor_head(dsn, table) == len(rows), CATCH_UP)
    assert _floor_rows(dsn, table) == rows
    assert all(v.bad_row is None for v in verify_floor(dsn))


@pytest.mark.timeout(120)
def test_a_network_cut_of_30_s_mid_shoe(
    floor_dsn: str, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    proxy = Proxy(floor_dsn)
    try:
        _cut_for_30_s(floor_dsn, tmp_path, processes, proxy)
    finally:
        proxy.close()


def _cut_for_30_s(
    floor_dsn: str, tmp_path: Path, processes: list[subprocess.Popen[bytes]], proxy: Proxy
) -> None:
    journal = tmp_path / "t.db"
    processes.append(table := _table(journal, seed=31))
    processes.append(shipper := _shipper(journal, "t", proxy.dsn(floor_dsn)))
    _until(lambda: _floor_head(floor_dsn, "t") > 100, 20)
    proxy.cut()
    cut_at = len(_journal_rows(journal))
    time.sleep(30)
    during = len(_journal_rows(journal))
    assert during > cut_at + 100, "the table must go on dealing while the floor is away"
    assert _floor_head(floor_dsn, "t") < during
    proxy.restore()
    caught_up = _until(lambda: _floor_head(floor_dsn, "t") >= during, CATCH_UP)
    _stop(table)
    _settled(floor_dsn, journal, "t")
    _stop(shipper)
    assert shipper.stderr is not None
    log = shipper.stderr.read().decode()
    assert "unreachable" in log
    assert "reached again" in log
    assert caught_up < CATCH_UP


@pytest.mark.timeout(120)
def test_postgresql_stopped_and_restarted(
    embedded_server: EmbeddedPostgres, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    dsn = embedded_server.dsn
    journal = tmp_path / "t.db"
    processes.append(table := _table(journal, seed=32))
    processes.append(_shipper(journal, "t", dsn))
    _until(lambda: _floor_head(dsn, "t") > 50, 20)
    embedded_server.stop()
    time.sleep(3)
    embedded_server.start()
    during = len(_journal_rows(journal))
    _until(lambda: _floor_head(dsn, "t") >= during, CATCH_UP)
    _stop(table)
    _settled(dsn, journal, "t")


@pytest.mark.timeout(120)
def test_a_shipper_killed_mid_batch(floor_dsn: str, tmp_path: Path) -> None:
    journal = tmp_path / "t.db"
    deal(journal, seed=33, cards=6000, pace=0, durable=False)
    total = len(_journal_rows(journal))
    shipper = _shipper(journal, "t", floor_dsn)
    _until(lambda: _floor_head(floor_dsn, "t") > 0, 20)
    shipper.send_signal(signal.SIGKILL)
    shipper.wait(10)
    assert 0 < _floor_head(floor_dsn, "t") < total, "the kill must land mid-journal"
    assert _floor_rows(floor_dsn, "t") == _journal_rows(journal)[:_floor_head(floor_dsn, "t")]
    again = _shipper(journal, "t", floor_dsn, "--once")
    assert again.wait(60) == 0
    _settled(floor_dsn, journal, "t")


@pytest.mark.timeout(120)
def test_two_shippers_for_one_table_at_once(
    floor_dsn: str, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    journal = tmp_path / "t.db"
    processes.append(table := _table(journal, seed=34, pace=0.005))
    processes.append(_shipper(journal, "t", floor_dsn))
    processes.append(_shipper(journal, "t", floor_dsn))
    time.sleep(5)
    _stop(table)
    _settled(floor_dsn, journal, "t")


@pytest.mark.timeout(120)
def test_a_journal_tampered_with_at_the_table(
    floor_dsn: str, tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    journal = tmp_path / "t.db"
    deal(journal, seed=35, cards=200, pace=0, durable=False)
    processes.append(shipper := _shipper(journal, "t", floor_dsn))
    shipped = len(_journal_rows(journal))
    _until(lambda: _floor_head(floor_dsn, "t") == shipped, CATCH_UP)
    _stop(shipper)
    deal(journal, seed=36, cards=100, pace=0, durable=False)
    with sqlite3.connect(journal) as db:  # a stake rewritten before the floor saw it
        db.execute("UPDATE rows SET body = replace(body, '\"amount\": 10', '\"amount\": 9999') "
                   "WHERE seq = (SELECT min(seq) FROM rows WHERE seq > ? AND kind = 'input' "
                   "AND body LIKE '%\"amount\": 10,%')", (shipped,))
        bad = db.execute("SELECT min(seq) FROM rows WHERE seq > ? AND body LIKE "
                         "'%\"amount\": 9999%' AND kind = 'input'", (shipped,)).fetchone()[0]
    assert bad is not None
    processes.append(_shipper(journal, "t", floor_dsn))
    _until(lambda: _count(floor_dsn, "SELECT count(*) FROM refused_row") > 0, CATCH_UP)
    time.sleep(1.5)  # the shipper offers the refused row again: it is not kept twice
    with psycopg.connect(floor_dsn) as conn:
        refused = conn.execute("SELECT seq FROM refused_row").fetchall()
        alarms = conn.execute("SELECT message FROM alarm WHERE source = 'floor'").fetchall()
    assert _floor_head(floor_dsn, "t") == bad - 1
    assert refused == [(bad,)]
    assert alarms == [(f"row {bad} refused: its hash does not match its contents",)]
    assert _floor_rows(floor_dsn, "t") == _journal_rows(journal)[:bad - 1]
    assert all(v.bad_row is None for v in verify_floor(floor_dsn))
