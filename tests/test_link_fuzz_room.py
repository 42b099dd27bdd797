"""`make fuzz`'s accounting of an unreadable-bytes alarm (`room for N more message(s)`) said
after misreads, at the next message believed (bench/fuzz_align.py): it gives the least
lost since the last message believed, before the misreads too (issue 11, seed 50044571)."""

from __future__ import annotations

from bench.fuzz_align import ROOM, Tally, align
from bench.fuzz_inputs import Stream
from bench.fuzz_links import run_input
from croupier.cards import Card
from drivers.messages import CardRead, Message, Misread, ShoeAlarm

CARDS: list[Message] = [CardRead(Card.parse(c)) for c in ("8S", "5S", "7H", "AC", "2D")]
SENT = Stream(CARDS, [30, 31, 32, 33, 34], frozenset(), 0, 255)
ROOM_ALARM = ShoeAlarm(
    "seq 33 to 34: 83 unreadable bytes between them, room for 1 more message(s) than the "
    "numbers say were lost"
)


def test_an_unreadable_bytes_alarm_after_a_misread_gives_the_least_lost_before_it() -> None:
    """8S believed, 5S and 7H lost whole, AC's lone copy a misread, then 2D believed and the
    alarm that the bytes between had room for one more message: one loss is said, the
    other lost beyond the least the alarm gave, as when said before the misread."""
    for got in (
        [CARDS[0], Misread(Card.parse("AC")), ROOM_ALARM, CARDS[4]],
        [CARDS[0], ROOM_ALARM, Misread(Card.parse("AC")), CARDS[4]],
    ):
        tally = Tally()
        align(SENT, got, tally, 1, capture=True, tail=True, bee_alarms=False)
        assert tally.counts["SILENT LOSS"] == 0
        assert tally.counts[ROOM] == 1


def test_seed_50044571_loses_nothing_silently() -> None:
    tally = Tally()
    run_input("angel-none", 50044571, tally)
    assert (tally.counts["SILENT LOSS"], tally.counts[ROOM]) == (0, 1)
