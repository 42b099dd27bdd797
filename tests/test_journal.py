"""The journal: hash chain, tamper detection, restore, export, and the audit commands."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from croupier.decisions import Chance
from croupier.events import CorrectCard, PlaceStake, SetTable
from croupier.fixtures import parse_shoe
from croupier.rulebook import load_rulebook
from journal.live import JournaledTable
from journal.store import Journal, JournalError, row_hash, verify

VENEZIA = load_rulebook("venezia")
COUPS = "2C 3C 4C 5C 6C  TS KS KD 5C KH KD TS AC  KS KC KD AS KH KD TS AH  TH KS"


def journaled(path: Path, secret: bytes | None = None) -> JournaledTable:
    live = JournaledTable.open(path, VENEZIA, secret=secret)
    live.apply(SetTable(None, Decimal(10), Decimal(1000)))
    live.apply(PlaceStake(2, Chance.NOIR, Decimal(100), True))
    for event in parse_shoe(COUPS):
        live.apply(event)
        if len(live.table.log) == 12:
            live.apply(PlaceStake(1, Chance.ROUGE, Decimal("12.5")))
    return live


@pytest.fixture
def journal_file(tmp_path: Path) -> Path:
    path = tmp_path / "table.db"
    journaled(path).close()
    return path


def _sql(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


def test_an_untouched_journal_verifies(journal_file: Path) -> None:
    verdict = verify(journal_file)
    assert verdict.intact
    assert verdict.rows > 50


def test_wal_and_full_synchronous_writes(journal_file: Path) -> None:
    with Journal(journal_file) as journal:
        assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


@pytest.mark.parametrize(
    ("statements", "bad_row", "words"),
    [
        (["UPDATE rows SET body = body || ' ' WHERE seq = 9"], 9,
         "contents were changed"),
        (["DELETE FROM rows WHERE seq = 20"], 21, "row 20 is missing"),
        (["UPDATE rows SET seq = seq + 1000 WHERE seq >= 15",
          "INSERT INTO rows SELECT 15, at, kind, body, prev, hash FROM rows WHERE seq = 14",
          "UPDATE rows SET seq = seq - 999 WHERE seq >= 1015"], 15, "does not follow"),
        (["UPDATE rows SET seq = -1 WHERE seq = 7", "UPDATE rows SET seq = 7 WHERE seq = 8",
          "UPDATE rows SET seq = 8 WHERE seq = -1"], 7, ""),
        (["DELETE FROM rows WHERE seq > 40"], 41, "removed from the end"),
    ],
    ids=["changed", "deleted", "inserted", "reordered", "truncated"],
)
def test_tampering_is_caught_at_the_first_bad_row(
    journal_file: Path, statements: list[str], bad_row: int | None, words: str
) -> None:
    _sql(journal_file, *statements)
    verdict = verify(journal_file)
    assert not verdict.intact
    if bad_row is not None:
        assert verdict.bad_row == bad_row
    assert words in verdict.reason


def test_a_row_appended_behind_the_journals_back_is_caught(journal_file: Path) -> None:
    db = sqlite3.connect(journal_file)
    seq, digest = db.execute("SELECT seq, hash FROM rows ORDER BY seq DESC LIMIT 1").fetchone()
    body = '{"type": "card", "card": "AS"}'
    forged = row_hash(seq + 1, "2026-01-01T00:00:00", "input", body, digest, secret=None)
    db.execute("INSERT INTO rows VALUES (?, ?, ?, ?, ?, ?)",
               (seq + 1, "2026-01-01T00:00:00", "input", body, digest, forged))
    db.commit()
    db.close()
    verdict = verify(journal_file)
    assert (verdict.bad_row, verdict.reason) == (seq + 1, "the recorded head does not match "
                                                           "the last row")


def test_cutting_rows_off_a_keyed_journal_is_caught_even_with_its_head_rewritten(
    tmp_path: Path,
) -> None:
    path = tmp_path / "keyed.db"
    journaled(path, secret=b"k").close()
    db = sqlite3.connect(path)
    db.execute("DELETE FROM rows WHERE seq > 30")
    digest = db.execute("SELECT hash FROM rows WHERE seq = 30").fetchone()[0]
    db.execute("UPDATE meta SET value = ? WHERE key = 'head'", (f"30:{digest}",))
    db.commit()
    db.close()
    verdict = verify(path, secret=b"k")
    assert (verdict.bad_row, verdict.reason) == (30, "the recorded head does not match the "
                                                     "last row")
    _sql(path, "DELETE FROM meta WHERE key = 'head'")
    assert "head record is missing" in verify(path, secret=b"k").reason


def test_a_path_with_url_characters_is_the_file_verified(tmp_path: Path) -> None:
    plain, odd = tmp_path / "tab", tmp_path / "tab#le?.db"
    journaled(plain).close()
    journaled(odd).close()
    _sql(odd, "UPDATE rows SET body = body || ' ' WHERE seq = 13")
    assert verify(plain).intact
    assert verify(odd).bad_row == 13


def test_any_text_survives_the_journal(tmp_path: Path) -> None:
    from croupier.events import DeviceAlarm

    path = tmp_path / "t.db"
    live = JournaledTable.open(path, VENEZIA)
    live.apply(DeviceAlarm("shoe", "\x001.2.3"))
    live.apply(DeviceAlarm("shoe", "\x005"))
    live.close()
    with Journal(path, readonly=True) as journal:
        texts = [r.data().get("text") for r in journal.rows("input")]
    assert texts == ["\x001.2.3", "\x005"]
    assert verify(path).intact
    assert JournaledTable.open(path, VENEZIA).table.log[-1] == DeviceAlarm("shoe", "\x005")


def test_audit_export_leaves_a_foreign_database_alone(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    _sql(other, "CREATE TABLE t (x)")
    before = other.read_bytes()
    done = croupier("audit", "export", str(other), "--json")
    assert done.returncode == 2
    assert "not a croupier journal" in done.stderr
    assert other.read_bytes() == before


def test_a_keyed_journal_needs_its_secret_and_resists_rehashing(tmp_path: Path) -> None:
    path = tmp_path / "keyed.db"
    journaled(path, secret=b"table 7 secret").close()
    assert verify(path, secret=b"table 7 secret").intact
    assert not verify(path, secret=b"wrong").intact
    with pytest.raises(JournalError, match="keyed"):
        verify(path)
    with pytest.raises(JournalError, match="secret is needed"):
        Journal(path)


def test_restore_stands_exactly_where_the_table_stood(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    live = journaled(path)
    state, stakes, log = live.table.shoe.state(), live.table.ledger.stakes, live.table.log
    live.close()
    again = JournaledTable.open(path, load_rulebook("france"))  # the journal's rules win
    assert again.table.shoe.state() == state
    assert again.table.ledger.stakes == stakes
    assert again.table.log == log
    assert again.table.shoe.rulebook.name == "venezia"
    assert verify(path).intact


def test_restore_answers_an_input_recorded_just_before_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    live = journaled(path)
    live.journal.append("input", {"type": "card", "card": "KD"})  # the crash came here
    rows_before = live.journal.head[0]
    live.close()
    again = JournaledTable.open(path, VENEZIA)
    rows = list(again.journal.rows())
    assert len(rows) == rows_before + 1
    assert rows[-1].kind == "decisions"
    assert rows[-1].data()["cause"] == rows_before
    assert again.table.shoe.state().noir_point == 30


def test_corrections_are_journaled_and_replayed(tmp_path: Path) -> None:
    from croupier.cards import Card

    path = tmp_path / "t.db"
    live = journaled(path)
    live.apply(CorrectCard(Card.parse("QS"), "chef Rossi", "camera misread"))
    state = live.table.shoe.state()
    live.close()
    assert JournaledTable.open(path, VENEZIA).table.shoe.state() == state


def croupier(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "croupier", *args], capture_output=True,
                          text=True, timeout=60, check=False)


def test_audit_verify_and_export_commands(journal_file: Path) -> None:
    ok = croupier("audit", "verify", str(journal_file))
    assert ok.returncode == 0
    assert len(ok.stdout.strip().splitlines()) == 1
    assert "intact" in ok.stdout
    export = croupier("audit", "export", str(journal_file), "--json")
    rows = [json.loads(line) for line in export.stdout.splitlines()]
    assert [r["seq"] for r in rows] == list(range(1, len(rows) + 1))
    assert rows[0]["kind"] == "opened"
    assert rows[0]["rulebook"]["name"] == "venezia"
    assert (rows[1]["kind"], rows[1]["type"]) == ("input", "table")
    stake = next(r for r in rows if r.get("type") == "stake" and r["seat"] == 1)
    assert stake["amount"] == 12.5
    coups = [d for r in rows if r["kind"] == "decisions" for d in r["decisions"]
             if d["event"] == "coup"]
    assert [c["result"] for c in coups] == ["rouge", "refait"]
    _sql(journal_file, "UPDATE rows SET at = 'x' WHERE seq = 5")
    bad = croupier("audit", "verify", str(journal_file))
    assert bad.returncode == 1
    assert "row 5" in bad.stdout


def test_audit_of_a_missing_or_foreign_file_exits_2(tmp_path: Path) -> None:
    assert croupier("audit", "verify", str(tmp_path / "none.db")).returncode == 2
    foreign = tmp_path / "foreign.db"
    foreign.write_text("not sqlite at all" * 100)
    done = croupier("audit", "verify", str(foreign))
    assert done.returncode == 2
    assert "foreign.db" in done.stderr


def test_replay_journals_the_lines_it_refuses_too(tmp_path: Path) -> None:
    script = tmp_path / "s.session.jsonl"
    script.write_text('{"type": "stake", "seat": 0, "chance": "rouge", "amount": 5}\n'
                      '{"type": "table", "rules": "monaco"}\n')
    db = tmp_path / "s.db"
    assert croupier("replay", str(script), "--json", "--journal", str(db)).returncode == 0
    with Journal(db, readonly=True) as journal:
        refused = [row.data() for row in journal.rows("rejected")]
        inputs = {row.seq: row.data() for row in journal.rows("input")}
        decisions = [row.data() for row in journal.rows("decisions")]
    assert [r["line"] for r in refused] == [1]
    # Rules that cannot be read are a set-up the table itself refuses, and stays refused.
    (cause,) = [seq for seq, data in inputs.items() if data["type"] == "table"]
    assert "monaco" in inputs[cause]["unreadable"]
    (answer,) = [data for data in decisions if data["cause"] == cause]
    assert "monaco" in answer["decisions"][0]["reason"]


def test_replay_journals_a_session(tmp_path: Path) -> None:
    shoe = tmp_path / "s.shoe"
    shoe.write_text(COUPS)
    db = tmp_path / "r.db"
    done = croupier("replay", str(shoe), "--json", "--journal", str(db))
    assert done.returncode == 0, done.stderr
    assert verify(db).intact
    assert croupier("replay", str(shoe), "--journal", str(db)).returncode == 2


def test_a_write_the_disk_refuses_is_a_journal_error_and_keeps_the_chain(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    live = journaled(path)
    rows = live.journal.head[0]
    blocker = sqlite3.connect(path)
    blocker.execute("BEGIN EXCLUSIVE")  # another writer holds the file: the append must fail
    live.journal._db.execute("PRAGMA busy_timeout = 50")
    with pytest.raises(JournalError, match="cannot write"):
        live.journal.append("input", {"type": "cut"})
    blocker.rollback()
    blocker.close()
    assert live.journal.head[0] == rows
    live.journal.append("input", {"type": "cut"})
    live.close()
    assert verify(path).intact
