"""Angel's link layer (PROTOCOL.md §6): the copies of a message grouped and judged by their
agreement, and the shoe's count of messages, whose range is learned from the stream unless
it is set, on top of `AngelFramer`.

A shoe sends each message `COPIES` times, back to back, under one sequence number, and
the next message under the next number. So copies are the frames that follow each other
under one number (a copy whose number was misread sits among them, and is outvoted); a
message whose copies never reach the votes is still delivered, a card as a `Misread` with
its reading as the guess. The count's range is not published: the numbers seen so far
give it, a step from the highest seen to the lowest (or below) is a wrap, a step forward
past missing numbers is a loss, and a step back from below the highest is reported as a
restart (or a loss at the wrap: the numbers alone cannot tell which).
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field
from typing import Final

from drivers.angel import BAUD, COPIES, RESET_AFTER, AngelFramer, data_message
from drivers.checks import check_named
from drivers.messages import (
    CardRead,
    CutRead,
    Garbage,
    Lost,
    Message,
    Misread,
    ShoeAlarm,
    Status,
)

BITS_PER_BYTE: Final = 10  # 8N1: a start bit, eight data bits, a stop bit
CARD_FRAME: Final = 8  # ENQ SEQ D INTENTION CARD ETX CHK CHK: the shortest message a shoe deals


@dataclass(frozen=True, slots=True)
class Copy:
    """One frame as read: sequence number and data."""

    seq: int
    data: bytes


@dataclass(slots=True)
class _Group:
    """The copies read so far of one message, and those believed, once enough agree (two
    messages under one number: a count that restarted at the number it had reached)."""

    seq: int
    copies: list[Copy] = field(default_factory=list)
    believed: list[Copy] = field(default_factory=list)
    votes: dict[Copy, int] = field(default_factory=dict)  # by copy, in the order first read

    def likeliest(self) -> Copy:
        return max(self.votes, key=self.votes.__getitem__)


class SequenceCount:
    """The shoe's message count. `seq_range` (lowest, highest) when the shoe model's range is
    known; otherwise it is learned from the numbers seen."""

    def __init__(self, seq_range: tuple[int, int] | None = None) -> None:
        self._range = seq_range
        self._last: int | None = None
        self._low = self._high = 0
        self._wrapped = False
        self._landings = 0  # wraps that landed on the lowest number seen

    def _successor(self, seq: int) -> int:
        if self._range is not None:
            low, high = self._range
            return low if seq == high else seq + 1
        return self._low if self._wrapped and seq == self._high else seq + 1

    def follows(self, previous: int, seq: int) -> bool:
        """`seq` may be the number after `previous`, as far as the range known tells."""
        if seq == self._successor(previous):
            return True
        return self._range is None and previous == self._high and seq <= self._low

    def accounted(self, seq: int, numbers: list[int]) -> int:
        """How many messages delivered since the last number, with `numbers` as read but not
        trusted, stand for numbers between it and `seq`: no more than the distinct ones
        read between them, so that a message delivered twice, or one whose number was
        misread, never hides a loss (one misread only makes a loss reported that was not)."""
        last = self._last
        if last is None:
            return len(numbers)
        if self._range is not None:
            low, high = self._range
            size = high - low + 1
            ahead = (seq - last) % size
            inside = {d for n in numbers if 0 < (d := (n - last) % size) < ahead}
        elif seq > last:
            inside = {n for n in numbers if last < n < seq}
        else:
            return len(numbers)  # a wrap or a restart: the count cannot say which numbers
        return min(len(numbers), len(inside))

    @property
    def last(self) -> int | None:
        """The last number believed."""
        return self._last

    def skipped(self, chain: list[int]) -> int:
        """The numbers skipped by the steps forward of `chain`: a number believed (or none),
        the numbers read on messages delivered since but not confirmed, and the next number
        believed (or none). A step back is a wrap or a restart, which `step` judges; a step
        forward longer than the messages read could fill is a number misread."""
        longest = len(chain) + 4

        def step(before: int, after: int) -> int | None:
            return self._ahead(before, after) if self.near(before, after, longest) else None

        # a number that neither follows the one before nor leads to the one after was
        # misread: the run goes on around it
        kept = chain[:1]
        for at in range(1, len(chain) - 1):
            if step(kept[-1], chain[at]) is not None or step(chain[at], chain[at + 1]):
                kept.append(chain[at])
        kept += chain[-1:] if len(chain) > 1 else []
        return sum(
            ahead - 1
            for before, after in itertools.pairwise(kept)
            if (ahead := step(before, after)) is not None
        )

    def near(self, before: int, after: int, longest: int) -> bool:
        """`after` comes after `before`, no further than `longest` on."""
        ahead = self._ahead(before, after)
        return ahead is not None and 0 < ahead <= longest

    def _ahead(self, before: int, after: int) -> int | None:
        """How far `after` comes after `before` in the count as known; None for a step back
        that no known wrap explains."""
        if self._range is not None:
            low, high = self._range
            return (after - before) % (high - low + 1)
        if after > before:
            return after - before
        if self._wrapped and self._low <= after:
            return max(self._high, before) - before + after - self._low + 1
        return None

    def step(self, seq: int, between: int = 0) -> list[Message]:
        """What the step from the last number to `seq` says was lost or happened;
        `between` messages were delivered since the last number, their own not trusted,
        and took the numbers just before `seq`."""
        last, self._last = self._last, seq
        if last is None:
            self._low = self._high = seq
            return []
        if self._range is not None:
            return self._step_in_range(last, seq, between, *self._range)
        return self._step_learned(last, seq, between)

    def _step_in_range(
        self, last: int, seq: int, between: int, low: int, high: int
    ) -> list[Message]:
        ahead = (seq - last) % (high - low + 1)
        if not ahead:  # another message under the same number
            return [_restart(last, seq, None)]
        if ahead <= 1 + between:
            return []
        if seq == low:
            return [_restart(last, seq, ahead - 1 - between)]
        return _lost(last, seq, ahead - 1 - between, between)

    def _step_learned(self, last: int, seq: int, between: int) -> list[Message]:
        if seq == last:  # another message under the same number
            return [_restart(last, seq, None)]
        if seq > last:
            self._high = max(self._high, seq)
            return _lost(last, seq, seq - last - 1 - between, between)
        landing = seq - between  # where the count wrapped to, if it did
        if last == self._high and landing <= self._low:
            out: list[Message] = []
            if landing < self._low:
                # the earlier wraps landed above the lowest number: they lost messages
                if self._landings:
                    count = (self._low - landing) * self._landings
                    span = f"seq {landing}..{self._low - 1}"
                    out.append(Lost(count, f"{span} never arrived at an earlier wrap"))
                self._low, self._landings = landing, 0
            self._landings += 1
            self._wrapped = True
            return out
        if last == self._high and self._wrapped:
            return _lost(self._low - 1, seq, seq - self._low - between, between)
        self._low = min(self._low, seq)
        missed = self._high - last + seq - self._low - between if self._wrapped else None
        # more messages between than the wrap has room for: their numbers were misread
        return [_restart(last, seq, missed if missed is None or missed >= 0 else None)]


def _lost(before: int, after: int, count: int, between: int = 0) -> list[Message]:
    """`count` of the numbers strictly between `before` and `after` never arrived, the
    others (`between`) were delivered with their numbers unread."""
    if count <= 0:
        return []
    span = f"seq {before + 1}" if count + between == 1 else f"seq {before + 1}..{after - 1}"
    if between:
        return [Lost(count, f"{count} of {span} never arrived ({between} read, unnumbered)")]
    return [Lost(count, f"{span} never arrived")]


def _skipped(skipped: int, steps: list[Message], first: int, last: int) -> list[Message]:
    """What the numbers read on messages not confirmed show lost beyond what the count of
    believed numbers said: a wrap among them, or a message counted twice, hides it there."""
    said = sum(m.count for m in steps if isinstance(m, Lost))
    if skipped <= said:
        return []
    more = skipped - said
    return [Lost(more, f"{more} of seq {first}..{last} never arrived, by the numbers read")]


def _restart(last: int, seq: int, missed: int | None) -> ShoeAlarm:
    lost = f"{missed} message(s)" if missed is not None else "messages"
    return ShoeAlarm(
        f"the shoe's count went back from {last} to {seq}: it restarted, or {lost} "
        "were lost at its wrap"
    )


class AngelDecoder:
    """Frames → messages, each once. A message is believed when `votes` copies agree (one
    when the check is verified). Timing comes from the baud rate: a frame left incomplete
    for as long as `RESET_AFTER` bytes take is dropped, and a message's copies are settled
    once the line has been quiet for `copy_window` seconds (default: as long as `COPIES`
    longest frames take). Unreadable bytes between two believed messages with room for
    more messages than their numbers say were lost raise an alarm: the numbers cannot show
    a whole turn of the count lost."""

    def __init__(
        self,
        *,
        check: str = "none",
        votes: int | None = None,
        seq_range: tuple[int, int] | None = None,
        baud: int = BAUD,
        copy_window: float | None = None,
    ) -> None:
        algorithm = check_named(check)
        self._framer = AngelFramer(algorithm)
        self._votes = votes or (1 if algorithm else 2)
        # without a check a copy's number may be misread: wait for the copies after it
        self._lookahead = 0 if algorithm else COPIES - 1
        byte_time = BITS_PER_BYTE / baud
        self._frame_quiet = RESET_AFTER * byte_time
        self._copy_window = COPIES * RESET_AFTER * byte_time if copy_window is None else copy_window
        self._count = SequenceCount(seq_range)
        self._group: _Group | None = None
        self._odd: list[Copy] = []  # copies under another number, waiting for what follows
        self._last: Copy | None = None  # the message delivered last, as its copy
        self._untrusted: list[int] = []  # numbers read of messages delivered untrusted since
        self._unread = 0  # bytes no frame could be read from, since the count last moved
        self._heard_at = 0.0
        self._copy_at = 0.0

    def feed(self, data: bytes, now: float) -> list[Message]:
        if data:
            self._heard_at = now
        return self._take(self._framer.feed(data), now)

    def idle(self, now: float) -> list[Message]:
        out: list[Message] = []
        if now - self._heard_at >= self._frame_quiet:
            out += self._take(self._framer.drop_partial(), now)
        if now - self._copy_at >= self._copy_window:
            out += self._settle()
        return out

    def finish(self) -> list[Message]:
        out = self._take(self._framer.finish(), self._copy_at) + self._settle()
        return out + self._trailing_losses()

    def _trailing_losses(self) -> list[Message]:
        """The input ended on messages whose numbers were not trusted, so no message believed
        after them counts them: the last one's number, as read, is all there is to tell
        whether some before it never arrived."""
        last, numbers = self._last, self._untrusted
        if last is None or not numbers:
            return []
        self._untrusted = []
        anchor = self._count.last
        earlier = numbers[:-1]
        steps = self._count.step(last.seq, self._count.accounted(last.seq, earlier))
        lost: list[Message] = [m for m in steps if isinstance(m, Lost)]
        chain = numbers if anchor is None else [anchor, *numbers]
        return lost + _skipped(self._count.skipped(chain), lost, chain[0], last.seq)

    def outgoing(self) -> bytes:
        return b""

    def _take(self, items: list[tuple[int, bytes] | Garbage], now: float) -> list[Message]:
        out: list[Message] = []
        for item in items:
            if isinstance(item, Garbage):
                self._unread += item.count
                out.append(item)
            else:
                out += self._copy(Copy(*item), now)
        return out

    def _copy(self, copy: Copy, now: float) -> list[Message]:
        out: list[Message] = []
        if now - self._copy_at > self._copy_window:
            out += self._settle()  # too late to be a copy of what came before
        self._copy_at = now
        group = self._group
        if group is None:
            self._group = _Group(copy.seq)
            return out + self._judge([copy])
        if copy.seq == group.seq:
            added = [*self._odd, copy]  # the odd ones were copies misnumbered
            self._odd = []
            return out + self._judge(added)
        self._odd.append(copy)
        agreeing = [c for c in self._odd if c.seq == copy.seq]
        complete = bool(group.believed) and len(group.copies) >= COPIES
        if len(self._odd) > self._lookahead or len(agreeing) > 1 or complete:
            odd, self._odd = self._odd, []
            out += self._close(agreeing if len(agreeing) > 1 else [])
            for later in odd:
                out += self._copy(later, now)
        return out

    def _settle(self) -> list[Message]:
        """The line went quiet or ended: what is held is judged as it stands."""
        out: list[Message] = []
        while self._group is not None:
            odd, self._odd = self._odd, []
            out += self._close([])
            for copy in odd:
                out += self._copy(copy, self._copy_at)
        return out

    def _judge(self, added: list[Copy]) -> list[Message]:
        group = self._group
        assert group is not None
        group.copies += added
        for copy in added:
            group.votes[copy] = group.votes.get(copy, 0) + 1
        out: list[Message] = []
        for copy, votes in group.votes.items():
            if votes >= self._votes and copy not in group.believed:
                group.believed.append(copy)
                out += self._deliver(copy, data_message(copy.data))
        return out

    def _close(self, next_copies: list[Copy]) -> list[Message]:
        """Ends the group; one that never got its votes is still a message, unless it reads
        as a misnumbered copy of the message before it or of the one after it."""
        group, self._group = self._group, None
        if group is None or group.believed:
            return []
        copy = group.likeliest()
        last = self._last
        if last is not None and (
            copy.seq == last.seq
            or (copy.data == last.data and not self._count.follows(last.seq, copy.seq))
        ):
            self._renumber(copy.seq)
            return []
        if next_copies:
            after = Counter(next_copies).most_common(1)[0][0]
            if copy.data == after.data and not self._count.follows(copy.seq, after.seq):
                return []
        # a lone copy's number is not trusted: the next message believed counts it
        self._last = copy
        self._untrusted.append(copy.seq)
        return [_unconfirmed(group.copies)]

    def _renumber(self, seq: int) -> None:
        """Another copy of the message just delivered unconfirmed, under `seq`: of its two
        numbers, the one that follows the number before it is kept."""
        numbers = self._untrusted
        if not numbers:
            return
        before = numbers[-2] if len(numbers) > 1 else self._count.last
        if before is not None and self._count.near(before, seq, len(numbers) + 4) and not (
            self._count.near(before, numbers[-1], len(numbers) + 4)
        ):
            numbers[-1] = seq

    def _deliver(self, copy: Copy, message: Message) -> list[Message]:
        if copy == self._last:
            return []  # the shoe repeating what it just sent
        last, self._last = self._last, copy
        numbers, self._untrusted = self._untrusted, []
        anchor = self._count.last
        chain = [*([] if anchor is None else [anchor]), *numbers, copy.seq]
        between = self._count.accounted(copy.seq, numbers)
        unread, self._unread = self._unread, 0
        steps = self._count.step(copy.seq, between)
        if numbers:
            steps += _skipped(self._count.skipped(chain), steps, chain[0], copy.seq)
        lost = sum(m.count for m in steps if isinstance(m, Lost))
        # a message needs `COPIES` frames of at least `CARD_FRAME` bytes; unreadable bytes
        # beyond those of the messages known missing and of the damaged copies of the two
        # either side may be messages that the numbers cannot show (a whole turn of the
        # count, or a restart that lands where the count would have been)
        room = (lost + len(numbers) + 2) * COPIES * CARD_FRAME
        if last is not None and unread > room and not any(
            isinstance(m, ShoeAlarm) for m in steps
        ):
            hidden = (unread - room) // (COPIES * CARD_FRAME) + 1
            steps.append(
                ShoeAlarm(
                    f"seq {last.seq} to {copy.seq}: {unread} unreadable bytes between them, "
                    f"room for {hidden} more message(s) than the numbers say were lost"
                )
            )
        return [*steps, message]


def _unconfirmed(copies: list[Copy]) -> Message:
    """A message whose copies did not agree enough: if any copy reads as a card, a card may
    have left the shoe, so it is a misread with the likeliest reading as its guess (a lone
    cut card or failed read is taken as read: no corruption of a card makes one likely).
    One that reads only as a status or an alarm may be a card whose other copies were lost
    or corrupted: an alarm says so, with what was read (a status alone would never reach
    the tailleur, and a garbled alarm would not tell him a card may be missing)."""
    readings = [m for m, _ in Counter(data_message(c.data) for c in copies).most_common()]
    dealt = [m for m in readings if isinstance(m, CardRead | CutRead | Misread)]
    match dealt[0] if dealt else readings[0]:
        case CardRead(card=card):
            return Misread(guess=card)
        case Status(text=text) | ShoeAlarm(text=text) as read:
            kind = "status" if isinstance(read, Status) else "alarm"
            seq = Counter(copies).most_common(1)[0][0].seq
            return ShoeAlarm(
                f"seq {seq}: a message read only as {kind} {text!r}, its copies not agreeing: "
                "a card may be missing"
            )
        case other:
            return other
