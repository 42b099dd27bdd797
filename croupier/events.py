"""What enters the engine: the shoe's events, one at a time."""

from __future__ import annotations

from dataclasses import dataclass

from croupier.cards import Card


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
