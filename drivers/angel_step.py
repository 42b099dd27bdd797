"""What the count says when a message is believed (PROTOCOL.md §6): the numbers read on the
messages delivered untrusted since the last one believed are placed, the step to the new
number is judged, and what the numbers, the count's ends and the unreadable bytes between
cannot show is said; and whether a copy's number counts beside a dispute."""

from __future__ import annotations

from drivers.angel import COPIES, data_message
from drivers.angel_copies import Copy
from drivers.angel_count import SequenceCount, beyond_count
from drivers.angel_room import room_alarm
from drivers.messages import CardRead, Lost, Message, ShoeAlarm


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
