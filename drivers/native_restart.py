"""A restart of a native shoe's count that the receiver suspects but does not yet believe
(PROTOCOL.md §4: a restart is believed only when what follows agrees)."""

from __future__ import annotations

from dataclasses import dataclass, field

from drivers.native_frames import NativeFrame


@dataclass(slots=True)
class Restart:
    """A count that may have started again at `first`: a heartbeat or data frames behind
    the expected number, waiting for what follows to agree (`next` is the number that
    would, `signals` how many frames have agreed). Data frames held here are not yet
    delivered."""

    first: int
    next: int
    signals: int = 0
    frames: list[NativeFrame] = field(default_factory=list)
    alarmed: bool = False
    jump: bool = False  # ahead of the count, not behind it: a gap when believed
