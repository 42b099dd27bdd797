"""Angel without a check: losses the decoder used to leave unsaid (`make fuzz` seeds 10,000,000
to 10,039,999), rebuilt from real frames: unreadable bytes with room for messages, a copy of
the next message under the number before, numbers read stepping back before any believed,
a card's number disputed by its own copy, an outvoted card's own number, the count's first
wrap read on lone copies at the end, two garbled alarms in a row, an alarm read as a
status."""

from __future__ import annotations

from croupier.cards import Card
from drivers import angel
from drivers.checks import crc16_ccitt
from drivers.messages import CardRead, CutRead, Garbage, Lost, Message, Misread, ShoeAlarm
from tests.test_angel_link_copies import copies, guessed
from tests.test_drivers_dialect_rules import angel_decode, unconfirmed_last


def mangled(data: bytes) -> bytes:
    """Bytes no frame can be read from (no ENQ left)."""
    return bytes(b ^ 0x80 for b in data)


def read(data: bytes) -> list[Message]:
    """What the decoder delivers, the unreadable bytes left out."""
    return [m for m in angel_decode(data, "none") if not isinstance(m, Garbage)]


def alarms(got: list[Message]) -> list[str]:
    return [m.text for m in got if isinstance(m, ShoeAlarm)]


def test_unreadable_bytes_count_only_the_copies_not_read_either_side() -> None:
    """4S believed on two copies, its third mangled, then every copy of a message mangled,
    then KD believed under the next number (seed 10028298: two cards lost at a restart
    landing in step, 43 unreadable bytes). The copies read either side left no bytes: counting
    all three of each as room hid the message lost."""
    data = copies(3, "4S", 2) + mangled(copies(3, "4S") + copies(4, "QH", 3))
    got = read(data + copies(4, "KD", 3))
    assert got[0] == CardRead(Card.parse("4S"))
    assert got[-1] == CardRead(Card.parse("KD"))
    assert alarms(got) == [
        "seq 3 to 4: 32 unreadable bytes between them, room for 1 more message(s) than the "
        "numbers say were lost"
    ]


def test_an_input_ending_on_lone_copies_says_what_their_numbers_cannot_show() -> None:
    """TD believed, then lone copies of 7S and 4S in step, with two messages' copies mangled
    between them, the input ending there (seed 10033992): no message believed after them
    counts the bytes (their room once said the loss) nor checks their numbers, which said
    is more."""
    data = copies(34, "TD", 2) + mangled(copies(34, "TD")) + copies(35, "7S")
    data += mangled(copies(36, "6C", 3) + copies(37, "8C", 3)) + copies(36, "4S")
    got = read(data)
    assert got[1:3] == guessed("7S", "4S")
    assert got[3:] == [unconfirmed_last(34, 36)]


def test_a_lone_copy_of_the_next_message_under_the_number_before_hides_nothing() -> None:
    """4S alone under 192, then 4S believed under 193 (seed 10025430: the cut card's copy
    misnumbered 192, 5C sent under 192 lost whole): its number counts for nothing, so 192
    is reported; were it the same card dealt twice, a loss over-reported."""
    data = copies(190, "QD", 3) + copies(191, "AC", 3) + copies(192, "4S")
    data += copies(193, "4S", 3) + copies(194, "KC", 3)
    assert angel_decode(data, "none")[2:4] == [
        *guessed("4S"),
        Lost(1, "seq 192 never arrived"),
    ]


def test_numbers_read_stepping_back_above_the_first_before_any_believed_are_said() -> None:
    """Lone copies under 134, 135, 168, 169 and 139, then 4S believed under 140 (seed
    10037661: 136 and 137 misread alike into 168 and 169, 138 lost): no wrap lands above
    the first number read, so the numbers cannot show what was lost there."""
    data = copies(134, "9C") + copies(135, "5H") + copies(168, "TD") + copies(169, "7H")
    got = angel_decode(data + copies(139, "6H") + copies(140, "4S", 2), "none")
    assert got[:5] == guessed("9C", "5H", "TD", "7H", "6H")
    assert alarms(got) == [
        "seq 134 to 140: a number misread where the numbers read step back (or the count "
        "wrapped there, unseen): messages may have been lost there that the numbers cannot "
        "show"
    ]
    assert got[-1] == CardRead(Card.parse("4S"))


def test_a_card_read_again_under_the_number_the_count_follows_on_to_is_in_doubt() -> None:
    """5H believed on two copies under 119 after 125, its third copy under 127 (seed
    10038519: two copies' numbers damaged alike, 126 lost): a wrap to 119 and two damaged
    numbers look the same, so the card is a misread, and 126 is reported."""
    data = copies(123, "5D", 3) + copies(124, "5S") + copies(125, "QC")
    data += copies(119, "5H", 2) + copies(127, "5H") + copies(128, "9D") + copies(129, "KS", 3)
    assert angel_decode(data, "none")[1:] == [
        *guessed("5S", "QC", "5H", "9D"),
        Lost(1, "1 of seq 124..128 never arrived (4 read, unnumbered)"),
        CardRead(Card.parse("KS")),
    ]


def test_an_outvoted_card_read_under_a_number_of_its_own_counts_it() -> None:
    """JC under 31 and 29, then 3D believed under 31 (seed 10033119: JC's first copy
    misnumbered, QC under 30 lost whole): JC is outvoted, but 29, read on it, counts."""
    data = copies(31, "JC") + copies(29, "JC") + copies(31, "3D", 3) + copies(32, "TC", 3)
    assert angel_decode(data, "none") == [
        *guessed("JC"),
        Lost(1, "1 of seq 29..31 never arrived, by the numbers read"),
        CardRead(Card.parse("3D")),
        CardRead(Card.parse("TC")),
    ]


def test_the_count_s_first_wrap_read_only_on_lone_copies_at_the_end_is_said_blind() -> None:
    """26..28 believed, then lone copies under 29, 15, 17 .. 20, the input ending there (seed
    10056501: a count of 13..28, 13 read as 29, 14 and 16 lost): judged after the step to
    20, itself a lone copy's number, 29 was the top and 15 the lowest, and only 16 was said
    lost. The first wrap, read only on lone copies, cannot show what it hides."""
    data = copies(26, "3S", 3) + copies(27, "8S", 3) + copies(28, "KC", 3) + copies(29, "8D")
    cards = ["9C", "2C", "7C", "9D", "6H"]
    data += b"".join(copies(seq, card) for seq, card in zip([15, 17, 18, 19, 20], cards,
                                                          strict=True))
    got = read(data)
    assert got[3:] == [
        *guessed("8D", *cards),
        ShoeAlarm("seq 28 to 20: a number misread where the numbers read step back (or the "
                  "count wrapped there, unseen): messages may have been lost there that the "
                  "numbers cannot show"),
    ]


def alarm_copy(seq: int, data: bytes) -> bytes:
    return angel.encode_frame(seq, data, crc16_ccitt)


def test_two_alarms_in_a_row_each_garbled_are_two_messages() -> None:
    """Two copies of each of two alarms, garbled each its own way, then 7C's first copy
    misnumbered into the second alarm's number (seed 10045799): the second alarm, split
    from 7C and read twice under its own number, was taken for a copy of the first and
    dropped."""
    data = copies(214, "3D", 3) + alarm_copy(215, b"E6SHE 24") + alarm_copy(215, b"E6 SHOE 224")
    data += alarm_copy(216, b"E3 SOE 25") + alarm_copy(216, b"E3 SHHOE25") + copies(216, "7C")
    data += copies(217, "7C", 2)
    got = read(data)
    assert got[0] == CardRead(Card.parse("3D"))
    assert [a[:8] for a in alarms(got)] == ["seq 215:", "seq 216:"]
    assert got[-1] == CardRead(Card.parse("7C"))


def test_a_status_with_a_copy_read_as_an_alarm_is_the_alarm() -> None:
    """An alarm's command E damaged alike into e (error cleared) in two copies, its third
    intact (seed 10108376): a status never reaches the tailleur, so the alarm is delivered."""
    data = copies(133, "JC", 3) + alarm_copy(134, b"eE1 SHOE 14") * 2
    data += alarm_copy(134, b"EE1 SHOE 14") + copies(135, "KD", 3)
    assert read(data) == [
        CardRead(Card.parse("JC")), ShoeAlarm("E1 SHOE 14"), CardRead(Card.parse("KD")),
    ]


def test_a_failed_read_outvoted_by_two_copies_read_as_an_alarm_is_said() -> None:
    """A failed read's command D damaged alike into E in two copies, which read as an alarm
    '0p', its third copy intact (seed 10069487): a copy of a card's shape in a group
    believed as a text is another message, a failed read as much as a card."""
    failed = angel.message_data(Misread())
    data = copies(107, "8H", 3) + alarm_copy(108, b"E" + failed[1:]) * 2
    data += alarm_copy(108, failed) + copies(109, "9C", 3)
    assert read(data) == [
        CardRead(Card.parse("8H")), ShoeAlarm("0p"), Misread(), CardRead(Card.parse("9C")),
    ]


def test_a_lone_copy_reading_as_any_copy_of_the_message_before_counts_no_number() -> None:
    """The cut card read once as a failed read and once as itself under 146, then once more
    under 147, QS sent under 147 lost whole (seed 10111755): the second cut card reads as a
    copy of the message just delivered, not as its likeliest reading, yet it is a copy of
    it; its number hid the loss."""
    cut, failed = angel.message_data(CutRead()), angel.message_data(Misread())
    data = copies(145, "QH", 3) + alarm_copy(146, failed) + alarm_copy(146, cut)
    data += alarm_copy(147, cut) + copies(148, "8H", 3)
    got = read(data)
    assert got[:3] == [CardRead(Card.parse("QH")), Misread(), CutRead()]
    assert [m for m in got if isinstance(m, Lost)] == [
        Lost(1, "1 of seq 146..147 never arrived (1 read, unnumbered)")
    ]
    assert got[-1] == CardRead(Card.parse("8H"))


def test_an_alarm_s_copy_not_read_has_the_room_of_an_alarm_s_frame() -> None:
    """An alarm believed on two copies, its third mangled (16 bytes), then a card's first
    copy mangled: the bytes are the copies not read of the two messages believed, no
    room for another (counted as a card's, 8 bytes, the alarm's copy raised one)."""
    alarm = alarm_copy(4, b"EE3 SHOE 12")
    data = copies(3, "4S", 3) + alarm * 2 + mangled(alarm + copies(5, "QH"))
    got = read(data + copies(5, "QH", 2))
    assert got == [CardRead(Card.parse("4S")), ShoeAlarm("E3 SHOE 12"), CardRead(Card.parse("QH"))]
