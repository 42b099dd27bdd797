"""What a shoe says, whatever the dialect: the middle layer between frames and card events.

Dialect decoders turn frames into these; `drivers.to_events` turns them into engine events
and `drivers.decode_json` into the lines of `croupier decode --json`.
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.cards import Card


@dataclass(frozen=True, slots=True)
class CardRead:
    """The shoe named a card as it left; `face_up` when it came out face up."""

    card: Card
    face_up: bool = False


@dataclass(frozen=True, slots=True)
class CutRead:
    """The cut card left the shoe."""


@dataclass(frozen=True, slots=True)
class Misread:
    """A card left the shoe but could not be named; `guess` when a reading is unconfirmed."""

    guess: Card | None = None


@dataclass(frozen=True, slots=True)
class ShoeAlarm:
    """The shoe reported a fault or a warning, in its own words."""

    text: str


@dataclass(frozen=True, slots=True)
class Status:
    """A state change the shoe reports that is not a card (start, standby, game result…)."""

    text: str


@dataclass(frozen=True, slots=True)
class Garbage:
    """`count` bytes that were not part of any frame the decoder could read."""

    count: int


@dataclass(frozen=True, slots=True)
class Lost:
    """`count` messages that the sequence numbers say were sent and never arrived."""

    count: int
    detail: str


Message = CardRead | CutRead | Misread | ShoeAlarm | Status | Garbage | Lost
