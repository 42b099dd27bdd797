"""Shipping to a real PostgreSQL: idempotent, verified on arrival, derived in one go."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from floor.schema import migrate, migrations
from floor.shipper import Shipper
from floor.simtable import deal
from journal.stats import shoes_of
from journal.store import Journal, row_hash


def _croupier(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "croupier", *args], capture_output=True,
                          text=True, timeout=60, check=False)


def _count(dsn: str, sql: str, *params: object) -> int:
    with psycopg.connect(dsn) as conn:
        found = conn.execute(sql, params).fetchone()
    assert found is not None
    return int(found[0])


def _rows(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT seq, at, kind, body, prev, hash FROM rows "
                          "ORDER BY seq").fetchall()


def _floor_rows(dsn: str, table: str) -> list[tuple[object, ...]]:
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT seq, at, kind, body, prev, hash FROM journal_row "
                            "WHERE table_id = %s ORDER BY seq", (table,)).fetchall()


def test_init_applies_each_migration_once(floor_dsn: str) -> None:
    assert migrate(floor_dsn) == []
    done = _croupier("floor", "init", "--floor", floor_dsn)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "floor schema: up to date"
    assert _count(floor_dsn, "SELECT count(*) FROM floor_migration") == len(migrations())


def test_ship_once_stores_every_row_once_and_derives_coups(
    floor_dsn: str, tmp_path: Path
) -> None:
    journal = tmp_path / "t1.db"
    deal(journal, seed=3, cards=700, pace=0, durable=False)
    first = _croupier("ship", str(journal), "--table", "t1", "--floor", floor_dsn, "--once")
    assert first.returncode == 0, first.stderr
    again = _croupier("ship", str(journal), "--table", "t1", "--floor", floor_dsn, "--once")
    assert again.returncode == 0, again.stderr
    rows = _rows(journal)
    assert f"rows 1 to {len(rows)} of table t1" in again.stdout
    assert _floor_rows(floor_dsn, "t1") == rows
    coups = sum(len(shoe.coups) for shoe in shoes_of(journal))
    assert _count(floor_dsn, "SELECT count(*) FROM coup WHERE NOT retracted") == coups
    settled = _count(floor_dsn, "SELECT count(*) FROM settlement")
    assert settled > 0


def test_rows_written_after_a_ship_follow_on(floor_dsn: str, tmp_path: Path) -> None:
    journal = tmp_path / "t.db"
    deal(journal, seed=4, cards=100, pace=0, durable=False)
    assert _croupier("ship", str(journal), "--table", "t", "--floor", floor_dsn,
                     "--once").returncode == 0
    deal(journal, seed=5, cards=150, pace=0, durable=False)
    assert _croupier("ship", str(journal), "--table", "t", "--floor", floor_dsn,
                     "--once").returncode == 0
    assert _floor_rows(floor_dsn, "t") == _rows(journal)


def _tamper(path: Path, seq: int, body: str) -> None:
    with sqlite3.connect(path) as db:
        db.execute("UPDATE rows SET body = ? WHERE seq = ?", (body, seq))


def test_a_changed_row_is_refused_kept_aside_and_alarmed_once(
    floor_dsn: str, tmp_path: Path
) -> None:
    journal = tmp_path / "t.db"
    deal(journal, seed=6, cards=50, pace=0, durable=False)
    assert _croupier("ship", str(journal), "--table", "t", "--floor", floor_dsn,
                     "--once").returncode == 0
    shipped = len(_rows(journal))
    deal(journal, seed=7, cards=50, pace=0, durable=False)
    _tamper(journal, shipped + 3, '{"type": "card", "card": "AS"}')
    for _ in range(2):
        done = _croupier("ship", str(journal), "--table", "t", "--floor", floor_dsn, "--once")
        assert done.returncode == 1
        assert f"row {shipped + 3} refused by the floor: its hash does not match" in done.stdout
    assert _floor_rows(floor_dsn, "t") == _rows(journal)[:shipped + 2]
    assert _count(floor_dsn, "SELECT count(*) FROM refused_row WHERE seq = %s",
                  shipped + 3) == 1
    assert _count(floor_dsn, "SELECT count(*) FROM alarm WHERE source = 'floor' "
                  "AND code = 'row_refused'") == 1


def test_a_journal_rewritten_after_shipping_is_a_fork(floor_dsn: str, tmp_path: Path) -> None:
    journal = tmp_path / "t.db"
    deal(journal, seed=8, cards=60, pace=0, durable=False)
    assert _croupier("ship", str(journal), "--table", "t", "--floor", floor_dsn,
                     "--once").returncode == 0
    before = _floor_rows(floor_dsn, "t")
    # Rewritten whole, chain and head recomputed: only the floor's copy can tell.
    with Journal(journal) as rewritten:
        last = rewritten.head[0]
    _rechain(journal, last, '{"cause": 1, "decisions": []}')
    done = _croupier("ship", str(journal), "--table", "t", "--floor", floor_dsn, "--once")
    assert done.returncode == 1
    assert f"row {last} refused by the floor: differs from row {last} already" in done.stdout
    assert _floor_rows(floor_dsn, "t") == before


def _rechain(path: Path, seq: int, body: str) -> None:
    with sqlite3.connect(path) as db:
        seq_, at, kind, _body, prev, _hash = db.execute(
            "SELECT * FROM rows WHERE seq = ?", (seq,)).fetchone()
        db.execute("UPDATE rows SET body = ?, hash = ? WHERE seq = ?",
                   (body, row_hash(seq_, at, kind, body, prev, secret=None), seq))


def test_a_missing_row_is_a_gap(floor_dsn: str, tmp_path: Path) -> None:
    journal = tmp_path / "t.db"
    deal(journal, seed=9, cards=40, pace=0, durable=False)
    with sqlite3.connect(journal) as db:
        db.execute("DELETE FROM rows WHERE seq = 20")
    done = _croupier("ship", str(journal), "--table", "t", "--floor", floor_dsn, "--once")
    assert done.returncode == 1
    assert "row 21 refused by the floor: rows 20 to 20 are missing" in done.stdout
    assert _count(floor_dsn, "SELECT head_seq FROM floor_table") == 19


def test_the_floor_checks_hmacs_when_it_holds_the_table_key(
    floor_dsn: str, tmp_path: Path
) -> None:
    key = tmp_path / "table.key"
    key.write_bytes(b"s3cret-of-table-9")
    key.chmod(0o600)
    journal = tmp_path / "keyed.db"
    with Journal(journal, secret=b"s3cret-of-table-9") as keyed:
        keyed.append("opened", {"rulebook": {}})
        keyed.append("input", {"type": "cut"})
    assert _croupier("floor", "key", "--floor", floor_dsn, "--table", "k", "--key-file",
                     str(key)).returncode == 0
    # Rechained without the key: a plain SHA-256 is no longer the table's HMAC.
    _rechain(journal, 2, '{"type": "new_shoe"}')
    done = _croupier("ship", str(journal), "--table", "k", "--floor", floor_dsn, "--once")
    assert done.returncode == 1
    assert "row 2 refused by the floor: its hash does not match its contents under the " \
           "table's key" in done.stdout
    assert _count(floor_dsn, "SELECT head_seq FROM floor_table") == 1


def test_floor_verify_names_a_row_changed_on_the_floor(floor_dsn: str, tmp_path: Path) -> None:
    for table in ("a", "b"):
        journal = tmp_path / f"{table}.db"
        deal(journal, seed=ord(table), cards=30, pace=0, durable=False)
        assert _croupier("ship", str(journal), "--table", table, "--floor", floor_dsn,
                         "--once").returncode == 0
    intact = _croupier("floor", "verify", "--floor", floor_dsn)
    assert intact.returncode == 0, intact.stdout
    assert "2 of 2 tables hold their chain" in intact.stdout
    with psycopg.connect(floor_dsn) as conn:
        conn.execute("UPDATE journal_row SET body = '{}' WHERE table_id = 'b' AND seq = 7")
    broken = _croupier("floor", "verify", "--floor", floor_dsn)
    assert broken.returncode == 1
    assert "table b: row 7: its contents were changed" in broken.stdout


def test_two_shippers_for_one_table_store_each_row_once(floor_dsn: str, tmp_path: Path) -> None:
    journal = tmp_path / "t.db"
    deal(journal, seed=10, cards=600, pace=0, durable=False)
    shippers = [Shipper(journal, "t", floor_dsn, batch=50) for _ in range(2)]
    results = []
    threads = [threading.Thread(target=lambda s=s: results.append(s.ship_available()))
               for s in shippers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    for shipper in shippers:
        shipper.close()
    assert [r.refused for r in results] == [None, None]
    assert _floor_rows(floor_dsn, "t") == _rows(journal)


def test_an_unreachable_floor_is_one_line_and_exit_2(tmp_path: Path) -> None:
    journal = tmp_path / "t.db"
    deal(journal, seed=1, cards=5, pace=0, durable=False)
    done = _croupier("ship", str(journal), "--table", "t", "--once", "--floor",
                     "postgresql://nobody@127.0.0.1:1/none")
    assert done.returncode == 2
    assert done.stderr.startswith("croupier ship: cannot reach the floor at 127.0.0.1:1/none")
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("bad", ["not-a-journal.txt", "missing.db"])
def test_a_bad_journal_path_is_one_line(tmp_path: Path, bad: str) -> None:
    if bad.endswith(".txt"):
        (tmp_path / bad).write_text("hello")
    done = _croupier("ship", str(tmp_path / bad), "--table", "t", "--once", "--floor",
                     "postgresql://nobody@127.0.0.1:1/none")
    assert done.returncode == 2
    assert done.stderr.startswith("croupier ship: ")
    assert len(done.stderr.strip().splitlines()) == 1


def test_alarms_and_corrections_of_the_table_reach_the_floor(
    floor_dsn: str, tmp_path: Path
) -> None:
    journal = tmp_path / "t.db"
    deal(journal, seed=12, cards=900, pace=0, durable=False, incidents=0.03)
    assert _croupier("ship", str(journal), "--table", "t", "--floor", floor_dsn,
                     "--once").returncode == 0
    expected = {"device": 0, "auth_wrong_pin": 0, "corrections": 0}
    with Journal(journal, create=False) as table:
        for row in table.rows():
            body = row.data()
            if row.kind == "input" and body["type"] == "device_alarm":
                expected["device"] += 1
            elif row.kind == "auth" and body["result"] == "wrong_pin":
                expected["auth_wrong_pin"] += 1
            elif row.kind == "decisions":
                expected["corrections"] += sum(
                    d["event"] == "correction" for d in body["decisions"])
    assert min(expected.values()) > 0, expected
    for code in ("device", "auth_wrong_pin"):
        assert _count(floor_dsn, "SELECT count(*) FROM alarm WHERE code = %s",
                      code) == expected[code]
    assert _count(floor_dsn, "SELECT count(*) FROM correction "
                  "WHERE action = 'void_coup'") == expected["corrections"]


def test_a_journal_replaced_by_a_shorter_one_is_a_fork(floor_dsn: str, tmp_path: Path) -> None:
    journal = tmp_path / "t.db"
    deal(journal, seed=13, cards=80, pace=0, durable=False)
    assert _croupier("ship", str(journal), "--table", "t", "--floor", floor_dsn,
                     "--once").returncode == 0
    for suffix in ("", "-wal", "-shm"):
        Path(f"{journal}{suffix}").unlink(missing_ok=True)
    deal(journal, seed=14, cards=10, pace=0, durable=False)
    last = len(_rows(journal))
    done = _croupier("ship", str(journal), "--table", "t", "--floor", floor_dsn, "--once")
    assert done.returncode == 1
    assert f"row {last} refused by the floor: differs from row {last} already" in done.stdout


@pytest.mark.parametrize(("action", "relation"),
                         [("verify", "floor_table"), ("password", "floor_setting")])
def test_a_floor_without_its_schema_is_one_line_and_exit_2(
    pg_server: str, action: str, relation: str
) -> None:
    with psycopg.connect(pg_server, autocommit=True) as admin:
        admin.execute("DROP DATABASE IF EXISTS croupier_floor_empty")
        admin.execute("CREATE DATABASE croupier_floor_empty")
    try:
        done = subprocess.run(
            [sys.executable, "-m", "croupier", "floor", action, "--floor",
             make_conninfo(pg_server, dbname="croupier_floor_empty")],
            input="long enough password\n", capture_output=True, text=True, timeout=60,
            check=False)
    finally:
        with psycopg.connect(pg_server, autocommit=True) as admin:
            admin.execute("DROP DATABASE croupier_floor_empty WITH (FORCE)")
    assert done.returncode == 2
    assert done.stderr.startswith(
        f'croupier floor: the floor refused: relation "{relation}" does not exist')
    assert len(done.stderr.strip().splitlines()) == 1
