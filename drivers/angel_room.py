"""Angel's unreadable bytes (PROTOCOL.md §6): a whole turn of the count lost, or a restart
landing where the count would have been, leaves the numbers in step; only the bytes no
frame could be read from show that messages were there."""

from __future__ import annotations

from typing import Final

from drivers.angel import COPIES
from drivers.messages import Message, ShoeAlarm

CARD_FRAME: Final = 8  # ENQ SEQ D INTENTION CARD ETX CHK CHK: the shortest message a shoe deals


def room_alarm(
    first: int, last: int, unread: int, *, lost: int, lone: int, sides: list[bytes], votes: int
) -> list[Message]:
    """An alarm when `unread` bytes, read between the messages numbered `first` and `last`,
    have room for more messages than are known: `lost` ones reported, `lone` ones delivered
    on copies that did not agree (one copy of each read), and the messages believed on
    `votes` copies either side (their data: `sides`), whose other copies may be among the
    bytes. Without a check only the copies not read count: counting every copy of the
    messages either side hid two cards lost at a wrap (`make fuzz` seed 10028298). With a
    verified check (one vote) nothing is lost unsaid that way, and counting only the copies
    not read raised the losses over-reported nearly fivefold: every copy counts, as a card's."""
    if votes == 1:
        room = (lost + lone + len(sides)) * COPIES * CARD_FRAME
    else:
        room = (lost * COPIES + lone * (COPIES - 1)) * CARD_FRAME
        # an alarm's copies are longer than a card's: ENQ SEQ DATA ETX CHK CHK
        room += sum((COPIES - votes) * max(CARD_FRAME, len(data) + 5) for data in sides)
    if unread <= room:
        return []
    hidden = (unread - room) // (COPIES * CARD_FRAME) + 1
    return [
        ShoeAlarm(
            f"seq {first} to {last}: {unread} unreadable bytes between them, "
            f"room for {hidden} more message(s) than the numbers say were lost"
        )
    ]
