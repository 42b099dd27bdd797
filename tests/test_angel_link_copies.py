"""Angel without a check: copies that disagree, in their data or their numbers, never make
a message vanish unsaid (cases found by `make fuzz`, rebuilt from real frames)."""

from __future__ import annotations

from croupier.cards import ALL_CARDS, Card
from drivers import angel
from drivers.checks import crc16_ccitt
from drivers.messages import CardRead, CutRead, Lost, Message, Misread, ShoeAlarm
from tests.test_drivers_dialect_rules import angel_decode, unconfirmed_last


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
    copies of 4H, which used to swallow them both. 4H's number, first and not leading to
    70, was misread: what was lost between it and JD, the numbers cannot show."""
    data = copies(71, "4H") + copies(70, "JD") + copies(71, "2H") + copies(72, "TS", 2)
    got = angel_decode(data, "none")
    assert got[:3] == guessed("4H", "JD", "2H")
    assert got[4:] == [CardRead(Card.parse("TS"))]
    assert isinstance(got[3], ShoeAlarm)
    assert got[3].text.startswith("seq 71 to 72: a number misread first, not leading")


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
    lone = [(20, "7S"), (21, "8D"), (90, "9D"), (3, "TD"), (4, "4C")]
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


def frame(seq: int, message: Message) -> bytes:
    return angel.encode_frame(seq, angel.message_data(message), crc16_ccitt)


def test_copies_of_a_card_and_of_an_alarm_under_one_number_are_two_messages() -> None:
    """After 124 the count restarts at 56 (seed 5704): TC under 56, its first copy read
    under 57, then alarm E7's three copies under 57, each damaged otherwise, then 3S and
    3H. The alarm's copies were taken for TC's, so only TC was delivered; the step from
    124 looked like a wrap and the alarm was gone unsaid. That step seems the count's first
    wrap, landing on numbers read only on copies not agreeing: that a loss may hide there
    is said too (seed 10046422)."""
    alarm = ShoeAlarm("E7 SHOE 24")
    garbled = [ShoeAlarm("E7 SHOE 20"), alarm, ShoeAlarm("E7 SHE 24")]
    data = copies(122, "QC", 3) + copies(123, "6H", 3) + copies(124, "9H", 3)
    data += copies(57, "TC") + copies(56, "TC") + b"".join(frame(57, a) for a in garbled)
    data += copies(58, "3S", 3) + copies(59, "3H", 3)
    got = angel_decode(data, "none")
    assert got[:4] == [CardRead(Card.parse(c)) for c in ("QC", "6H", "9H")] + guessed("TC")
    assert isinstance(got[4], ShoeAlarm)
    assert got[4].text.startswith("seq 57: a message read only as alarm 'E7 SHOE 20'")
    assert got[5:] == [
        ShoeAlarm("seq 124 to 58: a number misread at the count's first wrap, the lowest read "
                  "only on messages not confirmed: messages may have been lost there that the "
                  "numbers cannot show"),
        *(CardRead(Card.parse(c)) for c in ("3S", "3H")),
    ]


def test_two_cards_under_one_number_more_than_a_bit_apart_are_two_messages() -> None:
    """QD's one copy misnumbered 51, then KC's one copy under 51 (seed 4641): no damage of
    one copy turns 1C into 2D, so both are delivered, not KC taken for a copy of QD. Which
    one's number was misread nothing tells, so 50 or 51 is reported lost: a false alarm
    rather than a silent loss."""
    data = copies(49, "7S", 3) + copies(51, "QD") + copies(51, "KC") + copies(52, "AH", 3)
    assert angel_decode(data, "none") == [
        CardRead(Card.parse("7S")),
        *guessed("QD", "KC"),
        Lost(1, "1 of seq 50..51 never arrived (1 read, unnumbered)"),
        CardRead(Card.parse("AH")),
    ]


def test_a_lone_copy_repeating_the_message_before_does_not_count_as_another_number() -> None:
    """The cut card under 150, one copy, then another copy misnumbered 151 (seed 5734); the
    failed read (151) and 2D (152) lost, 6S's one copy, then 9D believed. The second cut
    card counted as 151, so only one loss was reported of the two."""
    data = copies(149, "AD", 3) + frame(150, CutRead()) + frame(151, CutRead())
    data += copies(153, "6S") + copies(154, "9D", 3)
    assert angel_decode(data, "none") == [
        CardRead(Card.parse("AD")),
        CutRead(),
        CutRead(),
        *guessed("6S"),
        Lost(2, "2 of seq 150..153 never arrived (2 read, unnumbered)"),
        CardRead(Card.parse("9D")),
    ]


def test_a_first_message_whose_number_does_not_lead_to_the_next_raises_an_alarm() -> None:
    """A capture opens on 8H's one copy, its number 114 read as 98, then TH believed under
    116 (seed 4637): 115 was lost, but 98 is too far behind 116 to count what lies between,
    and nothing was said. So with KD's one copy, 50 read as 178, then QC's (52) and 4H
    believed under 53 (seed 9403): 51 was lost, and a step back from the first number read
    looked like a wrap."""
    for first, (seq, card), after in (
        (copies(98, "8H"), (116, "TH"), b""),
        (copies(178, "KD") + copies(52, "QC"), (53, "4H"), copies(54, "3C", 3)),
    ):
        got = angel_decode(first + copies(seq, card, 3) + after, "none")
        alarms = [m for m in got if isinstance(m, ShoeAlarm)]
        assert [m for m in got if not isinstance(m, ShoeAlarm)][-2 if after else -1] == (
            CardRead(Card.parse(card))
        )
        assert len(alarms) == 1
        assert alarms[0].text.startswith("seq ")
        assert f" to {seq}: a number misread first, not leading to the next" in alarms[0].text


def test_an_alarm_read_twice_as_lone_texts_counts_one_number() -> None:
    """E3's two copies each garbled, one under its number 121, the other under 122; JH
    (122) lost whole; 7S believed under 123 (as in seed 7723, where alarm E0's copies were
    read as two texts under 155 and 139). Two messages read as texts, one after the other,
    are taken for one alarm's copies in counting: a number each hid the loss of JH."""
    first, second = ShoeAlarm("E3 SH0E 1"), ShoeAlarm("E3 SHOE !")
    data = copies(120, "9C", 3) + frame(121, first) + frame(122, second) + copies(123, "7S", 3)
    got = angel_decode(data, "none")
    assert got[0] == CardRead(Card.parse("9C"))
    assert all(isinstance(m, ShoeAlarm) for m in got[1:3])
    assert got[3:] == [
        Lost(1, "1 of seq 121..122 never arrived (1 read, unnumbered)"),
        CardRead(Card.parse("7S")),
    ]


def test_a_cut_card_copy_is_not_taken_for_a_damaged_card() -> None:
    """The cut card under 146, one copy damaged into no card, then another copy misnumbered
    147, and AH's two copies under 147, one of them read as 5H (seed 11270). The cut
    card's byte is more than a bit from any card's, so its copy and AH's are two messages:
    taken for one, read as the cut card, AH vanished."""
    data = copies(145, "QH", 3) + frame(146, CutRead())[:4] + b"\x04" + frame(146, CutRead())[5:]
    data += frame(146, CutRead()) + frame(147, CutRead())
    data += copies(147, "AH", card_byte=0x45) + copies(147, "AH") + copies(148, "3S", 3)
    assert angel_decode(data, "none") == [
        CardRead(Card.parse("QH")),
        Misread(),
        *guessed("5H"),
        CardRead(Card.parse("3S")),
    ]


def test_the_first_number_read_before_a_wrap_is_the_count_s_top() -> None:
    """A count of 48..57 (seed 4611): a capture opens on 2C's one copy under 57, then 48 to
    55 believed, 56 and 48 read on lone copies, 50 believed; 57 and 49 were lost. 57 read
    first, just beyond the highest otherwise seen, before the step to the lowest, is the
    count's top: the wrap from 56 lost it. The wrap was taken as from 56, and only 49
    reported."""
    cards = ["KC", "9C", "7D", "JH", "6C", "5C", "9S", "7H"]
    data = copies(57, "2C") + b"".join(copies(48 + at, c, 3) for at, c in enumerate(cards))
    data += copies(56, "4D") + copies(48, "8S") + copies(50, "QS", 3)
    got = angel_decode(data, "none")
    assert got[-4:] == [
        *guessed("4D", "8S"),
        Lost(2, "2 of seq 55..50, read before, never arrived"),
        CardRead(Card.parse("QS")),
    ]


def test_a_card_copy_whose_command_reads_d_is_a_copy_of_the_card() -> None:
    """4H under 174: its second copy misnumbered 46 and its command D damaged into d (a
    card dealt outside the game flow, read as the same card), its third copy good (seed
    13411). Taken for a message of its own, 4H was delivered three times, as three
    misreads, and their numbers counted for messages that were lost."""
    four = frame(174, CardRead(Card.parse("4H")))
    damaged = angel.encode_frame(46, b"d" + angel.message_data(CardRead(Card.parse("4H")))[1:],
                                 crc16_ccitt)
    data = copies(172, "AC", 3) + copies(173, "8S") + four + damaged + four
    data += copies(175, "QD", 3)
    assert angel_decode(data, "none") == [
        CardRead(Card.parse("AC")),
        *guessed("8S"),
        CardRead(Card.parse("4H")),
        CardRead(Card.parse("QD")),
    ]


def test_the_lowest_number_read_one_before_another_counts_at_the_wrap() -> None:
    """A count of 166..197 (seed 6286): at its first wrap, 166 and 167 read on lone copies
    and 168 lost, so the wrap seemed to land on 167; at the second, 197, 167 and 168 on
    lone copies, the input ending there: 166, read before one before 167, was lost. The
    step from 197 to 167 was taken for a whole wrap."""
    cards = iter(ALL_CARDS)

    def dealt(seq: int, count: int) -> bytes:
        return copies(seq, str(next(cards)), count)

    data = b"".join(dealt(seq, 3) for seq in range(192, 198)) + dealt(166, 1) + dealt(167, 1)
    next(cards)  # 168 lost
    data += b"".join(dealt(seq, 3) for seq in range(169, 197)) + dealt(197, 1)
    next(cards)  # 166 lost
    data += dealt(167, 1) + dealt(168, 1)
    assert angel_decode(data, "none")[-2:] == [
        Lost(1, "1 of seq 196..168 never arrived, by the numbers read"),
        unconfirmed_last(196, 168),
    ]


def test_a_number_misread_one_beyond_the_top_reports_no_loss_at_every_wrap() -> None:
    """A count of 0..15 over three turns: at the first wrap, 0's one copy to arrive read
    under 16 (bit 4 flipped). 16 read one on from 15, on a message not confirmed, counts as
    the count's top at the next wrap, which says it lost; then it is let go, and the turns
    after it say nothing (each said 16 was lost)."""
    cards = iter(ALL_CARDS)
    data = b"".join(copies(seq, str(next(cards)), 3) for seq in range(16))
    data += copies(16, str(next(cards)))
    data += b"".join(copies(seq % 16, str(next(cards)), 3) for seq in range(1, 36))
    lost = [m for m in angel_decode(data, "none") if isinstance(m, Lost)]
    assert lost == [
        Lost(1, "1 of seq 15..1 never arrived, by the numbers read"),
        Lost(1, "1 of seq 15..0, read before, never arrived"),
    ]


def test_a_first_number_misread_one_beyond_the_top_reports_no_loss_at_every_wrap() -> None:
    """A count of 48..57 over four turns, a capture opening on 57's one copy to arrive,
    its number misread as 58. Read first, before the step back to the lowest, 58 counts as
    the count's top at the first wrap, which says it lost; then it is let go, and the turns
    after it say nothing (each said 58 was lost)."""
    cards = iter(ALL_CARDS)
    data = copies(58, str(next(cards)))
    data += b"".join(copies(48 + seq % 10, str(next(cards)), 3) for seq in range(40))
    lost = [m for m in angel_decode(data, "none") if isinstance(m, Lost)]
    assert lost == [Lost(1, "1 of seq 57..48, read before, never arrived")]


def test_a_failed_read_split_from_a_group_as_a_neighbour_s_copy_is_counted_lost() -> None:
    """A failed read under 11, its one copy to arrive misnumbered 12, among the copies of
    alarm E5 under 12, each garbled otherwise. Split from the alarm, it reads as a damaged
    copy of AC before it (a card byte damaged reads as no card), so it is not delivered:
    but its number, 11, was never read, so the count says it was lost."""
    def alarm(text: bytes) -> bytes:
        return angel.encode_frame(12, b"E" + text, crc16_ccitt)

    data = copies(10, "AC", 3) + frame(12, Misread())
    data += alarm(b"E5 SHOE 3") + alarm(b"E5 SHOF 3") + alarm(b"E5 RHOE 3") + copies(13, "QH", 3)
    assert angel_decode(data, "none") == [
        CardRead(Card.parse("AC")),
        ShoeAlarm("seq 12: a message read only as alarm 'E5 SHOE 3', its copies not agreeing: "
                  "a card may be missing"),
        Lost(1, "1 of seq 11..12 never arrived (1 read, unnumbered)"),
        CardRead(Card.parse("QH")),
    ]


def test_a_lone_text_after_an_alarm_believed_is_delivered_its_number_not_counted() -> None:
    """E1 believed under 10, then E2's one copy to arrive under 11. Read as texts after a
    text, it may be a copy of E1 garbled and misnumbered as well as a message of its own:
    it is delivered (an alarm that a card may be missing), but 11 is not taken as
    accounted for, so that were it E1's copy, a message lost whole under 11 would still be
    said; the loss said here is one too many, never one too few."""
    def alarm(seq: int, text: bytes) -> bytes:
        return angel.encode_frame(seq, b"E" + text, crc16_ccitt)

    data = copies(9, "AC", 3) + alarm(10, b"E1 JAM") * 3 + alarm(11, b"E2 EMPTY")
    assert angel_decode(data + copies(12, "QH", 3), "none") == [
        CardRead(Card.parse("AC")),
        ShoeAlarm("E1 JAM"),
        ShoeAlarm("seq 11: a message read only as alarm 'E2 EMPTY', its copies not agreeing: "
                  "a card may be missing"),
        Lost(1, "seq 11 never arrived"),
        CardRead(Card.parse("QH")),
    ]
