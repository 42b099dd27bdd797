"""Angel without a check: copies that disagree, in their data or their numbers, never make
a message vanish unsaid (cases found by `make fuzz`, rebuilt from real frames)."""

from __future__ import annotations

from croupier.cards import Card
from drivers import angel
from drivers.checks import crc16_ccitt
from drivers.messages import CardRead, Lost, Message, Misread, ShoeAlarm
from tests.test_drivers_dialect_rules import angel_decode


def copies(seq: int, card: str, count: int = 1, *, card_byte: int | None = None) -> bytes:
    """`count` copies of a card under `seq`; `card_byte` in place of the card's (damaged)."""
    data = angel.message_data(CardRead(Card.parse(card)))
    if card_byte is not None:
        data = data[:-1] + bytes((card_byte,))
    return angel.encode_frame(seq, data, crc16_ccitt) * count


def guessed(*cards: str) -> list[Message]:
    return [Misread(guess=Card.parse(card)) for card in cards]


def test_of_two_lone_copies_one_read_as_no_card_the_card_is_the_guess() -> None:
    """5C's card byte damaged in its first copy (suit bits cleared): the copy read as a card
    gives the guess, else the misread names no card and cannot be matched to the 5C dealt."""
    data = copies(47, "QH", 3) + copies(48, "5C", card_byte=0x05) + copies(48, "5C")
    data += copies(49, "4S", 3)
    assert angel_decode(data, "none") == [
        CardRead(Card.parse("QH")),
        *guessed("5C"),
        CardRead(Card.parse("4S")),
    ]


def test_a_copy_under_another_number_reading_otherwise_is_a_message_of_its_own() -> None:
    """4H's copy misnumbered 71, then JD (70) and 2H (71) each alone: JD and 2H are not
    copies of 4H, which used to swallow them both."""
    data = copies(71, "4H") + copies(70, "JD") + copies(71, "2H") + copies(72, "TS", 2)
    assert angel_decode(data, "none") == [*guessed("4H", "JD", "2H"), CardRead(Card.parse("TS"))]


def test_of_the_numbers_a_lone_message_was_read_under_the_ones_in_the_run_count() -> None:
    """The first two messages each read under two numbers (169 and 41, 58 and 42), then 44
    believed: 41, 42, 44 is the run, so 43 is lost, which the first numbers read hid."""
    data = copies(169, "7S") + copies(41, "7S") + copies(58, "8D") + copies(42, "8D")
    data += copies(44, "JS", 2)
    assert angel_decode(data, "none") == [
        *guessed("7S", "8D"),
        Lost(1, "1 of seq 41..44 never arrived, by the numbers read"),
        CardRead(Card.parse("JS")),
    ]


def test_a_misread_number_beside_a_step_back_raises_an_alarm() -> None:
    """Lone copies 20, 21, then 23 read as 90 (22 lost), then the count back at 3: where it
    went back, and what was lost before, the numbers cannot tell: an alarm says so."""
    lone = [(20, "7S"), (21, "8D"), (90, "9D"), (3, "TD"), (4, "JD")]
    data = b"".join(copies(seq, card) for seq, card in lone) + copies(5, "QD", 3)
    got = angel_decode(data, "none")
    assert got[:5] == guessed(*(card for _, card in lone))
    assert got[6:] == [CardRead(Card.parse("QD"))]
    assert isinstance(got[5], ShoeAlarm)
    assert got[5].text.startswith("seq 20 to 5: a number misread beside a step back")


def test_copies_whose_sequence_byte_came_twice_do_not_outvote_the_card() -> None:
    """9C under 80, which is "P": two of its copies with that byte doubled read as a status
    "standby D0)" and agreed, so the card vanished behind a status."""
    good = copies(80, "9C")
    doubled = good[:2] + good[1:]
    data = copies(79, "3H", 3) + doubled + good + doubled + copies(81, "3S", 3)
    assert angel_decode(data, "none") == [CardRead(Card.parse(c)) for c in ("3H", "9C", "3S")]


def test_copies_differing_only_in_the_ignored_intention_byte_are_one_message() -> None:
    """9S under 220, its second copy's intention byte damaged yet passing the check (seed
    10221778): read as a second message, 9S was delivered twice, with a false alarm that
    the count went back."""
    nine = angel.message_data(CardRead(Card.parse("9S")))
    damaged = nine[:1] + b"\x20" + nine[2:]
    data = copies(219, "7H", 3) + b"".join(
        angel.encode_frame(220, body, crc16_ccitt) for body in (nine, damaged)
    )
    data += copies(221, "7S", 3)
    assert angel_decode(data) == [CardRead(Card.parse(c)) for c in ("7H", "9S", "7S")]


def test_the_first_message_read_under_two_numbers_takes_the_one_that_shows_a_loss() -> None:
    """A capture opens on 4D's two copies, read under 139 then 138, then 2S under 140 (seed
    7412): 139 and 138 both lead on to 140, and nothing before tells which is 4D's; taking
    139, the first read, hid that 139 (QH) never arrived."""
    data = copies(139, "4D") + copies(138, "4D") + copies(140, "2S", 3)
    assert angel_decode(data, "none") == [
        *guessed("4D"),
        Lost(1, "1 of seq 138..140 never arrived, by the numbers read"),
        CardRead(Card.parse("2S")),
    ]


def test_a_number_read_only_on_a_message_not_confirmed_shows_a_loss_at_a_later_wrap() -> None:
    """A count of 79..88 (seed 3694): 87 and 88 read on lone copies, then 79..87 believed;
    88 is then lost whole. The highest believed being 87, the step to 79 looked like the
    wrap, though 88 had been read, one on from 87."""
    cards = ["4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC"]
    data = copies(87, "2H") + copies(88, "QS") + copies(79, "3S", 3)
    data += b"".join(copies(80 + at, card, 3) for at, card in enumerate(cards))
    assert angel_decode(data + copies(79, "JD", 3), "none") == [
        *guessed("2H", "QS"),
        *(CardRead(Card.parse(card)) for card in ["3S", *cards]),
        Lost(1, "1 of seq 87..79, read before, never arrived"),
        CardRead(Card.parse("JD")),
    ]
    # 88 read again, on a lone copy, and 79 lost: the one lost, not two
    assert angel_decode(data + copies(88, "KD") + copies(80, "JD", 3), "none")[-3:] == [
        *guessed("KD"),
        Lost(1, "1 of seq 87..80, read before, never arrived"),
        CardRead(Card.parse("JD")),
    ]
