"""`make fuzz`'s pairing of what was delivered with what was sent (bench/fuzz_pairs.py),
where the frames received tell: a garbled alarm stands for the alarm whose frames read as
it."""

from __future__ import annotations

from bench import fuzz_forged
from bench.fuzz_align import Tally, align
from bench.fuzz_inputs import Stream
from croupier.cards import Card
from drivers import angel
from drivers.angel_link import AngelDecoder
from drivers.checks import crc16_ccitt
from drivers.messages import CardRead, Lost, Misread, ShoeAlarm


def frame(seq: int, data: bytes, count: int = 1) -> bytes:
    return angel.encode_frame(seq, data, crc16_ccitt) * count


def test_a_garbled_alarm_stands_for_the_alarm_whose_frames_read_as_it() -> None:
    """6D, alarms 'E9 SHOE 27' and 'E2 SHOE 28', 9H under 166..169 (seed 10047394): the
    first alarm's copies garbled two ways (the decoder says a card may be missing), the
    second's two alike into 'EE2 SHOE 28', delivered. It is the second's delivery, and the
    first is the one the decoder's alarm covers; paired with the first by the order alone,
    the second was a loss reported one message ahead. Where the frames under both numbers
    read as it, the order decides, as before."""
    six, nine = CardRead(Card.parse("6D")), CardRead(Card.parse("9H"))
    sent = Stream([six, ShoeAlarm("E9 SHOE 27"), ShoeAlarm("E2 SHOE 28"), nine],
                  [166, 167, 168, 169], frozenset(), 0, 179)
    garbled = angel.message_data(ShoeAlarm("EE2 SHOE 28"))
    first = frame(166, angel.message_data(six), 3)
    first += frame(167, angel.message_data(ShoeAlarm("E9 SHOE2?")))
    last = frame(168, garbled, 2) + frame(169, angel.message_data(nine), 3)
    decoder = AngelDecoder(check="none")
    got = decoder.feed(first + frame(167, angel.message_data(ShoeAlarm("E9 SHOE 277"))) + last,
                       0.0) + decoder.finish()
    assert got[2] == ShoeAlarm("EE2 SHOE 28")
    for second, ahead in ((ShoeAlarm("E9 SHOE 277"), 0), (ShoeAlarm("EE2 SHOE 28"), 1)):
        received = first + frame(167, angel.message_data(second)) + last
        tally = Tally()
        found = fuzz_forged.received_frames(sent, received, checked=False)
        align(sent, got, tally, 1, capture=False, tail=False, bee_alarms=False, received=found)
        counts = tally.counts
        assert (counts["reported missing"], counts["lost, reported one message ahead"]) == (
            1 - ahead, ahead
        )


def test_a_misread_stands_for_the_message_whose_frames_read_as_it_not_one_lost_whole() -> None:
    """8C, 5D, 3H, AD, JD under 32..36 (seed 10105988): 5D lost whole, AD's copy read as 5D
    under 35. The decoder says 33 lost and delivers 3H and AD's misread guessing 5D. Paired
    with 5D, whose guess it names though no frame of 5D arrived, the misread left AD
    missing after the loss said: a silent loss that was none. It stands for AD."""
    names = ["8C", "5D", "3H", "AD", "JD"]
    sent = Stream([CardRead(Card.parse(n)) for n in names], [32, 33, 34, 35, 36],
                  frozenset(), 0, 255)

    def card(seq: int, name: str, count: int = 1) -> bytes:
        return frame(seq, angel.message_data(CardRead(Card.parse(name))), count)

    received = card(32, "8C", 2) + card(34, "8C") + card(34, "3H", 2) + card(35, "5D")
    received += card(35, "AD") + card(36, "JD", 3)
    decoder = AngelDecoder(check="none")
    got = decoder.feed(received, 0.0) + decoder.finish()
    assert [m for m in got if not isinstance(m, Lost)] == [
        *(Misread(guess=Card.parse(n)) for n in ("8C", "3H", "5D")), CardRead(Card.parse("JD"))
    ]
    tally = Tally()
    found = fuzz_forged.received_frames(sent, received, checked=False)
    align(sent, got, tally, 1, capture=False, tail=False, bee_alarms=False, received=found)
    assert (tally.counts["SILENT LOSS"], tally.counts["reported missing"]) == (0, 1)
