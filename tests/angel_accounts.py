"""What an angel decoder delivers from received bytes, and how `make fuzz` accounts for it
against what was sent: for the tests of the harness's re-accountings (bench/fuzz_forged.py)."""

from __future__ import annotations

from collections import Counter

from bench.fuzz_align import Tally, align
from bench.fuzz_forged import received_frames
from bench.fuzz_inputs import Span, Stream
from drivers.angel_link import AngelDecoder
from drivers.messages import Message


def delivered(data: bytes, check: str) -> list[Message]:
    """What a decoder of angel frames checked by `check` ("none" or a CRC's name) delivers
    from `data`, the line then closed."""
    decoder = AngelDecoder(check=check)
    return decoder.feed(data, 0.0) + decoder.finish()


def accounted(sent: Stream, data: bytes, spans: list[Span], check: str) -> Counter[str]:
    """`make fuzz`'s tally of `data` (a capture, its frames at `spans`) against `sent`."""
    tally = Tally()
    found = received_frames(sent, data, checked=check != "none", spans=spans)
    align(sent, delivered(data, check), tally, 1, capture=True, tail=True, bee_alarms=False,
          received=found)
    return tally.counts
