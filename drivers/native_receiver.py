"""The native protocol's link layer (PROTOCOL.md §4): sequence numbers, duplicates, gaps,
restarts and resend requests, on top of `NativeFramer`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from drivers.messages import Garbage, Lost, Message, ShoeAlarm
from drivers.native_frames import SEQ_MODULUS, FrameType, NativeFrame, NativeFramer
from drivers.native_messages import frame_message
from drivers.to_events import message_line

MAX_HELD: Final = 1024  # frames held while waiting for a resend; past this, give up
# A frame further ahead than a receiver can hold is no gap to fill: like a frame behind,
# it is believed only when what follows agrees (a restarted or long-running shoe).
NEAR: Final = MAX_HELD
HEARTBEATS: Final = 3  # heartbeats behind, agreeing, that are worth an alarm
MAX_ASK: Final = 255  # frames one resend request can name
HISTORY: Final = 2048  # frames remembered, so that a duplicate is known by its contents


@dataclass(slots=True)
class _Restart:
    """A count that may have started again at `first`: a heartbeat or data frames behind
    the expected number, waiting for what follows to agree (`next` is the number that
    would, `signals` how many frames have agreed). Data frames held here are not yet
    delivered."""

    first: int
    next: int
    signals: int = 0
    frames: list[NativeFrame] = field(default_factory=list)


class NativeReceiver:
    """Delivers each message once and in sequence order, asking the shoe to resend what is
    missing; what stays missing after `retries` requests is reported as `Lost`.

    A frame is a duplicate when the same frame (number and contents) was delivered or
    reported lately, even before a restart; a frame behind the expected number that is not
    one it may be a restarted shoe; a restart is believed
    only when the next frame agrees (a heartbeat then that frame, or two frames in a row);
    a frame behind that nothing confirms is reported, never delivered.

    `first_expected` is the first sequence number wanted (a shoe numbers from 0 when it
    starts; a table resuming a journal wants the first number it has not kept). With
    `can_ask=False` (a capture file: nobody to ask) and no `first_expected`, the first frame
    sets the count, since a capture may begin in mid-stream; a gap is reported when
    `MAX_HELD` frames wait behind it or at the end, so how the bytes were split into reads
    never changes what is decoded.
    """

    def __init__(
        self,
        *,
        can_ask: bool = True,
        retries: int = 5,
        resend_after: float = 0.2,
        first_expected: int | None = None,
    ) -> None:
        self._framer = NativeFramer()
        self._can_ask = can_ask
        self._retries = retries
        self._resend_after = resend_after
        start = 0 if first_expected is None else first_expected % SEQ_MODULUS
        self._expected = start
        self._known_end = start  # one past the last number the shoe is known to have used
        self._held: dict[int, NativeFrame] = {}
        self._delivered = 0
        self._seen: dict[NativeFrame, None] = {}  # delivered or reported, across restarts
        self._restart: _Restart | None = None
        self._beats: dict[int, int] = {}  # heartbeats away from the count, by number
        self._asks = 0
        self._asked_at = 0.0
        self._asked_for = 0
        self._out = bytearray()
        self._synced = can_ask or first_expected is not None

    def position(self) -> int:
        """The first sequence number not yet delivered nor reported lost: where a table
        restarted from its journal takes up again."""
        return self._expected

    def feed(self, data: bytes, now: float) -> list[Message]:
        return self._take(self._framer.feed(data), now)

    def idle(self, now: float) -> list[Message]:
        return self._take(self._framer.drop_partial(), now)

    def finish(self) -> list[Message]:
        self._can_ask = False
        out = self._take(self._framer.finish(), 0.0)
        out += self._reject()
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
            elif item.type is not FrameType.RESEND:  # a request heard is ours, not the shoe's
                out += self._frame(item)
                if not self._can_ask and len(self._held) >= MAX_HELD:
                    out += self._give_up()
        if not self._missing():
            self._asks = 0
        elif self._asks and self._expected != start:
            # progress: the last request is being answered, give it time to finish
            self._asks, self._asked_at = 1, now
        if self._missing() and self._can_ask:
            out += self._chase(now)
        return out

    def _frame(self, frame: NativeFrame) -> list[Message]:
        if not self._synced:
            self._synced = True
            self._expected = self._known_end = frame.seq
        heartbeat = frame.type is FrameType.HEARTBEAT
        duplicate = not heartbeat and frame in self._seen
        restart = self._restart
        if restart is not None and frame.seq == restart.next and not duplicate:
            return self._agrees(restart, frame)
        if self._ahead(frame.seq) < NEAR:
            out = self._reject()
            if heartbeat:
                self._learn_end(frame.seq)
                return out
            if duplicate and frame.seq != self._expected:
                return out  # a stale copy of a frame from before a restart
            return out + self._data(frame)
        if duplicate:
            return []  # a repeat, or a resend no longer needed: nothing new, no restart
        out = self._reject()
        self._restart = _Restart(frame.seq, frame.seq)
        return out + self._agrees(self._restart, frame)

    def _agrees(self, restart: _Restart, frame: NativeFrame) -> list[Message]:
        """`frame` is numbered where a restarted count would be: the restart is believed
        once it holds a data frame and something agrees with it."""
        restart.signals += 1
        if frame.type is not FrameType.HEARTBEAT:
            restart.frames.append(frame)
            restart.next = (frame.seq + 1) % SEQ_MODULUS
        if restart.frames and restart.signals >= 2:
            return self._believe_restart()
        return self._heartbeat_behind(frame) if frame.type is FrameType.HEARTBEAT else []

    def _heartbeat_behind(self, frame: NativeFrame) -> list[Message]:
        """Heartbeats alone may all be stale copies, so they change nothing; but
        `HEARTBEATS` of them naming the same number away from the count are worth an alarm."""
        self._beats[frame.seq] = count = self._beats.get(frame.seq, 0) + 1
        if count != HEARTBEATS:
            return []
        last = (self._expected - 1) % SEQ_MODULUS
        return [
            ShoeAlarm(
                f"the shoe's heartbeats put its count at seq {frame.seq}, after {last}: "
                "frames may be lost"
            )
        ]

    def _reject(self) -> list[Message]:
        """What followed did not agree: the frames behind the count are reported, not
        delivered (a heartbeat alone was stale and says nothing)."""
        restart, self._restart = self._restart, None
        if restart is None:
            return []
        for frame in restart.frames:
            self._remember(frame)
        return [
            ShoeAlarm(
                f"seq {f.seq} ({_brief(f)}) came behind the count, after "
                f"{(self._expected - 1) % SEQ_MODULUS}, and nothing confirmed a restart: "
                "not delivered"
            )
            for f in restart.frames
        ]

    def _believe_restart(self) -> list[Message]:
        """The shoe counts again from `first`: what was still missing is reported, and the
        frames that proved it are delivered."""
        restart = self._restart
        assert restart is not None
        self._restart = None
        out: list[Message] = []
        while self._missing():
            out += self._give_up()
        last = (self._expected - 1) % SEQ_MODULUS
        if self._delivered:
            out.append(ShoeAlarm(f"the shoe restarted its count: seq {restart.first} after {last}"))
        else:
            out.append(
                ShoeAlarm(
                    f"the shoe's count is at seq {restart.first}, not {self._expected}: "
                    "what it sent before was not received"
                )
            )
        # a shoe counts from 0 when it starts: what it numbered before these is asked for
        self._expected = 0 if restart.first < NEAR else restart.first
        self._known_end = restart.first
        self._held.clear()
        self._beats.clear()
        self._asks = 0
        for frame in restart.frames:
            out += self._data(frame)
        if self._missing() and not self._can_ask and len(self._held) >= MAX_HELD:
            out += self._give_up()
        return out

    def _learn_end(self, end: int) -> None:
        if 0 < self._ahead(end) <= NEAR and self._ahead(end) > self._ahead(self._known_end):
            self._known_end = end

    def _data(self, frame: NativeFrame) -> list[Message]:
        self._learn_end((frame.seq + 1) % SEQ_MODULUS)
        self._held.setdefault(frame.seq, frame)
        return self._drain() if frame.seq == self._expected else []

    def _drain(self) -> list[Message]:
        out: list[Message] = []
        while (frame := self._held.pop(self._expected, None)) is not None:
            out.append(frame_message(frame))
            self._delivered += 1
            self._beats.clear()  # the count moved: heartbeats away from it are news again
            self._remember(frame)
            self._expected = (self._expected + 1) % SEQ_MODULUS
        return out

    def _remember(self, frame: NativeFrame) -> None:
        self._seen.pop(frame, None)
        self._seen[frame] = None
        if len(self._seen) > HISTORY:
            del self._seen[next(iter(self._seen))]

    def _chase(self, now: float) -> list[Message]:
        if len(self._held) >= MAX_HELD:
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




def _brief(frame: NativeFrame) -> str:
    return " ".join(message_line(frame_message(frame)).split())
