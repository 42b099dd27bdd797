"""The native protocol's link layer (PROTOCOL.md §4): sequence numbers, duplicates, gaps,
restarts and resend requests, on top of `NativeFramer`."""

from __future__ import annotations

from typing import Final

from drivers.messages import Garbage, Lost, Message, ShoeAlarm
from drivers.native_doubt import Doubt
from drivers.native_frames import SEQ_MODULUS, FrameType, NativeFrame, NativeFramer
from drivers.native_messages import frame_message
from drivers.native_recent import Recent
from drivers.native_restart import Restart, new_count_run
from drivers.to_events import message_line

MAX_HELD: Final = 1024  # frames held while waiting for a resend; past this, give up
# A frame further ahead than a receiver can hold is no gap to fill: like a frame behind,
# it is believed only when what follows agrees (a restarted or long-running shoe).
NEAR: Final = MAX_HELD
# A data frame further than this beyond the last number known used is believed only when
# what follows agrees: a stale copy of an old count's frame may land there.
JUMP: Final = 64
HEARTBEATS: Final = 3  # heartbeats behind, agreeing, that are worth an alarm
MAX_ASK: Final = 255  # frames one resend request can name


class NativeReceiver:
    """Delivers each message once and in sequence order, asking the shoe to resend what is
    missing; what stays missing after `retries` requests is reported as `Lost`.

    A frame is a duplicate when the same frame (number and contents) was delivered, held
    or reported lately, even before a restart; a frame whose number was given up as lost
    is named in an alarm, not delivered late; any other frame behind the expected number,
    or with new contents under a number held, may be a restarted shoe; a restart is
    believed only when the next frame agrees (a heartbeat then that frame, or two frames
    in a row); a frame behind that nothing confirms is reported, never delivered. A
    heartbeat naming a frame already had is checked by asking for that frame, and said
    when nothing settles it.

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
        self._recent = Recent()
        # alarms about frames after a gap, each with how many frames precede its place
        self._waiting: list[tuple[int, Message]] = []
        self._restart: Restart | None = None
        self._doubt = Doubt()
        self._beats: dict[int, int] = {}  # heartbeats away from the count, by number
        self._asks = 0
        self._asked = 0  # how many numbers from the expected one a resend request named
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
        out = self._take(self._framer.finish(), 0.0) + self._reject()
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
        if self._can_ask:  # asked for now, or once this read is done: whatever the split
            self._asked = max(self._asked, min(self._ahead(self._first_held()), MAX_ASK))
        heartbeat = frame.type is FrameType.HEARTBEAT
        held = self._held.get(frame.seq)
        known = not heartbeat and (frame in self._recent.frames or held == frame)
        # near the frames had, measured from the last one known: a gap already known
        # does not make what comes after it look far
        near = self._ahead(frame.seq) < self._ahead(self._known_end) + NEAR
        # a frame whose number was given up: a late resend, no sign of a restart (after a
        # restart, the old count's numbers may lie ahead of the new one)
        late = (
            not heartbeat
            and not known
            and frame.seq in self._recent.given_up
            and frame.seq != self._expected
        )
        restart = self._restart
        if restart is not None and frame.seq == restart.next:
            if not known and not late:
                return self._agrees(restart, frame)
            if not restart.frames:
                # the frame a heartbeat behind announced is one already had: it was stale
                self._restart = None
        if restart is not None and heartbeat and self._beyond(restart, frame.seq):
            out = self._agrees(restart, frame)  # the restarted count went on, frames lost
            self._learn_end(frame.seq)
            return out
        if known:
            if near and frame.seq == self._expected:
                return self._reject() + self._data(frame)  # the same frame under a new count
            return []  # a repeat, or a resend no longer needed: nothing new, no restart
        if late:
            return self._late(frame)
        # a number inside a gap, behind a frame held, named by a heartbeat or by a data frame
        # nobody asked for (a line keeps frames in order; a live receiver asks for what is
        # missing before the first frame held): the count went back
        ahead = self._ahead(frame.seq)
        inside = (frame.seq != self._expected if heartbeat else ahead >= self._asked) and any(
            self._ahead(seq) > ahead for seq in self._held
        )
        if near and held is None and not inside:
            return self._in_step(frame)
        return self._suspect(restart, frame)

    def _in_step(self, frame: NativeFrame) -> list[Message]:
        """Near the count, under a number not held: news, but far beyond the known count."""
        out = self._reject()
        if frame.type is FrameType.HEARTBEAT:
            self._learn_end(frame.seq)
            return out
        if self._ahead(frame.seq) - self._ahead(self._known_end) <= JUMP:
            return out + self._data(frame)
        self._restart = Restart(frame.seq, frame.seq, jump=True)
        return out + self._agrees(self._restart, frame)

    def _suspect(self, restart: Restart | None, frame: NativeFrame) -> list[Message]:
        """Behind the count, far ahead, new contents under a number held, or a heartbeat
        inside a gap: perhaps a restarted shoe, believed only when what follows agrees."""
        heartbeat = frame.type is FrameType.HEARTBEAT
        if (
            restart is not None
            and not (restart.frames or heartbeat)
            and restart.went_on_to(frame.seq, JUMP)
        ):
            # a heartbeat behind, then a frame as suspect a little ahead of the number it
            # named (those between lost): the restarted count went on
            return self._agrees(restart, frame)
        out = self._reject()
        self._restart = Restart(frame.seq, frame.seq)
        if heartbeat and self._can_ask:
            # the frame it names tells a stale heartbeat (one had) from a restart (news)
            self._out += NativeFrame(frame.seq, FrameType.RESEND, b"\x01").encode()
        return out + self._agrees(self._restart, frame)

    def _beyond(self, restart: Restart, seq: int) -> bool:
        """Whether a heartbeat naming `seq` bears out the frames a restart is suspected by,
        though not next to them: a little ahead of them, and behind numbers the old count
        has used, which it cannot be naming as its next."""
        return (
            bool(restart.frames)
            and restart.went_on_to(seq, JUMP)
            and self._ahead(seq) < self._ahead(self._known_end)
        )

    def _agrees(self, restart: Restart, frame: NativeFrame) -> list[Message]:
        """`frame` is numbered where a restarted count would be: the restart is believed
        once it holds a data frame and something agrees with it."""
        restart.signals += 1
        if frame.type is not FrameType.HEARTBEAT:
            restart.frames.append(frame)
            restart.next = (frame.seq + 1) % SEQ_MODULUS
        if restart.frames and restart.signals >= 2:
            return self._believe_restart()
        return self._heartbeat_behind(restart) if frame.type is FrameType.HEARTBEAT else []

    def _heartbeat_behind(self, restart: Restart) -> list[Message]:
        """Heartbeats alone may all be stale copies, so they change nothing; but
        `HEARTBEATS` of them naming the same number away from the count are worth an alarm."""
        self._beats[restart.first] = count = self._beats.get(restart.first, 0) + 1
        if count != HEARTBEATS:
            return []
        restart.alarmed = True
        last = (self._known_end - 1) % SEQ_MODULUS
        return self._say(ShoeAlarm(
            f"the shoe's heartbeats put its count at seq {restart.first}, after {last}: "
            "frames may be lost"))

    def _reject(self) -> list[Message]:
        """What followed did not agree: the frames behind the count are reported, not
        delivered. A heartbeat alone is a stale copy, or a restarted shoe whose first frames
        were lost: unless the frame it announced showed it stale, that is said."""
        restart, self._restart = self._restart, None
        if restart is None:
            return []
        last = (self._known_end - 1) % SEQ_MODULUS
        if not restart.frames:
            if restart.alarmed:
                return []
            return self._say(ShoeAlarm(
                f"the shoe's heartbeat named seq {restart.first}, after {last}, and nothing "
                "confirmed it: a stale copy, or the shoe restarted and frames were lost"))
        # not after a heartbeat alone: stale ones are common on a bad line, and a gap's
        # resent cards would all go to the tailleur (make fuzz: 1,900 of 79,000)
        self._doubt.suspected()
        for frame in restart.frames:
            self._recent.remember(frame)
        came = (
            "far ahead of the count, after {last}, and nothing followed it"
            if restart.jump
            else "behind the count, after {last}, and nothing confirmed a restart"
        ).format(last=last)
        return self._say(*(
            ShoeAlarm(f"seq {f.seq} ({_brief(f)}) came {came}: not delivered")
            for f in restart.frames))

    def _say(self, *alarms: Message) -> list[Message]:
        """Alarms about what came after the frames had so far: while a gap holds those
        back, the alarms wait for them, so that each is said in its place."""
        if not self._missing():
            return list(alarms)
        place = self._ahead(self._known_end)
        self._waiting += [(place, alarm) for alarm in alarms]
        return []

    def _moved(self, count: int) -> list[Message]:
        """The count moved on by `count`: the alarms whose place it reached."""
        if not self._waiting:
            return []
        waiting = [(place - count, alarm) for place, alarm in self._waiting]
        self._waiting = [item for item in waiting if item[0] > 0]
        return [alarm for place, alarm in waiting if place <= 0]

    def _believe_restart(self) -> list[Message]:
        """The shoe counts again from `first`: what was still missing is reported, and the
        frames that proved it are delivered."""
        restart = self._restart
        assert restart is not None
        self._restart = None
        if restart.jump:  # frames after a gap: the gap is asked for, or reported
            return [message for frame in restart.frames for message in self._data(frame)]
        # a shoe counts from 0 when it starts: what it numbered before these is wanted
        start = 0 if restart.first < NEAR else restart.first
        ours = new_count_run(self._held, restart.first, self._expected) if start == 0 else {}
        if ours:
            for seq in ours:
                del self._held[seq]
            if not self._held:
                self._known_end = min(ours)  # the old count's frames end where ours begin
        out: list[Message] = []
        # of the old count's numbers reported lost, those a live receiver never asked for
        # cannot come late (a capture may hold what another asked for)
        unasked = (self._expected + self._asked) % SEQ_MODULUS
        never = self._ahead(self._known_end) - self._asked if self._can_ask else 0
        while self._missing():
            out += self._give_up()
        self._recent.take_back(unasked, never)
        # the old count's next number too: a copy of it coming late is no restart back
        self._recent.give_up(self._expected, 1)
        out += [alarm for _, alarm in self._waiting]
        self._waiting = []
        last = (self._expected - 1) % SEQ_MODULUS
        if self._delivered:
            first = min(ours, default=restart.first)
            out.append(ShoeAlarm(f"the shoe restarted its count: seq {first} after {last}"))
        else:
            out.append(
                ShoeAlarm(
                    f"the shoe's count is at seq {restart.first}, not {self._expected}: "
                    "what it sent before was not received"
                )
            )
        self._expected, self._asked = start, 0
        self._known_end = restart.first
        self._held = ours
        self._beats.clear()
        self._doubt.end()
        self._asks = 0
        for frame in restart.frames:
            out += self._data(frame)
        out += self._drain()
        if self._missing() and not self._can_ask and len(self._held) >= MAX_HELD:
            out += self._give_up()
        return out

    def _late(self, frame: NativeFrame) -> list[Message]:
        """A frame whose number was given up (reported lost, or left behind by a restart):
        its place has passed, so it is named in an alarm, not delivered out of order."""
        del self._recent.given_up[frame.seq]
        self._recent.remember(frame)
        return [
            ShoeAlarm(f"seq {frame.seq} ({_brief(frame)}) came after its place had passed: "
                      "not delivered")
        ]

    def _learn_end(self, end: int) -> None:
        known = self._ahead(self._known_end)
        if known < self._ahead(end) <= known + NEAR:
            self._known_end = end

    def _data(self, frame: NativeFrame) -> list[Message]:
        self._doubt.came(frame.seq, self._ahead(frame.seq) < self._ahead(self._known_end))
        self._learn_end((frame.seq + 1) % SEQ_MODULUS)
        self._held.setdefault(frame.seq, frame)
        return self._drain() if frame.seq == self._expected else []

    def _drain(self) -> list[Message]:
        out: list[Message] = []
        while (frame := self._held.pop(self._expected, None)) is not None:
            out += self._doubt.vouched(self._expected, frame_message(frame))
            self._delivered += 1
            self._beats.clear()  # the count moved: heartbeats away from it are news again
            self._recent.remember(frame)
            self._recent.given_up.pop(self._expected, None)  # its frame came, in this count
            self._expected = (self._expected + 1) % SEQ_MODULUS
            self._asked = max(0, self._asked - 1)
            out += self._moved(1)
        if not self._missing():
            self._doubt.end()
        return out

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
        count = min(self._ahead(self._first_held()), MAX_ASK)
        self._out += NativeFrame(self._expected, FrameType.RESEND, bytes((count,))).encode()
        self._asks += 1
        self._asked_at, self._asked_for = now, self._expected
        return []

    def _first_held(self) -> int:
        return min(self._held, key=self._ahead, default=self._known_end)

    def _give_up(self) -> list[Message]:
        target = self._first_held()
        count = self._ahead(target)
        last = (target - 1) % SEQ_MODULUS
        span = f"seq {self._expected}" if count == 1 else f"seq {self._expected}..{last}"
        self._recent.give_up(self._expected, count)
        self._expected = target
        self._asks, self._asked = 0, max(0, self._asked - count)
        return [Lost(count, f"{span} never arrived"), *self._moved(count), *self._drain()]


def _brief(frame: NativeFrame) -> str:
    return " ".join(message_line(frame_message(frame)).split())
