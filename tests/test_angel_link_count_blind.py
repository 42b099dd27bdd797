"""Angel without a check: what the numbers read cannot show is said (an input ending on a
number that steps back, numbers stepping back where no wrap is known), and where the count's
top and its wraps are read from numbers misread or read in step."""

from __future__ import annotations

from croupier.cards import ALL_CARDS, Card
from drivers.angel_link import AngelDecoder
from drivers.messages import CardRead, Garbage, Lost, Message, ShoeAlarm
from tests.test_angel_link_copies import copies, guessed
from tests.test_drivers_dialect_rules import angel_decode, unconfirmed_last


def test_an_input_ending_on_a_number_that_steps_back_says_what_it_hides() -> None:
    """3D and 7D believed under 1 and 2, AC alone under 3, then 5S alone under 2, the input
    ending there (seed 10004934: 6S under 5 lost whole, 5S's number 6 misread 2): nothing
    after 5S shows what its misread number hid. Said, not silent; and so with nothing
    believed before (AC and 7D alone too)."""
    data = copies(1, "3D", 3) + copies(2, "7D", 3) + copies(3, "AC") + copies(2, "5S")
    assert angel_decode(data, "none") == [
        CardRead(Card.parse("3D")), CardRead(Card.parse("7D")), *guessed("AC", "5S"),
        ShoeAlarm("seq 2 to 2: a number misread where the numbers read step back (or the count "
                  "wrapped there, unseen): messages may have been lost there that the numbers "
                  "cannot show"),
    ]
    assert angel_decode(copies(3, "AC") + copies(4, "7D") + copies(2, "5S"), "none") == [
        *guessed("AC", "7D", "5S"),
        ShoeAlarm("seq 3 to 2: a number misread last, not following the one before: messages "
                  "may have been lost there that the numbers cannot show"),
    ]
    # in step, the last number is still not confirmed: it may have been misread low
    assert angel_decode(copies(3, "AC") + copies(4, "7D") + copies(5, "5S"), "none") == [
        *guessed("AC", "7D", "5S"), unconfirmed_last(3, 5),
    ]


def test_a_lone_copy_is_no_copy_of_the_next_message_whose_copies_tie() -> None:
    """7S alone under 216, then under 218 one copy of 7S (its number misread) and two of 6C
    (seed 10017361): when the line reached 6C's first copy, 7S and 6C tied under 218, and
    7S under 216, taken for the next message's copy misnumbered, was dropped with its
    number: 217's loss went unsaid. The next message is the one its copies agree on."""
    data = copies(216, "7S") + copies(218, "7S") + copies(218, "6C", 2) + copies(221, "KH", 3)
    assert angel_decode(data, "none") == [
        *guessed("7S"),
        Lost(1, "1 of seq 216..218 never arrived, by the numbers read"),
        *guessed("6C"),  # on two copies beside the copy of the message before it
        Lost(2, "seq 219..220 never arrived"),
        CardRead(Card.parse("KH")),
    ]


def test_numbers_read_stepping_back_where_no_wrap_is_known_are_said_blind() -> None:
    """A count of 48..57 whose first turn was read only on lone copies, then 48..51
    believed, then lone copies under 53, 55, 49 and 52 believed (seed 10018025): the step
    from 55 back to 49 is the count's wrap, which no number believed has shown, or a
    number misread; either way the numbers cannot show what was lost (52, 54, 56, 57, 48,
    50 here); counting 4 over a wrap not known hid 2. (Before 2C, 3H and 2H, a bit apart
    and read once each under 54 and 55, may be one card's copies: they count as one
    message, and one loss is said there.)"""
    first = b"".join(copies(seq, card) for seq, card in zip(range(54, 58), ["3H", "2H", "KD", "TH"],
                                                          strict=True))
    data = first + b"".join(copies(48 + at, card, 3) for at, card in enumerate(["2C", "3C", "7D",
                                                                                "8D"]))
    data += copies(53, "7H") + copies(55, "6C") + copies(49, "7C") + copies(52, "4D", 3)
    got = angel_decode(data, "none")
    assert got[-2:] == [
        ShoeAlarm("seq 51 to 52: a number misread where the numbers read step back (or the "
                  "count wrapped there, unseen): messages may have been lost there that the "
                  "numbers cannot show"),
        CardRead(Card.parse("4D")),
    ]
    assert not any(isinstance(m, Lost) for m in got[got.index(CardRead(Card.parse("2C"))):])



def test_the_first_number_read_is_the_count_s_top_past_a_number_misread_after_it() -> None:
    """A count of 151..160 (seed 10002798): a capture opens on lone copies under 160 and 162
    (a number misread), then 151..159 believed, then 151 again: 160, lost at the wrap, was
    read first. Past 162, no step back from 160 was seen, so the top was taken for 159."""
    cards = iter(str(c) for c in ALL_CARDS)
    data = copies(160, next(cards)) + copies(162, next(cards))
    data += b"".join(copies(seq, next(cards), 3) for seq in range(151, 160))
    lost = [m for m in angel_decode(data + copies(151, next(cards), 3), "none")
            if isinstance(m, Lost)]
    assert lost == [
        Lost(1, "1 of seq 160..151 never arrived, by the numbers read"),
        Lost(1, "1 of seq 159..151, read before, never arrived"),
    ]


def test_messages_read_in_step_before_a_wrap_do_not_lower_where_it_landed() -> None:
    """A count of 150..159: 154, 155 believed, 156..158 read on lone copies, then 152 on
    (seed 10017506). The three lone ones were read in step on from 155, all before the
    wrap; taken for the numbers just before 152, they made 149 the lowest, and at the next
    wrap, from 156 to 150, 157 and 158 (read before) were not said lost, but 149."""
    data = copies(154, "4D", 3) + copies(155, "6S", 3)
    data += copies(156, "8C") + copies(157, "5D") + copies(158, "AC")
    data += b"".join(copies(152 + at, card, 3) for at, card in enumerate(["QD", "AS", "5H", "7H",
                                                                          "8S"]))
    assert angel_decode(data + copies(150, "3D", 3), "none")[-3:] == [
        Lost(2, "2 of seq 156..150, read before, never arrived"),
        Lost(2, "seq 150..151 never arrived at an earlier wrap"),
        CardRead(Card.parse("3D")),
    ]


def test_the_first_message_placed_under_a_number_read_after_its_first_says_what_it_hides() -> None:
    """The bytes of seed 50014980 as received, up to 5C under 99: 6H's one copy to frame
    read under 78 (94 sent), first in the input, then 7H's one, its card byte damaged, read
    as 6H under 95, an alarm's three copies under 96, each garbled otherwise, then AH and AD
    believed. 6H's copy under 95 was taken for a late copy of it, 95 for its number, and
    the numbers ran in step: 7H went unsaid. Nothing believed before, the first message
    placed under a number ahead of the one it was read under first may be two messages:
    the numbers cannot show what was lost before the number taken, and an alarm says so."""
    data = bytes.fromhex(
        "055e5e44304603bf5b05054e44304603bf5b055e444603bf5b075f44304703d9ce055f4430460303d9"
        "ce055f443030474703d9ce05604545202053484f452036037b1c05604545302053484f452032037b1c"
        "05604545302053484f4d2032037b1c05614430410337bb0561614430410337bbbb05614430410337bb"
        "05624430110303f692056244301103f692056244301103f6920563443025"
    )
    got = [m for m in angel_decode(data, "none") if not isinstance(m, Garbage)]
    assert got[0] == guessed("6H")[0]
    assert got[2] == ShoeAlarm(
        "seq 95 to 97: a number misread first, its first copy read under another number: "
        "messages may have been lost there that the numbers cannot show"
    )
    assert got[3:] == [CardRead(Card.parse("AH")), CardRead(Card.parse("AD"))]


def test_the_top_read_once_right_before_the_first_wrap_counts_at_the_next() -> None:
    """The bytes of seed 50162353 as received live (the line quiet at the offsets given),
    up to 3S under 48, a count of 48..57: lone copies from 51 to 55, QD's under 57 (56 lost
    whole), KS's under 48, then 9C believed under 49 on, 7H under 56, 7D under 57 lost
    whole, and 3S believed under 48. 57 was read once, not one on from another number, so
    the wrap from 56 said nothing and 7D went unsaid. A number read right before a step
    back to the lowest may be the top: 7D is said lost."""
    data = bytes.fromhex(
        "053344303103d17f0533443003d17f053344303107d17f05344430120394053444209203945305364430"
        "1203945305354444304a03391a053544304a0303391a05364430490392a505364430490392b505363644"
        "304903039292a505374545332053484f45203403ebfa053745452053480f4520340303ebfa0537454533"
        "2053484f4f4520203403ebfa0538384430250b9dd5053838442525039dd505384444302503ddd5053944"
        "301c03441b0539441c034c1b05394444301c034c1b053044303d138b2f05304444303d0b8b2f05053044"
        "303d038b2f053144302903af2e853344302903af2e0531443029032f2e053244000381b9053244300003"
        "8105324444300381b905334430240393eb05334430240393eb0533334520340393eb053444303034d0d0"
        "f7053444203403d0f7f70534443034d0f7053544304303a833053544304303a833053544304303a83305"
        "364545312053484f4520203133038a92053645453153484f4533038a9205364545312053484f45203173"
        "038a9205374430270329790537443027836179057744270269790538443047035131053844304703d131"
        "31053844304703d1310539443003fd70394438170303fd700530443033036ae10530443033036ae10530"
        "443033036ae1"
    )
    decoder, got, now, start = AngelDecoder(check="none"), list[Message](), 0.0, 0
    for quiet in [72, 106, 397, 436, 460, len(data)]:
        got += decoder.feed(data[start:quiet], now) + decoder.idle(now + 0.5)
        start, now = quiet, now + 0.5
    got = [m for m in got + decoder.finish() if not isinstance(m, Garbage)]
    assert got[-3:] == [
        CardRead(Card.parse("7H")), Lost(1, "1 of seq 56..48, read before, never arrived"),
        CardRead(Card.parse("3S")),
    ]
