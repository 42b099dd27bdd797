"""The contract every dialect's decoder meets: bytes in, messages out, at any split."""

from __future__ import annotations

from typing import Protocol

from drivers.messages import Message


class Decoder(Protocol):
    """Bytes → messages for one dialect. Nothing a wire sends makes these methods raise."""

    def feed(self, data: bytes, now: float) -> list[Message]:
        """The messages completed by `data`, received at monotonic time `now`."""
        ...

    def idle(self, now: float) -> list[Message]:
        """The line has been quiet for a while: settle what was waiting on more bytes."""
        ...

    def finish(self) -> list[Message]:
        """The input ended: everything still held, and what was lost."""
        ...

    def outgoing(self) -> bytes:
        """Bytes to send back to the shoe (resend requests); empty for one-way dialects."""
        ...
