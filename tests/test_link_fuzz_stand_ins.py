"""`make fuzz`'s accounting without a check of one copy each of two messages sent in a row,
each damaged once, reading alike under one number (bench/fuzz_forged.py, `stand_ins`):
the bytes are those of a shoe that sent that card under that number, so the message sent
there is lost undetectably (issue 11, seed 30028282)."""

from __future__ import annotations

from collections import Counter

from bench import fuzz_forged
from bench.fuzz_align import Tally
from bench.fuzz_forged import received_frames
from bench.fuzz_inputs import Span, Stream
from bench.fuzz_links import run_input
from croupier.cards import Card
from drivers import angel
from drivers.checks import crc16_ccitt
from drivers.messages import CardRead, Lost, Message
from tests.angel_accounts import accounted, delivered

NAMES = ("9S", "3C", "AC", "8C", "QS")
SENT = Stream([CardRead(Card.parse(c)) for c in NAMES], list(range(135, 140)), frozenset(),
              108, 139)


def frame(seq: int, card: str) -> bytes:
    return angel.encode_frame(seq, angel.message_data(CardRead(Card.parse(card))), crc16_ccitt)


def _received(three_c: list[tuple[int, str]]) -> tuple[bytes, list[Span]]:
    """9S's and QS's copies intact, between them 3C's (`three_c`, as read) and one of AC's,
    its number 137 read as 136; the rest lost (as seed 30028282 received them, its 3C's
    copy read as AC under 136)."""
    parts: list[tuple[bytes, int]] = [(frame(135, "9S"), 0)] * 3
    parts += [(frame(seq, card), 3) for seq, card in three_c]
    parts += [(frame(136, "AC"), 6), *[(frame(139, "QS"), 12)] * 3]
    spans = [Span(sum(len(p) for p, _ in parts[:at]), index) for at, (_, index) in enumerate(parts)]
    return b"".join(p for p, _ in parts), spans


def _delivered(data: bytes) -> list[Message]:
    return delivered(data, "none")


def _accounted(data: bytes, spans: list[Span]) -> Counter[str]:
    return accounted(SENT, data, spans, "none")


def test_the_bytes_are_what_a_shoe_that_sent_the_card_under_that_number_sends() -> None:
    """AC read twice under 136: the decoder delivers AC there and says 137 and 138 lost,
    exactly right for a shoe that sent AC under 136."""
    data, _ = _received([(136, "AC")])
    assert _delivered(data) == [
        CardRead(Card.parse("9S")), CardRead(Card.parse("AC")),
        Lost(2, "seq 137..138 never arrived"), CardRead(Card.parse("QS")),
    ]


def test_two_copies_of_two_messages_reading_alike_under_one_number_are_counted_apart() -> None:
    data, spans = _received([(136, "AC")])
    assert received_frames(SENT, data, checked=False, spans=spans).stand_ins == {
        1: CardRead(Card.parse("AC"))
    }
    counts = _accounted(data, spans)
    assert counts["SILENT LOSS"] == 0
    assert (counts[fuzz_forged.LOST], counts[fuzz_forged.INVENTED]) == (1, 1)
    assert (counts["reported missing"], counts["delivered"]) == (2, 2)
    assert counts["lost over-reported"] == 0


def test_a_copy_of_the_message_sent_reading_otherwise_is_a_dispute_a_receiver_sees() -> None:
    """3C's other copy, intact under 136: the copies under 136 dispute AC, so no shoe
    sending AC there explains the bytes: nothing is counted apart."""
    data, spans = _received([(136, "AC"), (136, "3C")])
    assert received_frames(SENT, data, checked=False, spans=spans).stand_ins == {}
    assert _accounted(data, spans)[fuzz_forged.LOST] == 0


def test_seed_30028282_loses_nothing_silently() -> None:
    tally = Tally()
    run_input("angel-none", 30028282, tally)
    assert tally.counts["SILENT LOSS"] == 0
    assert (tally.counts[fuzz_forged.LOST], tally.counts[fuzz_forged.INVENTED]) == (1, 1)


def test_a_cards_two_copies_damaged_alike_stand_for_what_they_read_as() -> None:
    """QD's two copies read as QS under 191, the QS sent under 192 read as KS and as QS face
    up, 9S under 193 lost whole (as seed 50078453 received them): the QS delivered was
    paired with the QS sent, and QD counted lost silently. The bytes are those of a shoe
    that sent QS under 191: QD is lost undetectably, the QS delivered as good as sent."""
    sent = Stream([CardRead(Card.parse(c)) for c in ("8D", "QD", "QS", "9S", "8S")],
                  list(range(190, 195)), frozenset(), 168, 255)
    queen_up = angel.encode_frame(
        192, angel.message_data(CardRead(Card.parse("QS"), face_up=True)), crc16_ccitt
    )
    parts = [(frame(190, "8D"), 0)] * 3 + [(frame(191, "QS"), 3)] * 2
    parts += [(frame(192, "KS"), 6), (queen_up, 7), *[(frame(194, "8S"), 12)] * 3]
    spans = [Span(sum(len(p) for p, _ in parts[:at]), index) for at, (_, index) in enumerate(parts)]
    data = b"".join(p for p, _ in parts)
    found = received_frames(sent, data, checked=False, spans=spans)
    assert found.stand_ins == {1: CardRead(Card.parse("QS"))}
    counts = accounted(sent, data, spans, "none")
    assert counts["SILENT LOSS"] == 0
    assert (counts[fuzz_forged.LOST], counts[fuzz_forged.INVENTED]) == (1, 1)


def test_seed_50078453_loses_nothing_silently() -> None:
    tally = Tally()
    run_input("angel-none", 50078453, tally)
    assert tally.counts["SILENT LOSS"] == 0
    assert (tally.counts[fuzz_forged.LOST], tally.counts[fuzz_forged.INVENTED]) == (1, 1)
