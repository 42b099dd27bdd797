"""Angel's unreadable bytes (PROTOCOL.md §6): a whole turn of the count lost, or a restart
landing where the count would have been, leaves the numbers in step; only the bytes no
frame could be read from show that messages were there."""

from __future__ import annotations

from typing import Final

from drivers.angel import COPIES
from drivers.messages import Message, ShoeAlarm

CARD_FRAME: Final = 8  # ENQ SEQ D INTENTION CARD ETX CHK CHK: the shortest message a shoe deals


def room_alarm(
    first: int, last: int, unread: int, *, lost: int, lone: int, sides: int, votes: int
) -> list[Message]:
    """An alarm when `unread` bytes, read between the messages numbered `first` and `last`,
    have room for more messages than are known: `lost` ones reported, `lone` ones delivered
    on copies that did not agree (one copy of each read), and `sides` messages believed on
    `votes` copies either side, whose other copies may be among the bytes. Only copies not
    read count: counting every copy of the messages either side hid two cards lost at a
    wrap (`make fuzz` seed 10028298)."""
    copies = lost * COPIES + lone * (COPIES - 1) + sides * (COPIES - votes)
    room = copies * CARD_FRAME
    if unread <= room:
        return []
    hidden = (unread - room) // (COPIES * CARD_FRAME) + 1
    return [
        ShoeAlarm(
            f"seq {first} to {last}: {unread} unreadable bytes between them, "
            f"room for {hidden} more message(s) than the numbers say were lost"
        )
    ]
