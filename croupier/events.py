"""What enters the engine: the shoe's events, one at a time."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from decimal import Decimal

from croupier.cards import Card
from croupier.decisions import Chance
from croupier.rulebook import Rulebook


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """A card left the shoe; `face_up` when the shuffler turned it over."""

    card: Card
    face_up: bool = False


@dataclass(frozen=True, slots=True)
class CutCard:
    """The red cut card appeared."""


@dataclass(frozen=True, slots=True)
class VoidCard:
    """The tailleur voided the last card drawn (dropped on the floor or into the basket)."""


@dataclass(frozen=True, slots=True)
class ShoeEmpty:
    """No card is left: the fixture ended, or the talon has been counted."""


@dataclass(frozen=True, slots=True)
class NewShoe:
    """A fresh sixain was shuffled and cut: burn again."""


@dataclass(frozen=True, slots=True)
class CardUnread:
    """A card left the shoe but was not named surely: the tailleur must confirm or enter it.

    `guess` is the reader's best guess (None for a failed read), `confidence` in 0..1.
    """

    source: str
    guess: Card | None = None
    confidence: float = 0.0


@dataclass(frozen=True, slots=True)
class DeviceAlarm:
    """A device reported a fault, or lost something it could not recover."""

    source: str
    text: str


ShoeEvent = CardDrawn | CutCard | VoidCard | ShoeEmpty | NewShoe | CardUnread | DeviceAlarm


class PrisonChoice(enum.Enum):
    SHARE = "share"  # take back half the value, the bank keeps the rest
    KEEP = "keep"  # stay in prison
    MOVE = "move"  # move to another chance, keeping the level (venezia)


@dataclass(frozen=True, slots=True)
class SetTable:
    """The table's rulebook and limits per chance; `None` leaves a setting as it was."""

    rulebook: Rulebook | None = None
    minimum: Decimal | None = None
    maximum: Decimal | None = None


@dataclass(frozen=True, slots=True)
class PlaceStake:
    seat: int
    chance: Chance
    amount: Decimal
    insured: bool = False


@dataclass(frozen=True, slots=True)
class Withdraw:
    seat: int
    chance: Chance


@dataclass(frozen=True, slots=True)
class ChoosePrison:
    """A prisoner's owner decides after a refait: share, keep, or move it `to` a chance."""

    seat: int
    chance: Chance
    choice: PrisonChoice
    to: Chance | None = None


@dataclass(frozen=True, slots=True)
class EndSession:
    """The last coup of the séance has been played."""


TableEvent = SetTable | PlaceStake | Withdraw | ChoosePrison | EndSession
