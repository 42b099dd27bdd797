"""What a native receiver remembers of late, across restarts of the shoe's count: the frames
delivered or reported, so that a duplicate is known by its contents, and the numbers given up
as lost, so that a frame coming for one is named late rather than taken for a new count."""

from __future__ import annotations

from typing import Final

from drivers.native_frames import SEQ_MODULUS, NativeFrame

HISTORY: Final = 2048  # frames and numbers remembered: a gap of most of the count costs no more


class Recent:
    def __init__(self) -> None:
        self.frames: dict[NativeFrame, None] = {}  # oldest first
        self.given_up: dict[int, None] = {}

    def remember(self, frame: NativeFrame) -> None:
        self.frames.pop(frame, None)
        self.frames[frame] = None
        if len(self.frames) > HISTORY:
            del self.frames[next(iter(self.frames))]

    def give_up(self, first: int, count: int) -> None:
        """The `count` numbers from `first` on were reported lost (only the last `HISTORY`
        of them are kept)."""
        for offset in range(max(0, count - HISTORY), count):
            self.given_up[(first + offset) % SEQ_MODULUS] = None
        while len(self.given_up) > HISTORY:
            del self.given_up[next(iter(self.given_up))]

    def take_back(self, first: int, count: int) -> None:
        """The `count` numbers from `first` on are no longer given up."""
        for offset in range(count):
            self.given_up.pop((first + offset) % SEQ_MODULUS, None)
