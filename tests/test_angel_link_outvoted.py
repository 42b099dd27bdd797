"""Angel without a check: a lone or outvoted copy is a misread with its guess, never a
silent drop, whatever it resembles (cases a reviewer built from real frames)."""

from __future__ import annotations

from croupier.cards import Card
from drivers import angel
from drivers.angel_link import AngelDecoder
from drivers.angel_quiet import JAM_AFTER
from drivers.checks import crc16_ccitt
from drivers.messages import CardRead, CutRead, Garbage, Lost, Message, Misread, ShoeAlarm
from tests.test_angel_link_copies import copies, frame, guessed
from tests.test_drivers_dialect_rules import angel_decode


def read(card: str) -> Message:
    return CardRead(Card.parse(card))


def test_a_lone_card_under_the_last_number_after_a_quiet_line_is_a_misread() -> None:
    """AH alone under 183, the line quiet half a second, then KC alone under 183 too: KC is
    no copy of AH (no one damage turns one into the other), it is a card whose number was
    misread; it used to be dropped as AH's copy, unsaid."""
    decoder = AngelDecoder(check="none")
    got = decoder.feed(copies(183, "AH"), 0.0) + decoder.idle(0.5)
    got += decoder.feed(copies(183, "KC"), 0.5) + decoder.feed(copies(184, "5S", 2), 0.502)
    got += decoder.feed(copies(185, "7C", 2), 0.504) + decoder.idle(2.0) + decoder.finish()
    assert [m for m in got if not isinstance(m, ShoeAlarm)] == [
        *guessed("AH", "KC"), read("5S"), read("7C"),
    ]
    # one bit from AH (3H), it is AH's late copy, its card byte damaged
    decoder = AngelDecoder(check="none")
    got = decoder.feed(copies(183, "AH"), 0.0) + decoder.idle(0.5)
    got += decoder.feed(copies(183, "AH", card_byte=0x43), 0.5)
    got += decoder.feed(copies(184, "5S", 2), 0.502) + decoder.finish()
    assert got == [*guessed("AH"), read("5S")]


def test_a_failed_read_does_not_join_two_cards_into_one_message() -> None:
    """AH, 3S and a failed read, one copy each under 149: the failed read could be a damaged
    copy of either card, but AH and 3S, more than a bit apart, are two messages; joined
    through it into one, 3S vanished unsaid."""
    data = copies(148, "8C", 3) + copies(149, "AH") + copies(149, "3S")
    data += copies(149, "3S", card_byte=0x70) + copies(150, "QC", 3) + copies(151, "3C", 3)
    assert angel_decode(data, "none") == [
        read("8C"), *guessed("AH", "3S"), read("QC"), read("3C"),
    ]


def test_a_card_copy_outvoted_by_copies_read_alike_as_an_alarm_is_a_misread() -> None:
    """4S under 21, its command damaged into E alike in two copies (an alarm "0" and the card
    byte), its third copy read as 4S: a card may have left the shoe, so 4S is a misread
    guessing it, beside the alarm; once the card copy was outvoted, and 4S lost unsaid. QD
    read there, under 21, the card before's number and one on: the same card dealt twice (a
    six-deck shoe deals it), not only QD's copy misnumbered, so it is a misread too."""
    four = angel.message_data(CardRead(Card.parse("4S")))
    alike = angel.encode_frame(21, b"E" + four[1:], crc16_ccitt) * 2
    opened = copies(20, "QD", 3) + alike
    alarm = ShoeAlarm("0" + chr(four[2]))
    assert angel_decode(opened + copies(21, "4S") + copies(22, "KH", 3), "none") == [
        CardRead(Card.parse("QD")), alarm, *guessed("4S"), CardRead(Card.parse("KH")),
    ]
    assert angel_decode(opened + copies(21, "QD") + copies(22, "KH", 3), "none") == [
        CardRead(Card.parse("QD")), alarm, *guessed("QD"), CardRead(Card.parse("KH")),
    ]


def test_an_alarm_s_copies_in_a_group_believed_as_a_card_are_said_before_it() -> None:
    """Alarm E6 under 56, its three copies garbled each its own way, then KH under 57, two
    of its copies misnumbered 56 (seed 10007413): KH is believed under 56, and the alarm's
    copies, texts no damage of a card's copy makes, were dropped as outvoted, unsaid. They
    are another message under that number: said, before KH, as not agreeing."""
    def alarm(text: bytes) -> bytes:
        return angel.encode_frame(56, b"E" + text, crc16_ccitt)

    data = copies(55, "8D", 3) + alarm(b"E2 SHOE 9") + alarm(b"6 SHOe 9") + alarm(b"E6 SHOE 9")
    data += copies(56, "KH") + copies(57, "KH") + copies(56, "KH") + copies(57, "QS", 3)
    assert angel_decode(data, "none")[:3] == [
        CardRead(Card.parse("8D")),
        ShoeAlarm("seq 56: a message read only as alarm 'E2 SHOE 9', its copies not agreeing: "
                  "a card may be missing"),
        CardRead(Card.parse("KH")),
    ]
    # one such copy alone is taken for a neighbour's, misnumbered
    single = copies(55, "8D", 3) + alarm(b"E2 SHOE 9") + copies(56, "KH", 3) + copies(57, "QS", 3)
    assert angel_decode(single, "none") == [CardRead(Card.parse(c)) for c in ("8D", "KH", "QS")]


def test_a_copy_outvoted_by_two_copies_misnumbered_alike_is_a_misread() -> None:
    """The cut card under 176, one copy arrived; then 5H's two copies, 178 misread alike as
    176 (seed 15327). 5H is believed under 176 and the cut card's copy, two bits from it,
    was dropped as outvoted, unsaid. A card left the shoe: it is a misread, said where it
    was read, before 5H; its number counts for nothing, and what was lost around the two
    under 176 (177, before 5H) the numbers cannot show: an alarm says so. A lone copy one bit
    from what was believed disputes it: one misread guessing 5H, not a second message."""
    cut = frame(176, CutRead())
    data = copies(173, "8C", 3) + cut + copies(176, "5H", 2) + copies(179, "2S", 3)
    assert angel_decode(data, "none") == [
        CardRead(Card.parse("8C")),
        Misread(),
        ShoeAlarm("seq 176 to 176: a number misread before, a card read only under the number "
                  "believed after it: messages may have been lost there that the numbers "
                  "cannot show"),
        Lost(2, "seq 174..175 never arrived"),
        CardRead(Card.parse("5H")),
        Lost(2, "seq 177..178 never arrived"),
        CardRead(Card.parse("2S")),
    ]
    damaged = copies(176, "5H", card_byte=0x44) + copies(176, "5H", 2)
    assert angel_decode(copies(173, "8C", 3) + damaged, "none") == [
        read("8C"), Lost(2, "seq 174..175 never arrived"), *guessed("5H"),
    ]


def test_each_message_outvoted_in_a_group_is_a_misread() -> None:
    """A count of 48..57 restarting at 48 after JH under 49 (seed 10004969): the new count's
    3D under 48 and 2C under 49, one copy each, fall among JH's copies and are outvoted.
    Each is a card that left the shoe: both are misreads, not the first alone. (2C under 49
    runs on from 3D under 48: neither is taken into JH's group, seed 30052564, and the
    numbers read, 49, 48, 49, step back where no wrap is known: the blind alarm.)"""
    data = copies(57, "JC", 3) + copies(48, "3S", 3) + copies(49, "JH", 2)
    data += copies(48, "3D") + copies(49, "2C") + copies(50, "9D", 2)
    assert angel_decode(data, "none")[2:] == [
        CardRead(Card.parse("JH")), *guessed("3D", "2C"),
        ShoeAlarm("seq 49 to 50: a number misread where the numbers read step back (or the "
                  "count wrapped there, unseen): messages may have been lost there that the "
                  "numbers cannot show"),
        CardRead(Card.parse("9D")),
    ]


def test_an_outvoted_card_equal_to_the_card_before_is_a_misread() -> None:
    """AC under 76, then under 77 two copies whose command was damaged alike into the alarm
    E0! and one good AC: the same card twice in a row is legal in a six-deck shoe, so the
    outvoted AC, read after the copies believed, is a misread beside the alarm; it used to
    be dropped as AC's copy, unsaid."""
    ace = angel.message_data(CardRead(Card.parse("AC")))
    alike = angel.encode_frame(77, b"E" + ace[1:], crc16_ccitt) * 2
    data = copies(76, "AC", 3) + alike + copies(77, "AC") + copies(78, "KD", 3)
    assert angel_decode(data, "none") == [
        read("AC"), ShoeAlarm("0" + chr(ace[2])), *guessed("AC"), read("KD"),
    ]
    # read before the copies believed, it is AC's third copy, its number misread; KD then
    # rests on two copies beside it, which two damaged alike make: a misread guessing it
    # (tests/test_angel_link_possible_loss.py)
    data = copies(76, "AC", 2) + copies(77, "AC") + copies(77, "KD", 2) + copies(78, "QS", 3)
    assert angel_decode(data, "none") == [read("AC"), *guessed("KD"), read("QS")]


def test_copies_read_as_two_cards_one_bit_apart_make_one_misread_guessing_the_majority() -> None:
    """5H under 31, two copies damaged alike into 4H (one bit) and one intact, in any order:
    two damaged alike cannot be told from one damaged once, so neither card is believed
    (4H believed was a card invented and 5H one lost unsaid): one misread, guessing what
    two copies read, for the tailleur to confirm. Once only: no second message."""
    four = copies(31, "5H", card_byte=0x44)
    for data in (four * 2 + copies(31, "5H"), four + copies(31, "5H") + four,
                 copies(31, "5H") + four * 2):
        got = angel_decode(copies(30, "8C", 3) + data + copies(32, "KD", 3), "none")
        assert got == [read("8C"), *guessed("4H"), read("KD")]
    # the third copy lost: nothing disputes the two, believed once the group ends
    got = angel_decode(copies(30, "8C", 3) + four * 2 + copies(32, "KD", 3), "none")
    assert got == [read("8C"), read("4H"), read("KD")]


def test_a_copy_read_as_no_card_or_another_face_disputes_nothing() -> None:
    """5H's third copy read as a failed read (0x05: no suit), or as 5H face up (bit 7): noise
    on the card's copies, not another card: 5H is believed."""
    for damaged in (0x05, 0xC5):
        data = copies(31, "5H", 2) + copies(31, "5H", card_byte=damaged) + copies(32, "KD", 3)
        assert angel_decode(data, "none") == [read("5H"), read("KD")]


def test_live_two_agreeing_copies_wait_for_the_third_which_may_dispute_them() -> None:
    """Two copies of 5H read, the third (4H, one bit off) 100 ms later: nothing is delivered
    before it, then one misread; and so after a quiet spell (seed 30013957: 8C believed at
    the quiet, 9C's copy after it dropped as late); with no third copy, 5H once the line
    has been quiet for `JAM_AFTER`."""
    decoder = AngelDecoder(check="none")
    assert decoder.feed(copies(31, "5H", 2), 0.0) + decoder.idle(0.09) == []
    assert decoder.feed(copies(31, "5H", card_byte=0x44), 0.1) == guessed("5H")
    decoder = AngelDecoder(check="none")
    assert decoder.feed(copies(31, "5H", 2), 0.0) + decoder.idle(0.5) == []
    assert decoder.feed(copies(31, "5H", card_byte=0x44), 0.5) == guessed("5H")
    decoder = AngelDecoder(check="none")
    assert decoder.feed(copies(31, "5H", 2), 0.0) + decoder.idle(0.5) == []
    assert decoder.idle(JAM_AFTER) == [read("5H")]


def test_with_a_verified_check_a_copy_of_another_card_disputes_nothing() -> None:
    """With the check verified one good copy is believed at once: a copy that passes it
    under the same number reading otherwise is another message, as before."""
    decoder = AngelDecoder(check="crc16-ccitt")
    assert decoder.feed(copies(31, "5H"), 0.0) == [read("5H")]


def test_a_card_outvoted_after_the_message_under_its_number_alone_raises_an_alarm() -> None:
    """The bytes of seed 50047561 as received: 7C believed under 68 on two copies, 69 and
    70 lost whole (unreadable bytes), the count restarted at 68: 5H's copy read as a failed
    read and as 5H under 68, taken into 7C's group and said as a misread beside it, its
    number counting for nothing: the losses went unsaid. Under the number believed alone, it
    may be a restarted count's: the alarm that the count went back says so."""
    data = bytes.fromhex(
        "054444342703b0d0054444302703b0054444302703b0d005454430191903111179054544190311f905"
        "464418139a0405564430039a0405464418039a04054444303003fc3405444434454543fc3405444430"
        "4503fcfc34"
    )
    got = [m for m in angel_decode(data, "none") if not isinstance(m, Garbage)]
    assert got == [
        read("7C"), *guessed("5H"),
        ShoeAlarm("the shoe's count went back from 68 to 68: it restarted, or messages were "
                  "lost at its wrap"),
    ]


def test_a_card_outvoted_before_the_message_under_its_number_alone_raises_an_alarm() -> None:
    """The bytes of seed 50122614 as received, 9D under 140 to AC under 148: 6S (142) and
    4H (146) lost whole, 4C's single copy under 145, then 2H's two copies misnumbered alike
    from 147 to 145 and believed there. 4C, outvoted, is said as a misread; the one loss said
    before 2H left the other unsaid. 4C under 145, or 2H: one of them was misnumbered, and
    what was lost around them the numbers cannot show: an alarm says so."""
    data = bytes.fromhex(
        "058c44301903512a058c44301983512a058c44301903512a058d44300396f50d8d4430120396f5058d"
        "4430120396f5058f44300369cf058e44300369cf058f443003ac00058f44302c03ac00058f44300c03"
        "00059004387003f8059044307403f830059044307003f8300591444430240394f505914430240394f5"
        "914430250394f50592444403638f0544304403638f05923044638f05914430420375fd059144304203"
        "75fd05934430424375fd859444342103781505944430210378150594443021037815059444322103"
        "7815"
    )
    got = [m for m in angel_decode(data, "none") if not isinstance(m, Garbage)]
    assert got == [
        read("9D"), *guessed("2D", "QC"), Misread(), *guessed("4C"),
        ShoeAlarm("seq 145 to 145: a number misread before, a card read only under the number "
                  "believed after it: messages may have been lost there that the numbers "
                  "cannot show"),
        Lost(1, "1 of seq 141..144 never arrived (3 read, unnumbered)"),
        read("2H"), Lost(2, "seq 146..147 never arrived"), read("AC"),
    ]


def test_a_card_outvoted_after_the_message_under_a_number_behind_its_own_raises_an_alarm() -> None:
    """The bytes of seed 50129216 as received, 4D under 3 to 5C under 9: the count restarted
    at 1 after 4D, 2H lost whole, the cut card's copies under 2 and 3, taken into 4D's group
    and said as a misread beside it, then 3S and KC lost whole, JS under 5 in step with 3.
    Read under the group's number and one just behind it, the cut card may be a restarted
    count's: the alarm that the count went back says so."""
    data = bytes.fromhex(
        "05034430140389054430141403895151050344301403510501443042035e1a05010144443042035e0a98"
        "050244380003ad5005020244300003ad50050344300003ad50050330303303ddd40503443233dc054430"
        "3303ddd405443029030605044430302d037f06050544303b037b05054430303b037b450d46303b7b4505"
        "06453320534f45203139034f0506453353484f4520313903b4b44f0506454545332053484f45313903b4"
        "4f050745342053484f4520323030c2eb05074545342053484f4520323003c2eb05074545342053484520"
        "323003c2ebeb05080844701616030c050944302503c788050944302503c7880509443030250303c788"
    )
    got = [m for m in angel_decode(data, "none") if not isinstance(m, Garbage)]
    assert got[:4] == [
        read("4D"), Misread(),
        ShoeAlarm("the shoe's count went back from 3 to 3: it restarted, or messages were "
                  "lost at its wrap"),
        *guessed("JS"),
    ]
    assert got[-2:] == [Lost(3, "3 of seq 4..8 never arrived (2 read, unnumbered)"), read("5C")]
