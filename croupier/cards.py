"""Cards in the notation of docs/FORMATS.md (cards): rank then suit, `QH`, `TD`, `7S`."""

from __future__ import annotations

import enum
from typing import Final

from croupier.errors import CardError
from croupier.value import Value


class Colour(enum.Enum):
    RED = "red"
    BLACK = "black"


class Suit(enum.Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def colour(self) -> Colour:
        return Colour.RED if self in (Suit.HEARTS, Suit.DIAMONDS) else Colour.BLACK


class Rank(enum.Enum):
    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def points(self) -> int:
        return _POINTS[self]


_POINTS: Final = {rank: min(index + 1, 10) for index, rank in enumerate(Rank)}
_RANK_ORDER: Final = {rank: index for index, rank in enumerate(Rank)}
_SUIT_ORDER: Final = {suit: index for index, suit in enumerate(Suit)}


class Card(Value):
    """One playing card; `Card.parse("10d")` gives `Card.parse("TD")`."""

    rank: Rank
    suit: Suit
    # Derived once: the engine reads them for every card, faster than a property.
    points: int
    index: int
    black: bool

    def __init__(self, rank: Rank, suit: Suit) -> None:
        set_field = object.__setattr__
        set_field(self, "rank", rank)
        set_field(self, "suit", suit)
        set_field(self, "points", _POINTS[rank])
        set_field(self, "black", suit.colour is Colour.BLACK)
        set_field(self, "index", _SUIT_ORDER[suit] * 13 + _RANK_ORDER[rank])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index == other.index

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit]]:
        return Card, (self.rank, self.suit)

    @classmethod
    def parse(cls, text: str) -> Card:
        try:
            # ASCII first: str.upper() turns the long s "ſ" into "S".
            if text.isascii():
                return _BY_TEXT[text.upper()]
        except (KeyError, AttributeError):
            pass
        raise CardError(f"not a card: {text!r:.40}")

    @property
    def colour(self) -> Colour:
        return self.suit.colour

    def __str__(self) -> str:
        return self.rank.value + self.suit.value

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


ALL_CARDS: Final = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
DECKS_IN_SIXAIN: Final = 6
SIXAIN_SIZE: Final = DECKS_IN_SIXAIN * len(ALL_CARDS)

_BY_TEXT: Final = {str(card): card for card in ALL_CARDS} | {
    "10" + card.suit.value: card for card in ALL_CARDS if card.rank is Rank.TEN
}
