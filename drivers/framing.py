"""What every dialect's framer shares: a buffer scanned for frames, bytes skipped on the way
reported as `Garbage` just before the next frame (or at the end), so that any split of the
same stream into reads gives the same output."""

from __future__ import annotations

from typing import Generic, TypeVar

from drivers.messages import Garbage

Frame = TypeVar("Frame")


class ResyncingFramer(Generic[Frame]):
    """Subclasses say how to find the next frame in `_buffer` (`_next`), calling `_skip`
    for bytes that cannot start one; everything else is here."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._skipped = 0

    def feed(self, data: bytes) -> list[Frame | Garbage]:
        self._buffer += data
        out: list[Frame | Garbage] = []
        while (frame := self._next()) is not None:
            out += self._flush_skipped()
            out.append(frame)
        return out

    def drop_partial(self) -> list[Frame | Garbage]:
        """A frame still incomplete after the line went quiet is broken: skip its first
        byte and read on, since the frames it seemed to swallow may be whole."""
        if not self._buffer:
            return []
        self._skip(1)
        return self.feed(b"")

    def finish(self) -> list[Frame | Garbage]:
        out: list[Frame | Garbage] = []
        while self._buffer:
            out += self.drop_partial()
        return out + self._flush_skipped()

    def _flush_skipped(self) -> list[Garbage]:
        skipped, self._skipped = self._skipped, 0
        return [Garbage(skipped)] if skipped else []

    def _skip(self, count: int) -> None:
        del self._buffer[:count]
        self._skipped += count

    def _next(self) -> Frame | None:
        """The next whole frame, removed from the buffer; None when more bytes are needed."""
        raise NotImplementedError
