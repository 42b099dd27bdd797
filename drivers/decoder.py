"""The contract every dialect's decoder meets: bytes in, messages out, at any split."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

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


@runtime_checkable
class Resumable(Protocol):
    """A decoder whose shoe can resend: it knows where its link stands, and a new one can
    be told where to take up again (the native protocol)."""

    def position(self) -> int:
        """The first sequence number not yet delivered (nor reported lost)."""
        ...
