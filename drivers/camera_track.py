"""One card on the layout as the camera follows it, and what is said of it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from croupier.cards import Card
from croupier.events import CardUnread, DeviceAlarm
from vision.classifier import Reading
from vision.quad import Quad
from vision.rows import RowCard

SOURCE = "camera"


@dataclass
class Track:
    """One card on the layout, followed from frame to frame."""

    order: int  # when it joined the layout (join frame, then row, then column)
    joined: int  # the frame it joined in
    spot: RowCard  # where it lies, and how much of it is in view
    readings: list[Reading] = field(default_factory=list)
    still: int = 0  # frames in a row it has lain in the same place
    settled: bool = False  # it has lain still long enough to be a card, not a passing hand
    settled_at: int = 0  # the frame it settled in
    missing: bool = False  # the layout, looked at lately, did not show it
    touched: bool = False  # something moved over it since it was last read
    card: Card | None = None  # the card emitted for it
    named_on: RowCard | None = None  # its outline when it was named
    resolved: bool = False  # emitted, as a card or as a request to confirm
    vanished_at: int | None = None  # the frame it was last missed in, once it has left
    alarmed_at: int | None = None  # the frame its alarm (changed, taken) was last raised in

    @property
    def quad(self) -> Quad:
        return self.spot.quad


def taken_alarm(track: Track) -> DeviceAlarm:
    name = track.card if track.card is not None else "unconfirmed card"
    return DeviceAlarm(SOURCE, f"card {name} was taken off the layout")


def doubted(track: Track) -> bool:
    """A named card whose latest read disagrees with its name: read on until settled."""
    return track.card is not None and bool(track.readings) and track.readings[-1].card != track.card


def by_order(track: Track) -> int:
    return track.order


def unread(track: Track) -> CardUnread:
    guesses = Counter(r.guess for r in track.readings if r.guess is not None)
    if not guesses:
        return CardUnread(SOURCE)
    guess, _ = guesses.most_common(1)[0]
    confidence = max(r.confidence for r in track.readings if r.guess == guess)
    return CardUnread(SOURCE, guess, confidence)
