"""Angel's link layer (PROTOCOL.md §6): the copies of a message grouped and judged by their
agreement, on top of `AngelFramer`, and counted by `drivers.angel_count`.

A shoe sends each message `COPIES` times, back to back, under one sequence number, and
the next message under the next number. So copies are the frames that follow each other
under one number (a copy whose number was misread sits among them, and is outvoted); a
message whose copies never reach the votes is still delivered, a card as a `Misread` with
its reading as the guess.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from drivers.angel import BAUD, COPIES, RESET_AFTER, AngelFramer, data_message
from drivers.angel_beside import said_beside
from drivers.angel_copies import (
    Copy,
    as_sent,
    card_shaped,
    messages_among,
    neighbour_copy,
    same_message,
    same_reading,
    unconfirmed,
)
from drivers.angel_count import SequenceCount
from drivers.angel_group import Group
from drivers.angel_quiet import JAM_AFTER, awaited, waits
from drivers.angel_step import (
    apart_from_dispute,
    believed_step,
    bit_apart,
    disputed_numbers,
)
from drivers.angel_tail import trailing_losses
from drivers.checks import check_named
from drivers.messages import CardRead, Garbage, Message, Misread, Status

BITS_PER_BYTE: Final = 10  # 8N1: a start bit, eight data bits, a stop bit


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
        jam_after: float = JAM_AFTER,
    ) -> None:
        algorithm = check_named(check)
        self._framer = AngelFramer(algorithm)
        self._votes = votes or (1 if algorithm else 2)
        # without a check a copy's number may be misread: wait for the copies after it
        self._lookahead = 0 if algorithm else COPIES - 1
        byte_time = BITS_PER_BYTE / baud
        self._frame_quiet = RESET_AFTER * byte_time
        self._copy_window = COPIES * RESET_AFTER * byte_time if copy_window is None else copy_window
        self._jam_after = jam_after  # `drivers.angel_quiet`
        self._count = SequenceCount(seq_range)
        self._group: Group | None = None
        self._odd: list[Copy] = []  # copies under another number, waiting for what follows
        self._last: Copy | None = None  # the message delivered last, as its copy
        self._last_read: set[bytes] = set()  # and what each of its copies read
        # delivered unconfirmed, how many copies read exactly as it under its number since
        # (0: none to count, or not to be confirmed so: `_confirmed`)
        self._last_alike = 0
        # the numbers read on each message delivered untrusted since, likeliest first
        self._untrusted: list[tuple[int, ...]] = []
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
            out += self._settle(waiting=now - self._copy_at < self._jam_after)
        return out

    def finish(self) -> list[Message]:
        out = self._take(self._framer.finish(), self._copy_at) + self._settle()
        if self._last is None or not self._untrusted:
            return out
        untrusted, self._untrusted = self._untrusted, []
        return out + trailing_losses(self._count, untrusted)

    def outgoing(self) -> bytes:
        return b""

    def _take(self, items: list[tuple[int, bytes] | Garbage], now: float) -> list[Message]:
        out: list[Message] = []
        for item in items:
            if isinstance(item, Garbage):
                self._unread += item.count
                out.append(item)
            else:
                seq, data = item
                out += self._copy(Copy(seq, as_sent(seq, data)), now)
        return out

    def _copy(self, copy: Copy, now: float) -> list[Message]:
        # too late to be a copy of what came before, but for those awaited (`angel_quiet`)
        late = now - self._copy_at > self._copy_window
        late = late and not awaited(self._group, self._odd, self._votes, copy)
        out = self._settle() if late else []
        self._copy_at = now
        group = self._group
        if group is None:
            self._group = Group(copy.seq, self._last)
            return out + self._judge([copy])
        if copy.seq == group.seq:
            if group.takes(self._odd, copy, self._count):
                added = [*self._odd, copy]  # the odd ones were copies misnumbered
                self._odd = []
                return out + self._judge(added)
            # one under another number and reading otherwise is a message of its own: the
            # copy before it was misnumbered, or this one's data is damaged
            self._odd.append(copy)
            return out + self._flush([], now)
        self._odd.append(copy)
        agreeing = [c for c in self._odd if c.seq == copy.seq]
        complete = bool(group.believed) and len(group.copies) >= COPIES
        if len(self._odd) > self._lookahead or len(agreeing) > 1 or complete:
            out += self._flush(agreeing if len(agreeing) > 1 else [], now)
        return out

    def _flush(self, next_copies: list[Copy], now: float) -> list[Message]:
        """Ends the group; the copies held after it are read again, without it."""
        odd, self._odd = self._odd, []
        out = self._close(next_copies, odd)
        for later in odd:
            out += self._copy(later, now)
        return out

    def _settle(self, *, waiting: bool = False) -> list[Message]:
        """The line went quiet or ended: what is held is judged (but what `waits`, `waiting`)."""
        out: list[Message] = []
        while self._group is not None:
            if waiting and waits(self._group, self._odd, self._votes):
                break
            odd, self._odd = self._odd, []
            out += self._close([], odd)
            for copy in odd:
                out += self._copy(copy, self._copy_at)
        return out

    def _judge(self, added: list[Copy]) -> list[Message]:
        group = self._group
        assert group is not None
        group.copies += added
        out = self._release(group, settled=False)
        for copy, votes in group.votes().items():
            # the same card with its face-up bit flipped alike in two copies (a doubled
            # frame's) is not another message under the number (seed 10046159)
            if votes >= self._votes and not any(
                same_reading(copy.data, b.data) and copy.seq == b.seq for b in group.believed
            ):
                # a card still held (behind a failed read, it waits past its third copy) is
                # delivered before another message's, which would take its place unsaid
                out += self._release(group, settled=True)
                out += self._late_copies(group, copy)
                group.believed.append(copy)
                beside = self._beside(group, [], before=True)
                unread, self._unread = self._unread, 0
                group.held = copy, beside, unread
                out += self._release(group, settled=False)
        return out

    def _late_copies(self, group: Group, copy: Copy) -> list[Message]:
        """Before another message is first believed in `group`, its copies read exactly as the
        message just delivered unconfirmed, under its number, are that message's late copies
        (`_confirmed`): a clean live line quiet between each of its copies (seed 10048644)."""
        last = self._last
        if group.believed or last is None or copy == last:
            return []
        copies = group.copies.count(last)
        return self._confirmed(last, copies) if copies else []

    def _release(
        self, group: Group, *, settled: bool, after: list[Copy] | None = None
    ) -> list[Message]:
        """Delivers the message `group` holds, with what is said beside it; without a check, a
        card or status believed before three of its copies read alike waits for them (or for
        the group to be `settled`), unless already disputed (`Group.disputed`): a copy read as
        another card one damage away, or the next message's copy beside a card on two copies,
        or a status's copy read as an alarm, and a fourth copy, a doubled frame's, may be the
        one (seed 20003317); three alike under its own number: a copy under another waits
        for `_number_disputed`. One after a failed read waits for the copies after it
        (`_failed_beside`)."""
        if group.held is None:
            return []
        copy, beside, unread = group.held
        card = data_message(copy.data)
        delivered = group.disputed(card, copy, after or []) if self._votes > 1 else card
        alike = group.votes()[copy]
        if not settled and self._votes > 1 and isinstance(delivered, CardRead | Status) and (
            alike < COPIES or group.failed_read_first()
        ):
            return []
        group.held = None
        return beside + self._deliver(copy, delivered, unread, alike=alike)

    def _close(self, next_copies: list[Copy], held: list[Copy]) -> list[Message]:
        """Ends the group; one that never got its votes is still a message, unless it reads
        as a misnumbered copy of the message before it or of the one after it. Copies that
        no damage of one copy could turn into each other are two messages (one's number
        misread into the other's), each delivered unconfirmed. `held`: the copies read after
        the group, under other numbers."""
        group, self._group = self._group, None
        if group is None:
            return []
        if group.believed:
            after = [*next_copies, *held]
            out = self._number_disputed(group, held) or self._failed_beside(group, held)
            out = out or self._release(group, settled=True, after=after)
            return out + self._beside(group, after)
        messages = messages_among(group.copies)
        out = self._close_one(messages[0], next_copies, split=len(messages) > 1)
        for copies in messages[1:]:
            out += self._close_one(copies, next_copies, split=True, after_one=True)
        return out

    def _number_disputed(self, group: Group, held: list[Copy]) -> list[Message]:
        """A card believed whose numbers are in doubt (`disputed_numbers`) is a misread
        guessing it, those numbers not trusted."""
        if group.held is None:
            return []
        numbers = disputed_numbers(self._count, self._untrusted, group, held)
        return self._held_as_misread(group, numbers) if numbers else []

    def _failed_beside(self, group: Group, held: list[Copy]) -> list[Message]:
        """A card believed after a first copy read as a failed read (one damage from any
        card), the copies after it under a number past the next: the failed read may have
        been sent there, the card's copies misnumbered from the next (seed 10044700), so the
        card is a misread guessing it, its number not trusted (not so for a failed read after
        the card's copies, as often: not worth the cards the tailleur would confirm)."""
        if group.held is None or not held or self._count.follows(group.seq, held[0].seq):
            return []
        failed_first = group.failed_read_first()
        return self._held_as_misread(group, (group.held[0].seq,)) if failed_first else []

    def _held_as_misread(self, group: Group, numbers: tuple[int, ...]) -> list[Message]:
        """The card `group` holds as a misread guessing it, `numbers` not trusted (no card, no
        misread: a failed read or a text held is delivered as it stands)."""
        assert group.held is not None
        copy, beside, unread = group.held
        if not isinstance(read := data_message(copy.data), CardRead):
            return []
        group.held = None
        self._unread += unread
        self._last, self._last_read, self._last_alike = copy, {copy.data}, 0
        self._untrusted.append(numbers)
        return [*beside, Misread(guess=read.card)]

    def _close_one(
        self, copies: list[Copy], next_copies: list[Copy], *, split: bool, after_one: bool = False
    ) -> list[Message]:
        """One message among a group's copies (`after_one`: not the first, so the message
        just delivered is another one read under the same number, not a copy of it)."""
        copy = Counter(copies).most_common(1)[0][0]  # the first read among the most voted
        last = self._last
        # under the number just delivered and one damage from it, a late copy of it; in a
        # group split, a message that reads as the one before or after it is one of their
        # copies, its number misread, whatever the numbers: exactly, or one damage away when
        # read once (copies of two alarms in a row, each garbled, are one damage apart, and
        # two copies misnumbered alike are rare: seed 10045799 dropped the second alarm)
        lone = len(copies) < self._votes
        apart = apart_from_dispute(self._count, last, self._last_read, copy)

        def neighbour(other: Copy) -> bool:
            return split and (copy.data == other.data or (lone and neighbour_copy(
                copy.data, other.data)))

        if last is not None and (
            (copy.seq == last.seq and not after_one and same_message(copy.data, last.data))
            or (same_reading(copy.data, last.data) and not (
                self._count.follows(last.seq, copy.seq) or apart))
            or neighbour(last)
        ):
            self._renumber(copy.seq)
            return [] if copy != last or after_one else self._confirmed(copy, copies.count(copy))
        message = unconfirmed(copies, split=split)
        votes = Counter(next_copies).most_common(2)
        # the copies after it must read as one message: in a tie, the one read first may be
        # this very message's copy, misnumbered into the next one's number
        if votes and (len(votes) == 1 or votes[0][1] > votes[1][1]):
            after = votes[0][0]
            if neighbour(after) or (
                copy.data == after.data and not self._count.follows(copy.seq, after.seq)
            ):
                return []
            if copy.data == after.data:
                # the next message under the number before its own: a copy of it misnumbered
                # (the message sent under that number lost whole), or the same card dealt
                # twice; delivered, but its number counts for nothing, lest it hide a loss
                return [message]
        texts = not (card_shaped(copy.data) or last is None or card_shaped(last.data))
        if last is not None and not apart and (copy.data in self._last_read or texts):
            # the message just delivered, again under the next number: a copy misnumbered
            # (reading as any of its copies did: seed 10111755, a cut card read once so
            # beside a failed read), or the same card dealt twice (or, read as texts, one
            # alarm's copies each garbled its own way, or two alarms); delivered, but its
            # number does not count as another message's, so that a copy delivered twice
            # never hides a loss
            self._renumber(copy.seq)
            return [message]
        blind = bit_apart(self._count, last, self._last_read, copies, alike=self._last_alike)
        # a lone copy's number is not trusted: the next message believed counts it
        self._last, self._last_read = copy, {c.data for c in copies}
        self._last_alike = copies.count(copy)
        read = Counter(c.seq for c in copies).most_common()
        self._untrusted.append(tuple(dict.fromkeys([copy.seq, *(n for n, _ in read)])))
        return [message, *blind]

    def _beside(self, group: Group, after: list[Copy], *, before: bool = False) -> list[Message]:
        """What else a group believed holds, said beside it (`said_beside`)."""
        if self._votes < 2:
            return []
        return said_beside(self._count, self._untrusted, group, after, before=before)

    def _renumber(self, seq: int) -> None:
        """Another copy of the message just delivered unconfirmed, under `seq`: one more
        number it may have had (`SequenceCount.placed` judges)."""
        if self._untrusted and seq not in self._untrusted[-1]:
            self._untrusted[-1] += (seq,)

    def _deliver(self, copy: Copy, message: Message, unread: int, *, alike: int) -> list[Message]:
        """`unread`: the unreadable bytes read since the count last moved, up to `copy`;
        `alike`: how many copies read as it under its number."""
        if copy == self._last:
            self._unread += unread
            return self._confirmed(copy, alike)  # the shoe repeating what it just sent
        out = self._alike_before(copy)
        last, self._last, self._last_read, self._last_alike = self._last, copy, {copy.data}, 0
        return [*out, *self._counted(copy, last, unread, alike=alike), message]

    def _alike_before(self, copy: Copy) -> list[Message]:
        """The message delivered unconfirmed just before `copy`, believed under the same
        number, read exactly alike under it on as many copies as believe a message (a quiet
        spell parted them, `_confirmed`): its number is trusted, so that `copy` is a second
        message under the number just used (seed 50119250: 9H's copies under 152 parted by
        a quiet spell, then QH's two misnumbered alike from 154 into 152, believed there,
        the count ran in step and the failed read sent under 153, lost whole, went unsaid)."""
        last, alike = self._last, self._last_alike
        if last is None or last.seq != copy.seq or alike < self._votes:
            return []
        if self._untrusted[-1:] != [(copy.seq,)]:
            return []
        self._untrusted.pop()
        self._last_alike = 0
        return self._counted(last, None, 0, alike=alike)

    def _confirmed(self, copy: Copy, alike: int) -> list[Message]:
        """`alike` more copies of the message just delivered unconfirmed, read exactly as it
        under its number, after a quiet spell settled it: with those before, as many as a
        message believed has, it was one, its number trusted, and the count steps to it (left
        untrusted, a clean line that went quiet after a message's first copy raised a false
        alarm: `seq 81 to 82: a number misread last, not confirmed`, review of 50942d1)."""
        if not self._last_alike or self._untrusted[-1:] != [(copy.seq,)]:
            return []
        self._last_alike += alike
        if self._last_alike < COPIES:
            return []
        self._last_alike = 0
        self._untrusted.pop()
        # the unreadable bytes before it stay for the next message believed to weigh
        return self._counted(copy, None, 0, alike=COPIES)

    def _counted(self, copy: Copy, last: Copy | None, unread: int, *, alike: int) -> list[Message]:
        """What the step of the count to `copy`, believed, says (`drivers.angel_step`)."""
        untrusted, self._untrusted = self._untrusted, []
        return believed_step(
            self._count, untrusted, copy, last, unread=unread, alike=alike, votes=self._votes
        )
