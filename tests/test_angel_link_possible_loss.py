"""Angel without a check: where the bytes received fit both "nothing lost" and "a message
lost here", the loss is said (a misread, a `lost` count or an alarm), never left silent."""

from __future__ import annotations

from croupier.cards import Card
from drivers import angel
from drivers.checks import crc16_ccitt
from drivers.messages import CardRead, Lost, Message, Misread, ShoeAlarm
from tests.test_angel_link_copies import copies, guessed
from tests.test_drivers_dialect_rules import angel_decode, unconfirmed_last


def card(name: str) -> Message:
    return CardRead(Card.parse(name))


def test_an_input_ending_on_a_lone_copy_in_step_says_its_number_may_hide_a_loss() -> None:
    """TS believed under 80, then AD alone under 81, the input ending there (seed 10188182:
    AD sent under 83, its number misread 81, 81 and 82 lost whole): in step, the lone number
    still has nothing after it to check it."""
    assert angel_decode(copies(80, "TS", 3) + copies(81, "AD"), "none") == [
        card("TS"), *guessed("AD"), unconfirmed_last(80, 81),
    ]


def test_a_copy_two_bits_from_the_card_through_another_card_disputes_it() -> None:
    """8C under 33, two copies damaged alike into 9C (one bit), the third into no card
    (0x08), two bits from 9C and one from 8C (seed 20014297): 8C's three copies each damaged
    once fit as well as 9C's copy damaged twice, so 9C is not believed; so with the third
    read as TC (0x2A, two bits from 9C through 8C and JC: seed 10027772's shape), said
    beside it as a card outvoted, under 9C's number alone (one of them misnumbered, as far
    as the numbers tell: an alarm says what was lost around them cannot be shown). A failed
    read one bit from the card read disputes nothing."""
    nine = Misread(guess=Card.parse("9C"))
    outvoted = ShoeAlarm("seq 33 to 33: a number misread before, a card read only under the "
                         "number believed after it: messages may have been lost there that "
                         "the numbers cannot show")
    for byte, read in (
        (0x08, [nine]), (0x2A, [*guessed("TC"), outvoted, nine]), (0x09, [card("9C")])
    ):
        data = copies(32, "6D", 3) + copies(33, "8C", card_byte=byte) + copies(33, "9C", 2)
        assert angel_decode(data + copies(34, "QS", 3), "none") == [card("6D"), *read, card("QS")]


def test_a_card_with_a_copy_under_a_number_past_the_next_is_not_believed_there() -> None:
    """5S alone under 72, then 2C under 74 and twice under 72 (seed 10136553: 2C sent under
    74, two copies misnumbered alike, 73 lost): believed under 72, 2C hid 73's loss, said
    only after it. Its numbers are not trusted: a misread guessing it, the loss said before
    the next card believed. A copy under the next number is the next message's to show."""
    data = copies(71, "6H", 3) + copies(72, "5S") + copies(74, "2C") + copies(72, "2C", 2)
    got = angel_decode(data + copies(75, "AC", 3), "none")
    assert isinstance(got[2], ShoeAlarm)  # 5S, outvoted by 2C under 72: one misnumbered
    assert got[:2] + got[3:] == [
        card("6H"), *guessed("5S", "2C"),
        Lost(2, "2 of seq 72..74 never arrived (1 read, unnumbered)"), card("AC"),
    ]
    data = copies(71, "6H", 3) + copies(72, "5S") + copies(73, "2C") + copies(72, "2C", 2)
    assert angel_decode(data + copies(75, "AC", 3), "none")[3] == card("2C")  # after the alarm


def test_a_copy_past_the_next_number_after_a_dispute_counts_as_another_message() -> None:
    """8D and 9D under 141 (one bit apart: a dispute), then 8D under 143, then a wrap to 109
    (seed 10144950: 9D sent under 141, 142 lost whole, 8D under 143, a copy of it
    misnumbered 141). Taken for a late copy of the dispute, 8D under 143 hid 142 below the
    wrap; it is another misread, its number counted."""
    names = ["AS", "6H", "TD", "6D", "4H", "2D", "KC", "AD", "4C", "2S", "JH", "7C", "9S"]
    names += ["7D", "JD", "JC"]
    data = b"".join(copies(seq, name, 3) for seq, name in zip(range(125, 141), names, strict=True))
    data += copies(141, "8D") + copies(141, "9D") + copies(143, "8D")
    got = angel_decode(data + copies(109, "5C", 3) + copies(110, "2H", 3), "none")
    assert got[16:] == [
        *guessed("8D", "8D"), Lost(3, "3 of seq 140..109 never arrived, by the numbers read"),
        card("5C"), card("2H"),
    ]


def test_a_number_read_among_those_just_said_lost_says_the_loss_may_lie_after() -> None:
    """3D under 177, a failed read under 178, TD's two copies under 183, then a lone copy
    under 181 (seed 20011062: TD sent under 179, its copies misnumbered alike, 180 and 182
    lost after it): 179..182 were said lost before TD, but a number among them read after it
    shows that either was misread, so the loss said may lie after TD, where no count shows
    it."""
    failed = angel.encode_frame(178, angel.message_data(Misread()), crc16_ccitt)
    data = copies(177, "3D", 3) + failed + copies(183, "TD", 2) + copies(181, "6H")
    got = angel_decode(data + copies(185, "KH", 3), "none")
    assert got[5:] == [
        Lost(1, "seq 184 never arrived"),
        ShoeAlarm("seq 183 to 185: a number misread after a number believed, among those said "
                  "lost before it: messages may have been lost there that the numbers cannot "
                  "show"),
        card("KH"),
    ]
    # the next number after it, outside what its step said lost, shows nothing of the kind
    data = copies(177, "3D", 3) + copies(180, "QC", 3) + copies(181, "6H") + copies(182, "KH", 3)
    assert not any(isinstance(m, ShoeAlarm) for m in angel_decode(data, "none"))


def test_a_number_read_ahead_of_the_next_believed_on_two_copies_says_the_loss_may_hide() -> None:
    """Lone copies under 51, 52 and 54, then 9H's two copies under 53 (seed 20014195: 9H
    sent under 55, its copies misnumbered alike, 53 lost whole): 54 read before 53 shows
    that either was misread; the count, taking 54 for the misread one, saw nothing lost.
    Believed on three copies, 53 is not in doubt."""
    data = copies(50, "TC", 2) + copies(51, "QD") + copies(52, "KH") + copies(54, "5S")
    assert angel_decode(data + copies(53, "9H", 2), "none")[4:] == [
        ShoeAlarm("seq 50 to 53: a number misread ahead of the next believed on two copies: "
                  "messages may have been lost there that the numbers cannot show"),
        card("9H"),
    ]
    three = angel_decode(data + copies(53, "9H", 3), "none")
    assert not any(isinstance(m, ShoeAlarm) for m in three)


def test_a_card_on_two_copies_beside_the_message_before_s_copy_is_a_misread() -> None:
    """TS believed under 212, then under 213 a copy of TS and two of 7S (seed 20001947: 5S
    sent under 213, two copies damaged alike into 7S, its third lost, and TS's copy
    misnumbered 213): the copy reading as the message before took the place of the card's
    own third copy, so 7S rests on two copies, which two damaged alike make."""
    ten = copies(212, "TS", card_byte=0xBA)
    data = copies(211, "QH", 3) + ten * 2 + copies(213, "TS", card_byte=0xBA) + copies(213, "7S", 2)
    got = angel_decode(data + copies(214, "JD", 3), "none")
    assert got[2:] == [*guessed("7S"), card("JD")]


def test_the_count_s_first_wrap_landing_on_numbers_not_confirmed_says_a_loss_may_hide() -> None:
    """6C believed under 47, the count's range not yet learned, then a failed read alone
    under 33, 8S alone under 34 and 5S believed under 35 (seed 10046422: the failed read
    sent under 32, its number misread 33, TD under 33 lost whole): the lowest number is
    read only on copies not confirmed, one of which may be misread, so the wrap may have
    landed lower and what was lost there the numbers cannot show. Landing on a number
    believed, or once a wrap is known, the numbers show it."""
    failed = angel.encode_frame(33, angel.message_data(Misread()), crc16_ccitt)
    start = copies(45, "AS", 3) + copies(46, "2D", 3) + copies(47, "6C", 3)
    got = angel_decode(start + failed + copies(34, "8S") + copies(35, "5S", 3), "none")
    assert got[3:] == [
        Misread(), *guessed("8S"),
        ShoeAlarm("seq 47 to 35: a number misread at the count's first wrap, the lowest read "
                  "only on messages not confirmed: messages may have been lost there that the "
                  "numbers cannot show"),
        card("5S"),
    ]
    believed = start + copies(33, "TD", 3) + copies(34, "8S") + copies(35, "5S", 3)
    assert not any(isinstance(m, ShoeAlarm) for m in angel_decode(believed, "none"))
    known = start + copies(32, "TD", 3) + copies(33, "KS", 3) + copies(47, "QD", 3)
    got = angel_decode(known + failed + copies(34, "8S") + copies(35, "5S", 3), "none")
    assert not any(isinstance(m, ShoeAlarm) for m in got)
