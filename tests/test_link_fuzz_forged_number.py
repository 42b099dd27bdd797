"""`make fuzz`'s accounting of a frame whose number alone was damaged, its verified check
still passing (bench/fuzz_forged.py): as good as sent, counted apart (issue 11, seed
10720612)."""

from __future__ import annotations

from collections import Counter

from bench import fuzz_forged
from bench.fuzz_align import Tally
from bench.fuzz_forged import received_frames
from bench.fuzz_inputs import Span, Stream, angel_frames
from bench.fuzz_links import run_input
from croupier.cards import Card
from drivers.messages import CardRead, Lost, Message
from tests.angel_accounts import accounted, delivered

FIVE, QUEEN, KING = (CardRead(Card.parse(c)) for c in ("5H", "QD", "KS"))
SENT = Stream([FIVE, QUEEN, KING], [186, 187, 188], frozenset(), 184, 215)
# QD's first copy as seed 10720612 received it: its number 187 (bb) flipped to 155 (9b),
# its first check byte (7c) lost; the ENQ of the copy after it completes a check that
# passes, so that copy, its ENQ gone, is lost
MISNUMBERED = bytes.fromhex("059b44301c034b")


def _received() -> tuple[bytes, list[Span]]:
    frames = angel_frames(SENT)
    parts = [*frames[:3], MISNUMBERED, *frames[4:]]
    spans = [Span(sum(map(len, parts[:index])), index) for index in range(len(parts))]
    return b"".join(parts), spans


def _delivered(data: bytes) -> list[Message]:
    return delivered(data, "crc16-ccitt")


def _accounted(data: bytes, spans: list[Span]) -> Counter[str]:
    return accounted(SENT, data, spans, "crc16-ccitt")


def test_the_bytes_are_what_a_shoe_restarted_at_the_damaged_number_sends() -> None:
    """The frame under 155 passes the check: the decoder delivers what a shoe whose count
    restarted at 155, then lost 156..186 whole and dealt QD again, sent, and says the loss."""
    data, _ = _received()
    got = _delivered(data)
    assert [m for m in got if isinstance(m, CardRead)] == [FIVE, QUEEN, QUEEN, KING]
    assert Lost(31, "seq 156..186 never arrived") in got


def test_a_frame_misnumbered_that_passes_the_check_is_counted_apart() -> None:
    data, spans = _received()
    counts = _accounted(data, spans)
    assert counts["INVENTED"] == 0
    assert counts[fuzz_forged.INVENTED] == 1
    assert (counts["SILENT LOSS"], counts["delivered"]) == (0, 3)


def test_a_copy_misnumbered_without_a_check_is_not_taken_as_sent() -> None:
    """Without a check the number is not verified: a copy under another number is the
    decoder's to weigh, not a frame as good as sent."""
    data, spans = _received()
    assert received_frames(SENT, data, checked=False, spans=spans).forged == {}


def test_seed_10720612_invents_no_card() -> None:
    tally = Tally()
    run_input("angel-check", 10720612, tally)
    assert (tally.counts["INVENTED"], tally.counts[fuzz_forged.INVENTED]) == (0, 1)
