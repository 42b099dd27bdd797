"""What the frames in the bytes a decoder received read as, for `make fuzz`'s accounting.

Frames that a bad line forged are damaged copies as good as sent. With the check verified,
one damaged frame whose 16-bit check still passes (about one in 65,536); without it, two
copies damaged alike (the votes a message needs). No receiver can tell them from what the
shoe sent, so `make fuzz` counts what they deliver (a card, or an alarm: a card's command
byte damaged alike in two copies reads as an alarm, counted apart only when no copy of
the card under that number arrived), and the loss they hide, apart — only
when the delivered message is exactly what such frames in the bytes received read as
(frames read as the decoder reads them: two copies that differ only in the intention byte,
which is ignored on receipt, are alike).

Every frame's number and reading also tell which message sent a misread delivered stands
for, where its reading alone cannot (a failed read, or a damaged card's guess)."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from bench.fuzz_inputs import Stream
from drivers import angel
from drivers.angel_link import as_sent
from drivers.checks import crc16_ccitt
from drivers.messages import CardRead, Garbage, Message, ShoeAlarm

INVENTED = "invented, undetectable: damaged copies as good as sent"
ALARM = "alarm, undetectable: damaged copies as good as sent"
LOST = "lost, undetectable: its number taken by damaged copies as good as sent"


@dataclass(frozen=True, slots=True)
class Received:
    """`forged`: what the frames never sent read as, when as many of them agree as a
    message needs, with the numbers they came under; `readings`: what the frames under
    each number read as."""

    forged: dict[Message, set[int]]
    readings: dict[int, set[Message]]


def received_frames(stream: Stream, received: bytes, *, checked: bool) -> Received:
    """The frames in `received` (`checked`: a forged one needs its check to pass; else
    two alike)."""
    sent = {
        (seq, angel.message_data(message))
        for message, seq in zip(stream.messages, stream.seqs, strict=True)
    }
    framer = angel.AngelFramer(crc16_ccitt if checked else None)
    # as the decoder reads them: copies that differ only in the ignored intention byte agree
    read = Counter(
        item if isinstance(item, Garbage) else (item[0], as_sent(*item))
        for item in framer.feed(received) + framer.finish()
    )
    forged: dict[Message, set[int]] = {}
    readings: defaultdict[int, set[Message]] = defaultdict(set)
    for item, copies in read.items():
        if isinstance(item, Garbage):
            continue
        seq, data = item
        readings[seq].add(angel.data_message(data))
        if item not in sent and copies >= (1 if checked else 2):
            forged.setdefault(angel.data_message(data), set()).add(seq)
    # An alarm forged out of a card's copies is as good as sent only when no copy under its
    # number still reads as a card: one that does shows the receiver a dispute it could
    # have raised, so the card it outvoted stays a silent loss.
    for message, seqs in list(forged.items()):
        if isinstance(message, ShoeAlarm):
            seqs -= {seq for seq in seqs if any(isinstance(m, CardRead) for m in readings[seq])}
            if not seqs:
                del forged[message]
    return Received(forged, dict(readings))
