"""`make fuzz`'s accounting of angel frames (bench/fuzz_forged.py): which message sent each
frame received is taken for, where its number alone would put it far from where it came."""

from __future__ import annotations

import pytest

from bench import fuzz_forged
from bench.fuzz_align import Tally, align
from bench.fuzz_forged import received_frames
from bench.fuzz_inputs import Stream
from croupier.cards import Card
from drivers import angel
from drivers.angel_link import AngelDecoder
from drivers.checks import crc16_ccitt
from drivers.messages import CardRead, Message, Misread

NAMES = ["9H", "TH", "7D", "4D", "QC", "8H", "6C", "AS", "9C", "3C", "4S", "8C", "TC", "7S"]
NAMES += ["JC", "6D", "JD", "5S"]
SENT = Stream([CardRead(Card.parse(n)) for n in NAMES], list(range(250, 256)) + list(range(12)),
              frozenset(), 0, 255)
FRAMES = [
    angel.encode_frame(seq, angel.message_data(message), crc16_ccitt)
    for message, seq in zip(SENT.messages, SENT.seqs, strict=True)
]
SIX_D = 15  # 6D under 9: its two copies damaged alike into 4D (one bit), the third lost
FOUR_D = angel.encode_frame(9, angel.message_data(CardRead(Card.parse("4D"))), crc16_ccitt)
# AS under 1, one copy's number damaged into 9 and its card byte into AD's: a stray frame
STRAY = angel.encode_frame(9, angel.message_data(CardRead(Card.parse("AD"))), crc16_ccitt)


def received(stray: bool) -> bytes:
    """Every message's three copies, but 6D's, whose place holds two copies of 4D; with
    `stray`, one of AS's copies (8 messages before 6D) is the stray frame."""
    out = b""
    for index, frame in enumerate(FRAMES):
        if index == SIX_D:
            out += FOUR_D * 2
        elif index == 7 and stray:
            out += STRAY + frame * 2
        else:
            out += frame * 3
    return out


def decoded(data: bytes) -> list[Message]:
    decoder = AngelDecoder(check="none")
    return decoder.feed(data, 0.0) + decoder.finish()


@pytest.mark.parametrize("stray", [False, True])
def test_a_stray_frame_far_from_a_message_under_its_number_disputes_nothing(stray: bool) -> None:
    """6D's two copies damaged alike into 4D, a card dealt before (seed 10122340; 20024933
    the same with the stray frame sixteen messages late): the bytes where 6D was sent are
    exactly those of 4D sent under 9 with a copy lost, so no receiver can tell, and the
    decoder delivers the same with or without the stray frame, which it cannot tie to 6D.
    Its number put the stray frame at 6D, as a copy reading otherwise: a dispute no
    receiver could see, which made 4D an invented card and 6D a silent loss. Frames arrive
    in the order sent: it came from none after the next message read exactly."""
    data = received(stray)
    clean = decoded(received(False))
    assert clean[SIX_D] == CardRead(Card.parse("4D"))
    stray_read = [Misread(guess=Card.parse("AD"))] if stray else []
    assert decoded(data) == [*clean[:7], *stray_read, *clean[7:]]
    found = received_frames(SENT, data, checked=False)
    assert found.forged == {CardRead(Card.parse("4D")): {9}}
    tally = Tally()
    align(SENT, decoded(data), tally, 1, capture=True, tail=True, bee_alarms=False,
          received=found)
    assert (tally.counts[fuzz_forged.INVENTED], tally.counts[fuzz_forged.LOST]) == (1, 1)
    assert (tally.counts["INVENTED"], tally.counts["SILENT LOSS"]) == (0, 0)
