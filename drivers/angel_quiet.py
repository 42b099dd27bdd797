"""Angel without a check on a live line gone quiet after one copy of a message that reads
as an alarm or a status, or after two of a card's (PROTOCOL.md §6): it waits up to
`JAM_AFTER` for its other copies.

Settled at the quiet, such a copy was delivered as an alarm that a card may be missing (a
lone copy so read may be a card's, damaged), and its copies after the quiet were dropped as
late: on a clean line, a false alarm (`make fuzz`: 1,185 on 200,000 inputs). Read exactly
as it, under its number, they make it a message believed. Anything else read ends the wait,
what was held said before it, so the wait delays no message; only a line left quiet holds
the alarm, for `JAM_AFTER`."""

from __future__ import annotations

from typing import Final

from drivers.angel import COPIES, data_message
from drivers.angel_copies import Copy
from drivers.angel_group import Group
from drivers.messages import ShoeAlarm, Status

# seconds a lone copy of an alarm waits, the line quiet: a stall mid-message (a USB
# adapter's buffer, a busy host) lasts well under it, a shoe sends a message's copies back
# to back in a fraction of it, and deals no faster than a card a second, so a jam is said
# before another card could be dealt
JAM_AFTER: Final = 1.0


def lone_text(group: Group | None, odd: list[Copy], votes: int) -> Copy | None:
    """The one copy read of the message `group` holds, if it reads as an alarm or a status
    and nothing else is held (`odd`: copies read under other numbers); None when a message
    needs one copy (`votes`: a check verified)."""
    if votes < 2 or group is None or group.believed or odd or len(group.copies) != 1:
        return None
    copy = group.copies[0]
    return copy if isinstance(data_message(copy.data), ShoeAlarm | Status) else None


def waits(group: Group | None, odd: list[Copy], votes: int) -> bool:
    """Whether what `group` holds waits, the line quiet, up to `JAM_AFTER` for its other
    copies: a lone text (`lone_text`), or a card or a status believed on fewer than three
    copies alike (`held`)."""
    return lone_text(group, odd, votes) is not None or held(group, odd, votes)


def held(group: Group | None, odd: list[Copy], votes: int) -> bool:
    """Whether `group` holds a card or a status believed on fewer than three copies alike,
    nothing else held: settled at a quiet spell, it was delivered, and its third copy read
    after the quiet dropped as late, even when it disputed it (seed 30013957: 9C's two
    copies damaged alike into 8C, its third read as 9C: 8C invented, 9C lost unsaid)."""
    return votes > 1 and group is not None and group.held is not None and not odd


def awaited(group: Group | None, odd: list[Copy], votes: int, copy: Copy) -> bool:
    """Whether `copy`, read after a quiet spell, is one of those what `group` holds waits
    for (`waits`): the lone text's, read exactly as it (anything else ends the wait, what
    was held said before it), or any under a held message's number, which may dispute it,
    while the group holds fewer copies than a line doubling every frame gives: each copy
    awaited waits `JAM_AFTER` again, and a line sending copy after copy under the number,
    a little less than that apart, had held the card for good."""
    if copy == lone_text(group, odd, votes):
        return True
    return (
        held(group, odd, votes) and group is not None and copy.seq == group.seq
        and len(group.copies) < 2 * COPIES
    )
