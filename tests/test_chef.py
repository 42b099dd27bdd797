"""The chef de table's PIN, role and lockout; every attempt is in the journal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from croupier.decisions import Corrected, CoupVoided
from croupier.events import VoidCoup
from croupier.fixtures import parse_shoe
from croupier.rulebook import load_rulebook
from journal.chef import LOCK_SECONDS, MAX_TRIES, ChefDesk, Refusal, Refused, Role, pin_matches
from journal.live import JournaledTable
from journal.store import verify


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def desk(tmp_path: Path) -> ChefDesk:
    live = JournaledTable.open(tmp_path / "t.db", load_rulebook("venezia"))
    for event in parse_shoe("2C 3C 4C 5C 6C KS KC"):
        live.apply(event)
    chef = ChefDesk(live, Clock())
    assert chef.set_pin("471108", setup=True) is None
    return chef


def auth_results(desk: ChefDesk) -> list[str]:
    return [row.data()["result"] for row in desk.live.journal.rows("auth")]


def test_the_pin_is_kept_only_as_a_salted_scrypt_hash(desk: ChefDesk) -> None:
    stored = desk.pin_hash()
    assert stored is not None
    assert stored.startswith("scrypt$")
    assert "471108" not in stored
    assert pin_matches("471108", stored)
    assert not pin_matches("471109", stored)
    raw = desk.live.journal.path.read_bytes()
    assert b"471108" not in raw


def test_the_chef_corrects_with_the_right_pin_and_it_is_journaled(desk: ChefDesk) -> None:
    decisions = desk.correct(Role.CHEF, "471108", VoidCoup("chef Rossi", "cards exposed"))
    assert not isinstance(decisions, Refused)
    assert any(isinstance(d, CoupVoided) for d in decisions)
    assert any(isinstance(d, Corrected) and d.who == "chef Rossi" for d in decisions)
    inputs = [row.data() for row in desk.live.journal.rows("input")]
    assert inputs[-1] == {"type": "void_coup", "who": "chef Rossi", "why": "cards exposed"}
    assert auth_results(desk)[-1] == "granted"
    assert verify(desk.live.journal.path).intact


def test_the_pin_cannot_be_swapped_behind_the_journals_back(desk: ChefDesk) -> None:
    import sqlite3

    from journal.chef import hash_pin

    db = sqlite3.connect(desk.live.journal.path)
    db.execute("INSERT OR REPLACE INTO meta VALUES ('chef_pin', ?)", (hash_pin("0000"),))
    db.commit()
    assert isinstance(desk.correct(Role.CHEF, "0000", VoidCoup("x", "forged")), Refused)
    forged = hash_pin("0000")
    db.execute("UPDATE rows SET body = json_set(body, '$.pin_hash', ?) WHERE kind = 'auth'",
               (forged,))
    db.commit()
    db.close()
    assert not verify(desk.live.journal.path).intact


def test_the_tailleur_cannot_correct_even_with_the_pin(desk: ChefDesk) -> None:
    before = desk.live.table.shoe.state()
    refused = desk.correct(Role.TAILLEUR, "471108", VoidCoup("tailleur", "x"))
    assert refused == Refused(Refusal.ROLE)
    assert desk.live.table.shoe.state() == before
    assert auth_results(desk)[-1] == "role"


def test_repeated_wrong_pins_lock_corrections_for_a_while(desk: ChefDesk) -> None:
    clock = desk.clock
    assert isinstance(clock, Clock)
    for _ in range(MAX_TRIES):
        refused = desk.correct(Role.CHEF, "0000", VoidCoup("x", "guess"))
        assert isinstance(refused, Refused)
        assert refused.why is Refusal.WRONG_PIN
    locked = desk.correct(Role.CHEF, "471108", VoidCoup("chef", "now"))
    assert isinstance(locked, Refused)
    assert locked.why is Refusal.LOCKED
    assert 0 < locked.retry_in <= LOCK_SECONDS
    # A restart does not lift the lock: it is read back from the journal.
    again = ChefDesk(JournaledTable.restore(desk.live.journal), clock)
    assert again.locked_for() > 0
    clock.now += LOCK_SECONDS + 1
    assert not isinstance(desk.correct(Role.CHEF, "471108", VoidCoup("chef", "later")), Refused)
    assert auth_results(desk)[-5:] == ["wrong_pin"] * 3 + ["locked", "granted"]


def test_changing_the_pin_needs_the_old_one(desk: ChefDesk) -> None:
    assert desk.set_pin("123456", old_pin="999999") == Refused(Refusal.WRONG_PIN)
    assert desk.set_pin("123456", old_pin="471108") is None
    with pytest.raises(ValueError, match="at least 6 digits"):
        desk.set_pin("12", old_pin="123456")


def test_no_pin_set_refuses_corrections(tmp_path: Path) -> None:
    live = JournaledTable.open(tmp_path / "t.db", load_rulebook("venezia"))
    assert ChefDesk(live).correct(Role.CHEF, "", VoidCoup("c", "x")) == Refused(Refusal.NO_PIN)


def test_a_changed_pin_still_grants_corrections(desk: ChefDesk) -> None:
    # The check of the old PIN is a "granted" row with no hash; it must not hide the new one.
    assert desk.set_pin("123456", old_pin="471108") is None
    assert not isinstance(desk.correct(Role.CHEF, "123456", VoidCoup("chef", "x")), Refused)
    again = ChefDesk(JournaledTable.restore(desk.live.journal), desk.clock)
    assert isinstance(again.pin_hash(), str)
    assert again.correct(Role.CHEF, "471108", VoidCoup("chef", "y")) == Refused(
        Refusal.WRONG_PIN)


@pytest.mark.parametrize("pin", ["12345", "١٢٣٤٥٦", "123²56", "12 3456", "abcdef"])
def test_a_pin_is_six_ascii_digits_or_more(desk: ChefDesk, pin: str) -> None:
    with pytest.raises(ValueError, match="digits 0-9"):
        desk.set_pin(pin, old_pin="471108")


def test_the_first_pin_is_set_only_at_set_up(tmp_path: Path) -> None:
    live = JournaledTable.open(tmp_path / "t.db", load_rulebook("venezia"))
    desk = ChefDesk(live)
    assert desk.set_pin("246800") == Refused(Refusal.SETUP_ONLY)
    assert desk.pin_hash() is None
    assert auth_results(desk) == ["setup_only"]


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "croupier", *args], input=stdin,
                          capture_output=True, text=True, timeout=60, check=False)


def test_set_pin_command_reads_the_pins_from_stdin(tmp_path: Path) -> None:
    db, key = tmp_path / "t.db", tmp_path / "table.key"
    key.write_bytes(b"table 9 secret")
    key.chmod(0o600)
    JournaledTable.open(db, load_rulebook("venezia"), secret=b"table 9 secret").close()
    unkeyed = _run("audit", "set-pin", str(db), stdin="246800\n")
    assert unkeyed.returncode == 2
    assert "secret is needed" in unkeyed.stderr
    first = _run("audit", "set-pin", str(db), "--key-file", str(key), stdin="246800\n")
    assert first.returncode == 0, first.stderr
    wrong = _run("audit", "set-pin", str(db), "--key-file", str(key),
                 stdin="111111\n135700\n")
    assert wrong.returncode == 1
    assert "wrong PIN" in wrong.stderr
    assert verify(db, secret=b"table 9 secret").intact


def test_the_first_pin_needs_the_table_key(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    JournaledTable.open(db, load_rulebook("venezia")).close()
    done = _run("audit", "set-pin", str(db), stdin="246800\n")
    assert done.returncode == 1
    assert "set-up" in done.stderr


def test_a_key_file_others_can_read_is_refused(tmp_path: Path) -> None:
    key = tmp_path / "table.key"
    key.write_bytes(b"secret")
    key.chmod(0o644)
    JournaledTable.open(tmp_path / "t.db", load_rulebook("venezia"), secret=b"secret").close()
    done = _run("audit", "verify", str(tmp_path / "t.db"), "--key-file", str(key))
    assert done.returncode == 2
    assert "readable by others (mode 0644): chmod 600" in done.stderr


def test_export_never_prints_the_pin_hash(desk: ChefDesk) -> None:
    path = str(desk.live.journal.path)
    desk.live.close()
    for form in ((), ("--json",)):
        done = _run("audit", "export", path, *form)
        assert done.returncode == 0, done.stderr
        assert "scrypt" not in done.stdout
        assert "(hidden)" in done.stdout


@pytest.mark.parametrize("why", ["", "   "])
def test_a_correction_without_a_reason_is_refused_and_journaled(desk: ChefDesk, why: str) -> None:
    before = len(list(desk.live.journal.rows("input")))
    assert desk.correct(Role.CHEF, "471108", VoidCoup("chef", why)) == Refused(Refusal.NO_REASON)
    assert len(list(desk.live.journal.rows("input"))) == before  # the table never saw it
    assert auth_results(desk)[-1] == "no_reason"
    assert desk.locked_for() == 0  # no PIN was tried: nothing counts towards the lock
