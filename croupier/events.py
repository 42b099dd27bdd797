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


ShoeEvent = CardDrawn | CutCard | VoidCard | ShoeEmpty | NewShoe
