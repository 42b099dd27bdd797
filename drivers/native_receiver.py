"""The native protocol's link layer (PROTOCOL.md §4): sequence numbers, duplicates, gaps
and resend requests, on top of `NativeFramer`."""

from __future__ import annotations

from typing import Final

from drivers.messages import Garbage, Lost, Message, ShoeAlarm
from drivers.native_frames import SEQ_MODULUS, FrameType, NativeFrame, NativeFramer
from drivers.native_messages import frame_message

WINDOW: Final = SEQ_MODULUS // 2  # a frame this far ahead is news, further is a duplicate
MAX_HELD: Final = 1024  # frames held while waiting for a resend; past this, give up
MAX_ASK: Final = 255  # frames one resend request can name
RESTART_BEHIND: Final = 1024  # further behind than any resend can be: the shoe restarted


class NativeReceiver:
    """Delivers each message once and in sequence order, asking the shoe to resend what is
    missing; what stays missing after `retries` requests is reported as `Lost`.

    With `can_ask=False` (a capture file: nobody to ask) a gap is reported at once, and the
    first frame sets the count, since a capture may begin in mid-stream. `resume_at` is
    where a table restarted from its journal takes up again: the first sequence number it
    has not journaled, which it asks the shoe to resend from.
    """

    def __init__(
        self, *, can_ask: bool = True, retries: int = 5, resend_after: float = 0.2,
        resume_at: int | None = None,
    ) -> None:
        self._framer = NativeFramer()
        self._can_ask = can_ask
        self._retries = retries
        self._resend_after = resend_after
        self._expected = 0  # a shoe numbers its data frames from 0 when it starts
        self._known_end = 0  # one past the last sequence number the shoe is known to have used
        self._held: dict[int, Message] = {}
        self._asks = 0
        self._asked_at = 0.0
        self._asked_for = 0
        self._out = bytearray()
        self._synced = can_ask
        if resume_at is not None:
            self._expected = self._known_end = resume_at % SEQ_MODULUS

    def position(self) -> int:
        return self._expected

    def feed(self, data: bytes, now: float) -> list[Message]:
        return self._take(self._framer.feed(data), now)

    def idle(self, now: float) -> list[Message]:
        return self._take(self._framer.drop_partial(), now)

    def finish(self) -> list[Message]:
        self._can_ask = False
        out = self._take(self._framer.finish(), 0.0)
        while self._missing():
            out += self._give_up()
        return out

    def outgoing(self) -> bytes:
        out, self._out = bytes(self._out), bytearray()
        return out

    def _ahead(self, seq: int) -> int:
        return (seq - self._expected) % SEQ_MODULUS

    def _missing(self) -> bool:
        return self._expected != self._known_end

    def _take(self, items: list[NativeFrame | Garbage], now: float) -> list[Message]:
        out: list[Message] = []
        start = self._expected
        for item in items:
            if isinstance(item, Garbage):
                out.append(item)
                continue
            if item.type is FrameType.RESEND:
                continue  # our own request, echoed or captured: not the shoe's
            if not self._synced:
                self._synced = True
                self._expected = self._known_end = item.seq
            if item.type is FrameType.HEARTBEAT:
                # a heartbeat names the shoe's next number: behind us, the count restarted
                if self._ahead(item.seq) >= WINDOW:
                    out += self._restart(item.seq)
                self._learn_end(item.seq)
            else:
                out += self._data(item)
        if not self._missing():
            self._asks = 0
        elif self._asks and self._expected != start:
            # progress: the last request is being answered, give it time to finish
            self._asks, self._asked_at = 1, now
        if self._missing():
            out += self._chase(now)
        return out

    def _learn_end(self, end: int) -> None:
        if 0 < self._ahead(end) < WINDOW and self._ahead(end) > self._ahead(self._known_end):
            self._known_end = end

    def _data(self, frame: NativeFrame) -> list[Message]:
        out: list[Message] = []
        ahead = self._ahead(frame.seq)
        if ahead >= WINDOW:
            if SEQ_MODULUS - ahead <= RESTART_BEHIND:
                return []  # already delivered: a repeat or an answer to an earlier request
            out, ahead = self._restart(frame.seq), 0
        self._learn_end((frame.seq + 1) % SEQ_MODULUS)
        self._held.setdefault(frame.seq, frame_message(frame))
        return out + self._drain() if ahead == 0 else out

    def _restart(self, seq: int) -> list[Message]:
        """The shoe counts from a number it cannot have reached: it was restarted. What was
        still missing is reported, and the count starts again from its number."""
        out: list[Message] = []
        while self._missing():
            out += self._give_up()
        last = (self._expected - 1) % SEQ_MODULUS
        self._expected = self._known_end = seq
        self._held.clear()
        self._asks = 0
        return [*out, ShoeAlarm(f"the shoe restarted its count: seq {seq} after {last}")]

    def _drain(self) -> list[Message]:
        out: list[Message] = []
        while self._expected in self._held:
            out.append(self._held.pop(self._expected))
            self._expected = (self._expected + 1) % SEQ_MODULUS
        return out

    def _chase(self, now: float) -> list[Message]:
        if not self._can_ask or len(self._held) >= MAX_HELD:
            return self._give_up()
        if self._asks and self._asked_for == self._expected:
            if now - self._asked_at < self._resend_after:
                return []
        else:
            self._asks = 0  # a new gap: ask at once
        if self._asks >= self._retries:
            return self._give_up()
        first_held = min(self._held, key=self._ahead, default=self._known_end)
        count = min(self._ahead(first_held), MAX_ASK)
        self._out += NativeFrame(self._expected, FrameType.RESEND, bytes((count,))).encode()
        self._asks += 1
        self._asked_at = now
        self._asked_for = self._expected
        return []

    def _give_up(self) -> list[Message]:
        target = min(self._held, key=self._ahead, default=self._known_end)
        count = self._ahead(target)
        last = (target - 1) % SEQ_MODULUS
        span = f"seq {self._expected}" if count == 1 else f"seq {self._expected}..{last}"
        self._expected = target
        self._asks = 0
        return [Lost(count, f"{span} never arrived"), *self._drain()]
