"""The copies of one angel message (PROTOCOL.md §6), as `drivers.angel_link` groups them:
those read under one number, those believed once enough agree, and the other messages
found among them, said beside the one believed."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from drivers.angel import COPIES, data_message
from drivers.angel_copies import Copy, card_shaped, same_message, unconfirmed, via_a_card
from drivers.angel_count import SequenceCount
from drivers.messages import CardRead, Message, Misread, ShoeAlarm, Status


@dataclass(slots=True)
class Group:
    """The copies read so far of one message, and those believed, once enough agree (two
    messages under one number: a count that restarted at the number it had reached)."""

    seq: int
    previous: Copy | None  # the message delivered before its first copy was read
    copies: list[Copy] = field(default_factory=list)
    believed: list[Copy] = field(default_factory=list)
    # other messages among its copies, delivered beside it: texts (`texts_beside`), and
    # each card's shape (`outvoted_cards`), as read
    texts_said: bool = False
    cards_said: list[bytes] = field(default_factory=list)
    # a card believed on two copies before its third was read, with what is said beside it:
    # delivered once the third copy shows whether the copies dispute it (`_release`), or,
    # beside a failed read, once the copies after it show the next number (`_failed_beside`)
    # (and the unreadable bytes before it, which those after it must not join)
    held: tuple[Copy, list[Message], int] | None = None

    def takes(self, odd: list[Copy], copy: Copy, count: SequenceCount) -> bool:
        """Whether `copy`, read under its number after `odd` copies under others, takes them
        in as its copies misnumbered: when they all read as its copies (or `copy`) do, or,
        once a message is believed, but for a copy reading otherwise under the next number
        (the next message's: seed 30023400, 3C under 186, taken into 2C's group under 185 by
        9D's copy misnumbered 185 after it, went unsaid) or under the number before
        `copy`'s, itself not reading as the message believed (a count that restarted: seed
        30052564, 9C under 0 and a failed read under 1 after 6D believed under 1, the
        failed read taken for 6D's third copy, unsaid)."""
        known = {c.data for c in self.copies} | {copy.data}
        if all(c.data in known for c in odd):
            return True
        run = copy.data not in {b.data for b in self.believed}
        return bool(self.believed) and not any(
            c.data not in known
            and (count.follows(self.seq, c.seq) or (run and count.follows(c.seq, copy.seq)))
            for c in odd
        )

    def failed_read_first(self) -> bool:
        """Whether its first copy reads as a failed read (one damage from any card's)."""
        return bool(self.copies) and data_message(self.copies[0].data) == Misread()

    def alike(self, data: bytes) -> int:
        """How many of its copies read exactly as `data`."""
        return sum(c.data == data for c in self.copies)

    def strangers(self, data: bytes) -> list[Copy]:
        """Its copies of a card's shape that no damage of one copy makes out of `data`."""
        return [c for c in self.copies if card_shaped(c.data) and not same_message(c.data, data)]

    def disputed(self, read: Message, believed: Copy, after: list[Copy]) -> Message:
        """A message believed without a check, as delivered: a card whose copies read as
        another card one damage away is a misread guessing it. Two copies damaged alike into a
        card one bit from the one sent cannot be told from one copy damaged once, far
        likelier: neither is believed, the tailleur confirms the card (a failed read, a cut
        card, a text, the same card the other way up on fewer copies, or a card further away
        disputes nothing: it is noise or another message); so is a card on two copies beside
        a copy of one of `after`, the copies read after the group, or of the message before.
        A status, which never reaches the tailleur, with a copy read as an alarm is the alarm:
        `E` and `e` (error cleared) are a bit apart (seed 10108376: an alarm's command
        damaged alike in two copies, its third intact, was dropped as a status)."""
        data = believed.data
        if isinstance(read, Status):
            alarms = (data_message(c.data) for c in self.copies)
            return next((m for m in alarms if isinstance(m, ShoeAlarm)), read)
        if not isinstance(read, CardRead):
            return read
        neighbours = [*after, *([] if self.previous is None else [self.previous])]
        if self.alike(data) < COPIES and any(
            c.data == a.data for c in self.strangers(data) for a in neighbours
        ):
            # the next message's copy, or the one before's, misnumbered into the group, took
            # the place of the card's own missing copy: the card rests on two copies, which
            # two copies damaged alike could make, and a copy under its number disputes them
            # (seeds 10019754; 20001947, TS's copy under 5S's number, 5S's two read as 7S)
            return Misread(guess=read.card)
        for other in self.copies:
            named = data_message(other.data)
            if (
                isinstance(named, CardRead)
                and named.card != read.card
                and same_message(other.data, data)
            ) or (
                self.alike(data) < COPIES and other.seq == believed.seq and via_a_card(other, data)
            ):
                return Misread(guess=read.card)
        if self._face_turned(read) >= self.alike(data):
            # as many copies read it the other way up (a doubled frame's, the face-up bit
            # flipped alike): which way it came out, which the engine acts on, is the
            # tailleur's to confirm (seed 10046159)
            return Misread(guess=read.card)
        return read

    def _face_turned(self, read: CardRead) -> int:
        """How many of its copies read as `read`'s card the other way up."""
        return sum(
            isinstance(named := data_message(c.data), CardRead)
            and named.card == read.card
            and named.face_up != read.face_up
            for c in self.copies
        )

    def votes(self) -> Counter[Copy]:
        """Each copy's votes, in the order first read."""
        return Counter(self.copies)

    def texts_beside(self, next_copies: list[Copy]) -> list[Message]:
        """A group believed as a card, two or more of whose copies are texts no damage of a
        card's copy makes (an alarm's, their number or the card's misread to the other's):
        another message under that number, delivered unconfirmed, once, before the card when
        read before it is believed. Not when one reads as the message before or as a copy
        after the group (theirs, misnumbered); their number counts for nothing."""
        if self.texts_said:
            return []
        # a card's copy among them, not believed, is `outvoted_cards`' to say: the texts no
        # damage of it makes are still another message (seed 20030166: KS misnumbered into
        # JH's group, then an alarm's three copies each garbled, the alarm dropped unsaid)
        known = [c.data for c in self.copies if card_shaped(c.data)]
        known += [b.data for b in self.believed]
        others = [
            c for c in self.copies
            if not card_shaped(c.data) and not any(same_message(c.data, d) for d in known)
        ]
        neighbours = {c.data for c in [*next_copies, self.previous] if c is not None}
        if len(others) < 2 or any(c.data in neighbours for c in others):
            return []
        self.texts_said = True
        return [unconfirmed(others)]

    def outvoted_cards(self, after: list[Copy]) -> list[tuple[Message, tuple[int, ...]]]:
        """A group believed, copies of which read as a card, the cut card or a failed read
        that no damage of one copy makes out of what was believed: two copies damaged alike
        (a card's command, into an alarm's; or their number, into another message's)
        outvoted them, so a card may have left the shoe for each message they are (a count
        that restarted may put more than one under the number). Each is a misread (with its
        card as the guess), said beside what was believed, once, unless it reads as the
        message before, under its number or read before the copies believed, or as a copy
        read after the group (theirs, its number misread). With each, the numbers other
        than the group's that its copies were read under."""
        believed = [c.data for c in self.believed]
        previous = self.previous
        first_believed = min(self.copies.index(b) for b in self.believed)
        texts = not any(card_shaped(b) for b in believed)
        out: list[tuple[Message, tuple[int, ...]]] = []
        for copy in self.copies:
            read = data_message(copy.data)
            if (
                any(copy.data == c.data for c in after)
                # the same card twice in a row is dealt in a six-deck shoe: reading as the
                # message before, a copy is its copy only under its number, or read before
                # the copies believed (the shoe sends a message's copies after the last's)
                or (
                    previous is not None
                    and copy.data == previous.data
                    and (copy.seq == previous.seq or self.copies.index(copy) < first_believed)
                )
                or not card_shaped(copy.data)
                or any(same_message(copy.data, said) for said in self.cards_said)
            ):
                continue
            # in a group believed as a text, any copy of a card's shape is another message's:
            # a failed read too (seed 10069487: its command damaged alike into an alarm's in
            # two copies, its third copy intact, dropped)
            if texts or not any(same_message(copy.data, b) for b in believed):
                self.cards_said.append(copy.data)
                own = {c.seq for c in self.copies if c.data == copy.data} - {self.seq}
                guess = read.card if isinstance(read, CardRead) else None
                out.append((Misread(guess=guess), tuple(sorted(own))))
        return out
