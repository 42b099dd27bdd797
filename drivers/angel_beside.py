"""What else a group of angel copies believed holds, said beside the message
(PROTOCOL.md §6): texts and outvoted cards (`Group.texts_beside`,
`Group.outvoted_cards`), and what their numbers count or cannot show."""

from __future__ import annotations

from drivers.angel_copies import Copy, card_shaped
from drivers.angel_count import TWO_STEP_REACH, SequenceCount, restart_alarm
from drivers.angel_group import Group
from drivers.angel_step import beyond_count
from drivers.messages import Message


def said_beside(
    count: SequenceCount,
    untrusted: list[tuple[int, ...]],
    group: Group,
    after: list[Copy],
    *,
    before: bool,
) -> list[Message]:
    """What else a group believed holds, said beside it (`before` the message, when read
    before it was believed); the numbers of the cards among it that count are added to
    `untrusted` (those read on the messages delivered untrusted since the last one
    believed). A card said before it, read under a number of its own too (a copy
    misnumbered into the group's), counts that number as a lone copy's (seed 10033119: 30
    lost between JC read under 29 and 3D believed under 31, unsaid); said after it, only a
    number ahead of the group's (seed 10135087: 6D read under 98 after 7S believed under
    96, the input ending there, 97 lost unsaid). Read under none of its own with no number
    counted before it, its number is unknown: what was lost between it and the group, the
    numbers cannot show (seed 10174192: QD's copy under 90 before 2C believed there, first
    in the input, the failed read under 89 lost unsaid). Said after it under the group's
    number alone, or with numbers just behind it, beside a card believed, it may be a
    count's that restarted there, and the alarm that the count went back says so (seed
    50047561: 7C believed under 68, 69 and 70 lost whole, then 5H's copy under 68 again,
    said as a misread, the losses unsaid; seed 50129216: 4D believed under 3, the count
    restarted at 1, its first message lost whole, the cut card's copies under 2 and 3).
    Said before a card believed under the group's number alone, it or the group was
    misnumbered: what was lost around them, the numbers cannot show (seed 50122614: 4C's
    copy under 145, 2H's two misnumbered alike from 147 to 145, 146 lost before 2H was
    said after it)."""
    out = group.texts_beside(after)
    # a card outvoted by copies read as a text, a card's command damaged alike, is its own
    card = any(card_shaped(b.data) for b in group.believed)
    for message, own in group.outvoted_cards(after):
        out.append(message)
        # one behind the group's may be a restarted count's, the group's number another's;
        # one ahead counts as far as `skipped` takes a step from the group's number to it
        if own and (before or all(count.near(group.seq, n, TWO_STEP_REACH) for n in own)):
            untrusted.append(own)
        elif before and ((first := count.last is None and not untrusted) or (card and not own)):
            why = ("first, a card read only under the next message's number" if first
                   else "before, a card read only under the number believed after it")
            out += beyond_count((0, why), [], group.seq, group.seq)
        elif not before and card and all(count.near(n, group.seq, TWO_STEP_REACH) for n in own):
            out.append(restart_alarm(group.seq, group.seq, None))
    return out
