"""`make fuzz`'s accounting of angel frames by where each came from, recorded as the line
damaged it (bench/fuzz_inputs.py `damage`, bench/fuzz_forged.py), and the pairing of what
was delivered with what was sent (bench/fuzz_pairs.py)."""

from __future__ import annotations

import random

import pytest

from bench.fuzz_align import Tally
from bench.fuzz_forged import received_frames
from bench.fuzz_inputs import Faults, Span, Stream, angel_frames, damage
from bench.fuzz_links import run_input
from bench.fuzz_pairs import pairs
from croupier.cards import Card
from drivers import angel
from drivers.checks import crc16_ccitt
from drivers.messages import CardRead, Message, Misread, ShoeAlarm

CARDS: list[Message] = [CardRead(Card.parse(c)) for c in ("2D", "AC", "QH")]
SENT = Stream(CARDS, [10, 11, 12], frozenset(), 0, 127)


def test_damage_records_each_copy_and_each_burst_of_noise_and_draws_the_same_bytes() -> None:
    frames = angel_frames(SENT)
    spans: list[Span] = []
    assert damage(frames, Faults(0, 0, 0, 0, 0, 0, 0), random.Random(1), [], spans) == b"".join(
        frames)
    size = len(frames[0])
    assert spans == [Span(index * size, index) for index in range(9)]
    noisy = Faults(0, 0, 0, 0, 0, 0, 1.0)  # noise before every frame
    spans = []
    data = damage(frames, noisy, random.Random(2), [], spans)
    assert data == damage(frames, noisy, random.Random(2), [])  # recording draws nothing
    assert [span.frame for span in spans] == [f for index in range(9) for f in (None, index)]


def test_a_copy_misnumbered_as_another_message_is_read_for_its_own() -> None:
    """AC's second copy came under 2D's number with its card byte unreadable: by its number
    it was taken for 2D, a dispute there that no receiver could tie to AC (issue 11, seed
    30007158); where it came from, it is AC's."""
    frames = angel_frames(SENT)
    stray = angel.encode_frame(10, bytes((ord("D"), angel.INTENTION, 0x7F)), crc16_ccitt)
    parts = [*frames[:4], stray, *frames[5:]]
    spans = [Span(sum(map(len, parts[:index])), index) for index in range(9)]
    data = b"".join(parts)
    by_number = received_frames(SENT, data, checked=False)
    assert Misread() in by_number.readings[0]
    found = received_frames(SENT, data, checked=False, spans=spans)
    assert found.readings == [{CARDS[0]}, {CARDS[1], Misread()}, {CARDS[2]}]


def test_two_misreads_delivered_crossed_both_stand_for_what_was_sent_there() -> None:
    """A failed read and the next card, each delivered as a misread, the card's guess first
    (seed 20018944): pairing in order alone left one sent message lost silently, the other
    misread invented."""
    nine = Card.parse("9C")
    sent: list[Message] = [Misread(), CardRead(nine), *CARDS]
    got: list[Message] = [Misread(nine), Misread(), *CARDS]
    read: list[set[Message]] = [{Misread()}, {CardRead(nine), Misread()}]
    read += [{card} for card in CARDS]
    assert pairs(sent, got, read) == {index: index for index in range(5)}


def test_a_card_of_which_nothing_arrived_is_not_the_one_delivered_from_another_card() -> None:
    """3H's two copies damaged alike into JH, the card sent next, of which nothing arrived
    (seed 10071909): the JH delivered came from 3H's frames, not from JH's."""
    three, jack = CardRead(Card.parse("3H")), CardRead(Card.parse("JH"))
    sent: list[Message] = [CARDS[0], three, jack, CARDS[1]]
    got: list[Message] = [CARDS[0], jack, CARDS[1]]
    read: list[set[Message]] = [{CARDS[0]}, {jack}, set(), {CARDS[1]}]
    assert pairs(sent, got, read) == {0: 0, 2: 3}


@pytest.mark.parametrize("seed", [30007158, 10071909, 20018944])
def test_inputs_once_miscounted_lose_and_invent_nothing(seed: int) -> None:
    tally = Tally()
    run_input("angel-none", seed, tally)
    wrong = ("SILENT LOSS", "INVENTED", "invented misread")
    assert {name: tally.counts[name] for name in wrong if tally.counts[name]} == {}


def test_of_alignments_equal_in_weight_the_one_pairing_more_misreads_is_kept() -> None:
    """AS's copies read as AC and as AS, two misreads; TS and 2S after it lost whole, one of
    them said lost (seed 20021220): the misread guessing AS is AS's, and the other stands
    for one of the cards lost (by weight alone, a tie, it went invented, and two cards
    were missing where one was said)."""
    ace, spades, two, jack = (CardRead(Card.parse(c)) for c in ("AS", "TS", "2S", "JC"))
    sent: list[Message] = [ace, spades, two, jack]
    got: list[Message] = [Misread(Card.parse("AC")), Misread(Card.parse("AS")), jack]
    read: list[set[Message]] = [{CardRead(Card.parse("AC")), ace}, set(), set(), {jack}]
    assert len(pairs(sent, got, read)) == 3


def test_a_failed_read_delivered_stands_for_a_card_lost_beside_an_alarm_not_the_alarm() -> None:
    """An alarm garbled (said by the link), a failed read, TC lost whole, and the failed
    read delivered twice, its third copy misnumbered into TC's number (seed 10027415): the
    second stands for TC; paired with the alarm instead, TC was lost silently."""
    alarm, ten = ShoeAlarm("E9 SHOE 3"), CardRead(Card.parse("TC"))
    sent: list[Message] = [alarm, Misread(), ten, CARDS[0]]
    got: list[Message] = [Misread(), Misread(), CARDS[0]]
    read: list[set[Message]] = [{ShoeAlarm("9 SHHOE 3")}, {Misread()}, set(), {CARDS[0]}]
    assert pairs(sent, got, read) == {0: 1, 1: 2, 2: 3}
