"""Angel without a check: two lone copies under numbers in a row that one message's copies,
each damaged once, could be (`make fuzz` angel-none, seeds 10,000,000 on), rebuilt from
real frames."""

from __future__ import annotations

from croupier.cards import Card
from drivers import angel
from drivers.checks import crc16_ccitt
from drivers.messages import CardRead, Misread, ShoeAlarm
from tests.test_angel_link_copies import copies, guessed
from tests.test_drivers_dialect_rules import angel_decode, bit_apart_alarm


def test_two_lone_cards_a_bit_apart_under_numbers_in_a_row_raise_an_alarm() -> None:
    """KS under 115, then 9D's copies: one read as 9S (a bit of its card byte), one under
    117 (a bit of its number), the third lost; the alarm under 117 lost whole, then TS under
    118 (seed 10154098). Read as two messages, 9S and 9D took 116 and 117 and the alarm's
    loss went unsaid. Both are delivered, and an alarm says the numbers cannot show what was
    lost after them (two cards each read once, and nothing lost, fit as well). A failed read
    more than one damage from the card, or cards further apart, raise nothing."""
    data = copies(115, "KS", 3) + copies(116, "9S") + copies(117, "9D") + copies(118, "TS", 3)
    got = angel_decode(data, "none")
    assert got == [
        CardRead(Card.parse("KS")), *guessed("9S", "9D"),
        ShoeAlarm("seq 116 to 117: a number misread in one of two cards a bit apart, read once "
                  "each: messages may have been lost there that the numbers cannot show"),
        CardRead(Card.parse("TS")),
    ]
    assert bit_apart_alarm(got[3])
    for other in (copies(117, "9D", card_byte=0x70), copies(117, "3D")):
        data = copies(115, "KS", 3) + copies(116, "9S") + other + copies(118, "TS", 3)
        got = angel_decode(data, "none")
        assert got[0] == CardRead(Card.parse("KS"))
        assert all(isinstance(m, Misread) for m in got[1:3])
        assert got[3:] == [CardRead(Card.parse("TS"))]


def test_a_lone_failed_read_one_damage_from_the_lone_card_beside_it_raises_the_alarm() -> None:
    """TH under 49, then KH's copies: one read as a failed read under 50 (its command byte
    doubled, so its card byte is the intention byte), one as KH under 51, the third lost;
    6C sent under 51 lost whole, then 5S under 52 (seed 50158581, its copies parted by quiet
    spells): read as two messages, they took 50 and 51 and 6C's loss went unsaid. Either
    way round, as for two cards a bit apart, an alarm says the numbers cannot show what was
    lost there; so for a failed read whose card byte is a bit from the card's."""
    for failed_seq, card_seq in ((50, 51), (51, 50)):
        doubled = angel.encode_frame(failed_seq, b"DD0", crc16_ccitt)
        lone = sorted([(failed_seq, doubled), (card_seq, copies(card_seq, "KH"))])
        data = copies(49, "TH", 3) + b"".join(f for _, f in lone) + copies(52, "5S", 3)
        got = angel_decode(data, "none")
        assert got[0] == CardRead(Card.parse("TH"))
        assert bit_apart_alarm(got[3])
        assert sorted(map(str, got[1:3])) == sorted(map(str, [Misread(), *guessed("KH")]))
        assert got[4:] == [CardRead(Card.parse("5S"))]
    flipped = copies(50, "KH", card_byte=0x4D ^ 0x20)  # no suit: a failed read
    data = copies(49, "TH", 3) + flipped + copies(51, "KH") + copies(52, "5S", 3)
    assert bit_apart_alarm(angel_decode(data, "none")[3])
    # a failed read more than one damage from the card: two messages, as likely as not
    far = copies(50, "KH", card_byte=0x70)
    data = copies(49, "TH", 3) + far + copies(51, "KH") + copies(52, "5S", 3)
    assert angel_decode(data, "none")[1:] == [Misread(), *guessed("KH"), CardRead(Card.parse("5S"))]
