"""Reading session scripts (`*.session.jsonl`, docs/FORMATS.md (session scripts)) into table events.

A line that is not a well-formed event (not JSON, an unknown type, a field of the wrong
kind, a card that is not a card) makes the file unreadable: `FixtureError` naming the line.
A well-formed event whose values break a rule (a seat 0, a chance that does not exist, an
unknown rulebook) is kept as a `Rejected` for its line, as a table would answer it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from croupier.cards import Card
from croupier.decisions import Chance, Rejected
from croupier.errors import CardError, FixtureError, RulebookError
from croupier.events import (
    CardDrawn,
    ChoosePrison,
    CutCard,
    EndSession,
    NewShoe,
    PlaceStake,
    PrisonChoice,
    SetTable,
    ShoeEvent,
    TableEvent,
    VoidCard,
    Withdraw,
)
from croupier.rulebook import Rulebook
from croupier.value import Value


class SessionLine(Value):
    """One line of a session script: its 1-based number and what it says."""

    line: int
    event: ShoeEvent | TableEvent | Rejected


_DIGITS = 15  # amounts below 10^15
_FINEST = Decimal("0.000001")


class _BadValueError(Exception):
    """A well-formed value that no table accepts."""


def parse_session(
    text: str, load_rulebook: Callable[[str], Rulebook], *, origin: str = "<session>"
) -> list[SessionLine]:
    """The events of a session script, in order; blank lines are skipped."""
    lines = []
    for number, raw in enumerate(text.split("\n"), 1):
        if not raw.strip():
            continue
        where = f"{origin}:{number}"
        try:
            obj = json.loads(raw, parse_float=Decimal)
        except ValueError as err:
            raise FixtureError(f"{where}: not a JSON object: {str(err)[:120]}") from None
        except RecursionError:
            raise FixtureError(f"{where}: JSON nested too deep to be an event") from None
        except ArithmeticError:  # decimal's: an exponent beyond what a number may have
            raise FixtureError(f"{where}: a number out of all range") from None
        if not isinstance(obj, dict):
            raise FixtureError(f"{where}: not a JSON object: {raw.strip()[:60]!r}")
        try:
            event: ShoeEvent | TableEvent | Rejected = _event(obj, where, load_rulebook)
        except _BadValueError as err:
            event = Rejected(str(err))
        lines.append(SessionLine(number, event))
    return lines


def _event(
    obj: dict[str, Any], where: str, load_rulebook: Callable[[str], Rulebook]
) -> ShoeEvent | TableEvent:
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise FixtureError(f"{where}: an event needs a 'type' string, not {kind!r:.40}")
    fields = _Fields(obj, where, kind)
    if kind == "card":
        text = fields.text("card")
        try:
            card = Card.parse(text)
        except CardError:
            raise FixtureError(f"{where}: bad card {text!r:.40}") from None
        return CardDrawn(card, fields.flag("face_up"))
    simple: dict[object, ShoeEvent | TableEvent] = {
        "cut": CutCard(), "new_shoe": NewShoe(), "void_card": VoidCard(),
        "end_session": EndSession(),
    }
    if kind in simple:
        return simple[kind]
    if kind == "table":
        rules = fields.text("rules", required=False)
        rulebook, unreadable = None, None
        if rules is not None:
            try:
                rulebook = load_rulebook(rules)
            except RulebookError as err:
                unreadable = str(err)  # the table refuses it, and deals nothing until set up
        return SetTable(rulebook, fields.amount("minimum", required=False),
                        fields.amount("maximum", required=False), unreadable)
    if kind == "stake":
        return PlaceStake(fields.seat(), fields.chance("chance"), fields.amount("amount"),
                          fields.flag("insured"))
    if kind == "withdraw":
        return Withdraw(fields.seat(), fields.chance("chance"))
    if kind == "prison":
        choice_text = fields.text("choice")
        try:
            choice = PrisonChoice(choice_text)
        except ValueError:
            message = f"prison choice {choice_text!r:.40} is not share, keep or move"
            raise _BadValueError(message) from None
        to = fields.chance("to") if choice is PrisonChoice.MOVE else None
        return ChoosePrison(fields.seat(), fields.chance("chance"), choice, to)
    known = "card, cut, new_shoe, void_card, table, stake, withdraw, prison, end_session"
    raise FixtureError(f"{where}: unknown event type {kind!r:.40} (known: {known})")


class _Fields:
    """Typed access to an event's fields, with errors that name the line and the field."""

    def __init__(self, obj: dict[str, Any], where: str, kind: str) -> None:
        self.obj, self.where, self.kind = obj, where, kind

    def _get(self, name: str, required: bool) -> Any:
        if name not in self.obj:
            if required:
                raise FixtureError(f"{self.where}: {self.kind} event lacks {name!r}")
            return None
        return self.obj[name]

    def _wrong(self, name: str, want: str) -> FixtureError:
        return FixtureError(f"{self.where}: {name!r} of a {self.kind} event must be {want}, "
                            f"not {self.obj[name]!r:.40}")

    def text(self, name: str, *, required: bool = True) -> Any:
        value = self._get(name, required)
        if value is not None and not isinstance(value, str):
            raise self._wrong(name, "a string")
        return value

    def flag(self, name: str) -> bool:
        value = self._get(name, False)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self._wrong(name, "true or false")
        return value

    def seat(self) -> int:
        value = self._get("seat", True)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._wrong("seat", "a whole number")
        if value < 1:
            raise _BadValueError(f"seat {value} does not exist: seats count from 1")
        return value

    def chance(self, name: str) -> Chance:
        value = self.text(name)
        try:
            return Chance(value)
        except ValueError:
            message = f"{name} {value!r:.40} is not rouge, noir, couleur or inverse"
            raise _BadValueError(message) from None

    def amount(self, name: str, *, required: bool = True) -> Any:
        value = self._get(name, required)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            raise self._wrong(name, "a number")
        amount = Decimal(value)
        # The exponent first: arithmetic on 1e1000000 itself overflows.
        if (not amount.is_finite() or amount.adjusted() >= _DIGITS
                or amount != amount.quantize(_FINEST)):
            raise self._wrong(name, "a number below 10^15 with at most 6 decimals")
        return amount
