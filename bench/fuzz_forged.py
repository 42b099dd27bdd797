"""Frames that a bad line forged: damaged so that the check still passes. With a 16-bit
check, about one damaged frame in 65,536 does; no receiver can tell it from a frame the
shoe sent, so `make fuzz` counts what it delivers, and the loss it hides, apart — only
when the delivered message is exactly what such a frame in the bytes received reads as."""

from __future__ import annotations

from bench.fuzz_inputs import Stream
from drivers import angel
from drivers.checks import crc16_ccitt
from drivers.messages import Garbage, Message

INVENTED = "invented, undetectable: a damaged frame that passed the check"
LOST = "lost, undetectable: its number taken by a damaged frame that passed the check"


def forged_frames(stream: Stream, received: bytes) -> dict[Message, set[int]]:
    """What each frame in `received` that passes the check but was never sent reads as,
    with the numbers it came under."""
    sent = {
        (seq, angel.message_data(message))
        for message, seq in zip(stream.messages, stream.seqs, strict=True)
    }
    framer = angel.AngelFramer(crc16_ccitt)
    found: dict[Message, set[int]] = {}
    for item in framer.feed(received) + framer.finish():
        if not isinstance(item, Garbage) and item not in sent:
            seq, data = item
            found.setdefault(angel.data_message(data), set()).add(seq)
    return found
