"""What enters the engine: the shoe's events, one at a time."""

from __future__ import annotations

import enum
from decimal import Decimal
from typing import Never

from croupier.cards import Card
from croupier.decisions import Chance
from croupier.rulebook import Rulebook
from croupier.value import Value


class CardDrawn(Value):
    """A card left the shoe; `face_up` when the shuffler turned it over."""

    card: Card
    face_up: bool = False


class CardDropped(Value):
    """A card left the shoe and was dropped before it was laid: void at once.

    What a table's history says of a card voided after it had already decided a coup.
    """

    card: Card
    face_up: bool = False


class BurnUnseen(Value):
    """A card was burned face down where no reader saw it (a table read by a camera)."""


class CutCard(Value):
    """The red cut card appeared."""


class VoidCard(Value):
    """The tailleur voided the last card drawn (dropped on the floor or into the basket)."""


class ShoeEmpty(Value):
    """No card is left: the fixture ended, or the talon has been counted."""


class NewShoe(Value):
    """A fresh sixain was shuffled and cut: burn again."""


class CardUnread(Value):
    """A card left the shoe but was not named surely: the tailleur must confirm or enter it.

    `guess` is the reader's best guess (None for a failed read), `confidence` in 0..1.
    """

    source: str
    guess: Card | None = None
    confidence: float = 0.0


class DeviceAlarm(Value):
    """A device reported a fault, or lost something it could not recover. With `check`, the
    tailleur must check the rows against the baize (`BaizeChecked`) before the next
    "rien ne va plus": cards may have been dealt that no reader saw."""

    source: str
    text: str
    check: bool = False


class VoidCoup(Value):
    """The chef de table voids the coup being dealt; its stakes are returned as they stood."""

    who: str
    why: str


class EndShoe(Value):
    """The chef de table ends the shoe now, voiding any coup being dealt."""

    who: str
    why: str


ShoeEvent = (
    CardDrawn | CardDropped | BurnUnseen | CutCard | VoidCard | ShoeEmpty | NewShoe | CardUnread
    | DeviceAlarm | VoidCoup | EndShoe
)


class PrisonChoice(enum.Enum):
    SHARE = "share"  # take back half the value, the bank keeps the rest
    KEEP = "keep"  # stay in prison
    MOVE = "move"  # move to another chance, keeping the level (venezia)


class SetTable(Value):
    """The table's rulebook and limits per chance; `None` leaves a setting as it was."""

    rulebook: Rulebook | None = None
    minimum: Decimal | None = None
    maximum: Decimal | None = None
    # The set-up named rules that could not be loaded, and why: the table refuses it.
    unreadable: str | None = None


class PlaceStake(Value):
    """A player stakes `amount` on a chance, insured or not."""

    seat: int
    chance: Chance
    amount: Decimal
    insured: bool = False


class Withdraw(Value):
    """A player takes back what they staked on a chance."""

    seat: int
    chance: Chance


class ChoosePrison(Value):
    """A prisoner's owner decides after a refait: share, keep, or move it `to` a chance."""

    seat: int
    chance: Chance
    choice: PrisonChoice
    to: Chance | None = None


class EndSession(Value):
    """The last coup of the séance has been played."""


class CloseBets(Value):
    """The tailleur announces "rien ne va plus" before the coup's first card."""


class ReopenBets(Value):
    """The chef de table reopens bets closed too early (no card of the coup is out yet)."""

    who: str
    why: str


class CorrectCard(Value):
    """The chef de table corrects a misread: the last card drawn was in fact `card`."""

    card: Card
    who: str
    why: str


class BaizeChecked(Value):
    """The tailleur checked the rows on the baize against the screen, as an alarm asked."""

    who: str


TableEvent = (
    SetTable | PlaceStake | Withdraw | ChoosePrison | EndSession | CloseBets | ReopenBets
    | CorrectCard | BaizeChecked
)


def not_an_event(value: Never, kind: str = "an event") -> str:
    """What to say of something given as an event that is none (a fault of the program).
    Typed `Never`, as `assert_never` is: a `match` over the events that forgets one fails
    type checking where it calls this."""
    return f"not {kind}: {value!r}"
