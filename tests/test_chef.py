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
    assert chef.set_pin("4711") is None
    return chef


def auth_results(desk: ChefDesk) -> list[str]:
    return [row.data()["result"] for row in desk.live.journal.rows("auth")]


def test_the_pin_is_kept_only_as_a_salted_scrypt_hash(desk: ChefDesk) -> None:
    stored = desk.pin_hash()
    assert stored is not None
    assert stored.startswith("scrypt$")
    assert "4711" not in stored
    assert pin_matches("4711", stored)
    assert not pin_matches("4712", stored)
    raw = desk.live.journal.path.read_bytes()
    assert b"4711" not in raw


def test_the_chef_corrects_with_the_right_pin_and_it_is_journaled(desk: ChefDesk) -> None:
    decisions = desk.correct(Role.CHEF, "4711", VoidCoup("chef Rossi", "cards exposed"))
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
    refused = desk.correct(Role.TAILLEUR, "4711", VoidCoup("tailleur", "x"))
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
    locked = desk.correct(Role.CHEF, "4711", VoidCoup("chef", "now"))
    assert isinstance(locked, Refused)
    assert locked.why is Refusal.LOCKED
    assert 0 < locked.retry_in <= LOCK_SECONDS
    # A restart does not lift the lock: it is read back from the journal.
    again = ChefDesk(JournaledTable.restore(desk.live.journal), clock)
    assert again.locked_for() > 0
    clock.now += LOCK_SECONDS + 1
    assert not isinstance(desk.correct(Role.CHEF, "4711", VoidCoup("chef", "later")), Refused)
    assert auth_results(desk)[-5:] == ["wrong_pin"] * 3 + ["locked", "granted"]


def test_changing_the_pin_needs_the_old_one(desk: ChefDesk) -> None:
    assert desk.set_pin("1234", old_pin="9999") == Refused(Refusal.WRONG_PIN)
    assert desk.set_pin("1234", old_pin="4711") is None
    with pytest.raises(ValueError, match="at least 4 digits"):
        desk.set_pin("12", old_pin="1234")


def test_no_pin_set_refuses_corrections(tmp_path: Path) -> None:
    live = JournaledTable.open(tmp_path / "t.db", load_rulebook("venezia"))
    assert ChefDesk(live).correct(Role.CHEF, "", VoidCoup("c", "x")) == Refused(Refusal.NO_PIN)


def test_set_pin_command_reads_the_pins_from_stdin(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    JournaledTable.open(db, load_rulebook("venezia")).close()
    command = [sys.executable, "-m", "croupier", "audit", "set-pin", str(db)]
    first = subprocess.run(command, input="2468\n", capture_output=True, text=True, timeout=60,
                           check=False)
    assert first.returncode == 0, first.stderr
    wrong = subprocess.run(command, input="1111\n1357\n", capture_output=True, text=True,
                           timeout=60, check=False)
    assert wrong.returncode == 1
    assert "wrong PIN" in wrong.stderr
    assert verify(db).intact
