"""What the count says when a message is believed (PROTOCOL.md §6): the numbers read on the
messages delivered untrusted since the last one believed are placed, the step to the new
number is judged, and what the numbers, the count's ends and the unreadable bytes between
cannot show is said (`beyond_count`, for the numbers read on messages not confirmed);
whether a copy's number counts beside a dispute, or two cards a bit apart hide a loss; and
whether a card believed has its numbers in doubt."""

from __future__ import annotations

from typing import Final

from drivers.angel import COPIES, data_message
from drivers.angel_copies import Copy, card_shaped, same_message
from drivers.angel_count import SequenceCount
from drivers.angel_group import Group
from drivers.angel_room import room_alarm
from drivers.messages import CardRead, Lost, Message, Misread, ShoeAlarm

SEQ_BYTE: Final = 255  # the furthest one number comes after another: a count of bytes


def believed_step(
    count: SequenceCount,
    untrusted: list[tuple[int, ...]],
    copy: Copy,
    last: Copy | None,
    *,
    unread: int,
    alike: int,
    votes: int,
) -> list[Message]:
    """What the step of `count` to `copy`, believed, says. `untrusted`: the numbers read on
    each message delivered untrusted since (likeliest first); `last`: the message delivered
    before it, between which and it `unread` bytes were read; `alike`: how many of its
    copies read as it under its number; `votes`: how many copies believe a message."""
    anchor = count.last
    numbers = count.placed(anchor, untrusted, copy.seq)
    read_last = untrusted[-1] if untrusted else ()
    chain = [*([] if anchor is None else [anchor]), *numbers, copy.seq]
    between = count.accounted(copy.seq, numbers)
    two = votes > 1 and alike < COPIES
    blind = count.contradicted(copy.seq, numbers, read_last, two=two)
    blind = blind or _first_moved(count, untrusted, numbers)
    steps = count.step(copy.seq, between, numbers)
    count.widen(chain, anchored=anchor is not None)
    if numbers:
        skipped = count.skipped(chain, anchored=anchor is not None)
        if blind and skipped[1] is None:
            skipped = skipped[0], blind
        steps += beyond_count(skipped, steps, chain[0], copy.seq)
    lost = sum(m.count for m in steps if isinstance(m, Lost))
    if last is not None and not any(isinstance(m, ShoeAlarm) for m in steps):
        steps += room_alarm(
            last.seq, copy.seq, unread, lost=lost, lone=len(numbers),
            sides=[last.data, copy.data], votes=votes,
        )
    return steps


def _first_moved(
    count: SequenceCount, untrusted: list[tuple[int, ...]], numbers: list[int]
) -> str | None:
    """With nothing believed before, the first message delivered untrusted placed under a
    number ahead of the one it was read under first (its likeliest): its copies under the
    two may have been two messages, the later one's damaged into the first's data, and what
    was lost between the numbers cannot show (seed 50014980: 6H's copy read under 78, first
    in the input, then 7H's read as 6H under 95, taken for 6H's number misread, and 7H
    went unsaid). With a number believed before, the step from it shows it; placed behind
    the first read, the step from there to the next shows it."""
    if count.last is None and numbers and count.near(untrusted[0][0], numbers[0], SEQ_BYTE):
        return "first, its first copy read under another number"
    return None


def apart_from_dispute(
    count: SequenceCount, last: Copy | None, last_read: set[bytes], copy: Copy
) -> bool:
    """Whether `copy` came under a number ahead of `last`, the message just delivered, past
    the next, when that message's copies (`last_read`) read as two cards one damage apart (a
    dispute): then they may have been two messages, one's copy misnumbered into the other's
    number, and `copy` the later one's, whose number counts (seed 10144950: 8D and 9D under
    141, then 8D under 143, taken for a late copy of the dispute: 9D under 141, 142 lost
    whole and 8D under 143, before a wrap, and the loss went unsaid)."""
    cards = {m.card for d in last_read if isinstance(m := data_message(d), CardRead)}
    return last is not None and len(cards) > 1 and count.past_next(last.seq, copy.seq)


def bit_apart(
    count: SequenceCount, last: Copy | None, last_read: set[bytes], copies: list[Copy], *,
    alike: int
) -> list[Message]:
    """An alarm when `copies`, one read as a card, and `last`, the message just delivered on
    one such copy (`last_read`: what its copies read; `alike`: how many read as it), under
    the number before, are one card's copies damaged once each (`_one_damage`): one damaged
    in its card byte and one in its number fit them as well as two cards each lost but for
    one copy, and a message lost whole after them leaves the numbers in step (seed
    10154098: 9D's copies read as 9S under 116 and as 9D under 117, the alarm under 117
    lost whole, unsaid). Counted as one message, the count's wrap would land above where
    it did, and hide losses there."""
    copy = copies[0]
    if last is None or len(copies) > 1 or alike != 1 or len(last_read) > 1:
        return []
    if not (_one_damage(copy.data, last.data) and count.follows(last.seq, copy.seq)):
        return []
    return beyond_count((0, "in one of two cards a bit apart, read once each"), [], last.seq,
                        copy.seq)


def _one_damage(one: bytes, other: bytes) -> bool:
    """Two cards a bit apart (`same_message`), or a card and a failed read one damage from
    it: its card byte a bit from the card's, or the card's intention byte, a byte doubled
    before it (seed 50158581: KH's copies read as a failed read under 50, its command byte
    doubled, and as KH under 51, 6C sent under 51 lost whole, unsaid). Any failed read
    beside any card would raise the alarm at far more lone copies."""
    read = [data_message(d) for d in (one, other)]
    if all(isinstance(m, CardRead) for m in read):
        return same_message(one, other)
    if not (card_shaped(one) and card_shaped(other) and Misread() in read):
        return False
    failed, card = (one, other) if read[0] == Misread() else (other, one)
    shifted = failed[2] == card[1]
    return isinstance(data_message(card), CardRead) and (
        shifted or (failed[2] ^ card[2]).bit_count() <= 1
    )


def disputed_numbers(
    count: SequenceCount, untrusted: list[tuple[int, ...]], group: Group, held: list[Copy]
) -> tuple[int, ...]:
    """The numbers of the card `group` holds believed, when they are in doubt (else none): it
    is read again just after its copies under another number that the count follows on to,
    where its own does not (`untrusted`: the numbers read on the messages delivered untrusted
    since the last one believed): two copies whose number was damaged alike cannot be told
    from a count that wrapped or restarted, so the card is a misread guessing it, its
    numbers not trusted (`make fuzz` seed 10038519: believed under 119 after 125, its third
    copy under 127, the 126th lost unsaid). So is one whose copy, in its group or just after
    it (`held`), came under a number ahead of its own past the next, whatever the count
    follows on to: its two copies' number damaged alike would hide what was lost between,
    said after it instead (seed 10136553: 2C believed under 72, its copy under 74 read
    first, 73 lost and said only after 2C). (Under the next number, the next message's
    copies then show it.)"""
    assert group.held is not None
    copy = group.held[0]
    after = tuple(dict.fromkeys(c.seq for c in held if c.data == copy.data))
    if copy.seq in after:
        return ()
    inside = (c.seq for c in group.copies if c.data == copy.data and c.seq != copy.seq)
    others = tuple(dict.fromkeys((*after, *inside)))
    if not others:
        return ()
    numbers = (copy.seq, *others)
    placed = count.placed(count.last, [*untrusted, numbers], None)
    ahead = any(count.past_next(copy.seq, n) for n in others)
    if placed[-1] == copy.seq and not ahead:
        return ()
    return tuple(dict.fromkeys((placed[-1], *numbers)))


def beyond_count(
    read: tuple[int, str | None], steps: list[Message], first: int, last: int
) -> list[Message]:
    """What the numbers read on messages not confirmed show lost beyond what the count of
    believed numbers said (a wrap among them, or a message counted twice, hides it there),
    or that they cannot show it (`SequenceCount.skipped`)."""
    skipped, blind = read
    if blind and not any(isinstance(m, ShoeAlarm) for m in steps):
        return [
            ShoeAlarm(
                f"seq {first} to {last}: a number misread {blind}: "
                "messages may have been lost there that the numbers cannot show"
            )
        ]
    said = sum(m.count for m in steps if isinstance(m, Lost))
    if skipped <= said:
        return []
    more = skipped - said
    return [Lost(more, f"{more} of seq {first}..{last} never arrived, by the numbers read")]
