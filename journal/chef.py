"""The chef de table's authority: corrections behind a PIN, every attempt journaled.

The PIN is kept in the journal only as a salted scrypt hash. Only the chef's role may make
corrections; after `MAX_TRIES` wrong PINs in a row corrections are locked for
`LOCK_SECONDS`. Attempts are rows of the journal, so a restart neither forgets a lock nor
hides an attempt.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import assert_never

from croupier.decisions import Decision
from croupier.events import CorrectCard, EndShoe, ReopenBets, VoidCoup
from croupier.records import event_record
from journal.live import JournaledTable

MAX_TRIES = 3
LOCK_SECONDS = 300
MIN_PIN_DIGITS = 6  # a 4-digit PIN fell to its scrypt hash in 42 s
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}

Correction = CorrectCard | VoidCoup | EndShoe | ReopenBets


class Role(enum.Enum):
    TAILLEUR = "tailleur"
    CHEF = "chef"


class Refusal(enum.Enum):
    ROLE = "the tailleur's role cannot make corrections"
    NO_PIN = "no chef's PIN is set for this table"
    SETUP_ONLY = ("the first PIN is set only at the table's set-up, with the table key "
                  "(croupier audit set-pin --key-file)")
    WRONG_PIN = "wrong PIN"
    LOCKED = "corrections are locked after repeated wrong PINs"
    NO_REASON = "a correction needs a reason: say why"


@dataclass(frozen=True, slots=True)
class Refused:
    why: Refusal
    retry_in: float = 0.0


def is_pin(text: str) -> bool:
    """ASCII digits only (str.isdigit also takes "١٢٣" and "²"), and enough of them."""
    return text.isascii() and text.isdigit() and len(text) >= MIN_PIN_DIGITS


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """`scrypt$n$r$p$salt$hash`, hex."""
    salt = salt or os.urandom(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, **_SCRYPT)
    return "scrypt${n}${r}${p}$".format(**_SCRYPT) + f"{salt.hex()}${digest.hex()}"


def pin_matches(pin: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        got = hashlib.scrypt(pin.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r),
                             p=int(p))
    except ValueError:
        return False
    return hmac.compare_digest(got.hex(), digest)


class ChefDesk:
    """Checks the role and PIN of each correction before it reaches the table."""

    def __init__(
        self, live: JournaledTable, clock: Callable[[], float] = time.time
    ) -> None:
        self.live = live
        self.clock = clock

    def set_pin(
        self, pin: str, *, old_pin: str | None = None, setup: bool = False
    ) -> Refused | None:
        """Set the chef's PIN; changing it needs the old one, and the first one can only be
        set at the table's set-up (`setup`: by whoever holds the table key), never from the
        tailleur's screen."""
        if not is_pin(pin):
            raise ValueError(f"a PIN is at least {MIN_PIN_DIGITS} digits 0-9")
        stored = self.pin_hash()
        if stored is None and not setup:
            self._journal("set_pin", Refusal.SETUP_ONLY, "")
            return Refused(Refusal.SETUP_ONLY)
        if stored is not None:
            refused = self._check(Role.CHEF, old_pin or "", "set_pin", stored)
            if refused:
                return refused
        # In the chain, so that nobody can swap it without breaking the journal.
        self.live.journal.append("auth", {"action": "set_pin", "result": "granted",
                                          "pin_hash": hash_pin(pin)}, at=self._stamp())
        return None

    def pin_hash(self) -> str | None:
        """The PIN's salted hash, as last set in the journal."""
        found = None
        for row in self.live.journal.rows("auth"):
            data = row.data()
            # The "granted" answer to a PIN change's check carries no hash; its new PIN's
            # row, just after, does.
            if isinstance(data, dict) and data.get("result") == "granted" and data.get(
                    "pin_hash"):
                found = str(data["pin_hash"])
        return found

    def authorize(self, role: Role, pin: str, action: str, who: str) -> Refused | None:
        """The chef's role and PIN checked, and journaled, for an act outside the game."""
        stored = self.pin_hash()
        if stored is None:
            self._journal(action, Refusal.NO_PIN, who)
            return Refused(Refusal.NO_PIN)
        return self._check(role, pin, action, stored, who=who)

    def correct(self, role: Role, pin: str, correction: Correction) -> list[Decision] | Refused:
        """The table's decisions after the correction, or why it was refused. A correction
        says why, or it is refused before its PIN is even looked at (a wrong PIN would
        otherwise count towards the lock for a form left half filled)."""
        action = event_record(correction)["type"]
        if not correction.why.strip():
            self._journal(action, Refusal.NO_REASON, correction.who)
            return Refused(Refusal.NO_REASON)
        refused = self.authorize(role, pin, action, correction.who)
        if refused:
            return refused
        return self.live.apply(correction)

    def _check(
        self, role: Role, pin: str, action: str, stored: str, *, who: str = ""
    ) -> Refused | None:
        if role is not Role.CHEF:
            self._journal(action, Refusal.ROLE, who)
            return Refused(Refusal.ROLE)
        wait = self.locked_for()
        if wait > 0:
            self._journal(action, Refusal.LOCKED, who)
            return Refused(Refusal.LOCKED, wait)
        if not pin_matches(pin, stored):
            self._journal(action, Refusal.WRONG_PIN, who)
            return Refused(Refusal.WRONG_PIN, self.locked_for())
        self.live.journal.append("auth", {"action": action, "who": who, "result": "granted"},
                                 at=self._stamp())
        return None

    def locked_for(self) -> float:
        """Seconds until corrections unlock, from the journal's recent attempts."""
        wrong: list[float] = []
        for row in self.live.journal.rows("auth"):
            data = row.data()
            result = data.get("result") if isinstance(data, dict) else None
            if result == "wrong_pin":
                wrong.append(datetime.fromisoformat(row.at).timestamp())
            elif result == "granted":
                wrong = []
        if len(wrong) < MAX_TRIES:
            return 0.0
        return max(0.0, wrong[-1] + LOCK_SECONDS - self.clock())

    def _journal(self, action: str, refusal: Refusal, who: str) -> None:
        self.live.journal.append(
            "auth", {"action": action, "who": who, "result": _refusal_code(refusal)},
            at=self._stamp())

    def _stamp(self) -> str:
        return datetime.fromtimestamp(self.clock(), UTC).isoformat(timespec="milliseconds")


def _refusal_code(refusal: Refusal) -> str:
    """How the journal's auth rows name a refusal."""
    match refusal:
        case Refusal.ROLE:
            return "role"
        case Refusal.NO_PIN:
            return "no_pin"
        case Refusal.WRONG_PIN:
            return "wrong_pin"
        case Refusal.LOCKED:
            return "locked"
        case Refusal.SETUP_ONLY:
            return "setup_only"
        case Refusal.NO_REASON:
            return "no_reason"
        case _:
            assert_never(refusal)
