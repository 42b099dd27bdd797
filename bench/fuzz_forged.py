"""Frames that a bad line forged: damaged copies as good as sent. With the check verified,
one damaged frame whose 16-bit check still passes (about one in 65,536); without it, two
copies damaged alike (the votes a message needs). No receiver can tell them from what the
shoe sent, so `make fuzz` counts what they deliver, and the loss they hide, apart — only
when the delivered message is exactly what such frames in the bytes received read as."""

from __future__ import annotations

from collections import Counter

from bench.fuzz_inputs import Stream
from drivers import angel
from drivers.checks import crc16_ccitt
from drivers.messages import Garbage, Message

INVENTED = "invented, undetectable: damaged copies as good as sent"
LOST = "lost, undetectable: its number taken by damaged copies as good as sent"


def forged_frames(stream: Stream, received: bytes, *, checked: bool) -> dict[Message, set[int]]:
    """What the frames in `received` that were never sent read as, when as many of them
    agree as a message needs (`checked`: one, its check passing; else two alike), with the
    numbers they came under."""
    sent = {
        (seq, angel.message_data(message))
        for message, seq in zip(stream.messages, stream.seqs, strict=True)
    }
    framer = angel.AngelFramer(crc16_ccitt if checked else None)
    read = Counter(item for item in framer.feed(received) + framer.finish())
    found: dict[Message, set[int]] = {}
    for item, copies in read.items():
        if not isinstance(item, Garbage) and item not in sent and copies >= (1 if checked else 2):
            seq, data = item
            found.setdefault(angel.data_message(data), set()).add(seq)
    return found
