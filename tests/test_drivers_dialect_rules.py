"""Rules of the dialects that the documented examples do not pin down on their own: the
check algorithms' reference values, angel's votes and sequence gaps, bee's repeats."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.cards import ALL_CARDS, Card
from drivers import angel
from drivers.angel_link import AngelDecoder
from drivers.bee import BeeDecoder
from drivers.checks import CHECKS, check_named, crc16_ccitt
from drivers.decode import decode_bytes
from drivers.errors import DialectError
from drivers.messages import CardRead, CutRead, Garbage, Lost, Message, Misread, ShoeAlarm


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("crc16-ccitt", "29b1"),  # CRC-16/CCITT-FALSE check value
        ("crc16-xmodem", "31c3"),  # CRC-16/XMODEM check value
        ("crc16-modbus", "374b"),  # CRC-16/MODBUS check value 0x4B37, low byte first
        ("sum16", "01dd"),
        ("xor-hex", "3331"),  # 0x31 as two hex digits
    ],
)
def test_each_check_gives_its_reference_value(name: str, value: str) -> None:
    assert CHECKS[name](b"123456789").hex() == value


def test_an_unknown_check_is_named() -> None:
    with pytest.raises(DialectError, match="'crc99'"):
        check_named("crc99")
    assert check_named("none") is None


def angel_copies(seq: int, message: Message, copies: int = 3, check: str = "crc16-ccitt") -> bytes:
    algorithm = check_named(check) or crc16_ccitt  # a shoe sends some check, verified or not
    return angel.encode_frame(seq, angel.message_data(message), algorithm) * copies


QH = CardRead(Card.parse("QH"))
FOUR = CardRead(Card.parse("4S"), face_up=True)


def test_every_card_byte_round_trips() -> None:
    for suit in "SHDC":
        for rank in "A23456789TJQK":
            for face_up in (False, True):
                message = CardRead(Card.parse(rank + suit), face_up)
                assert angel.data_message(angel.message_data(message)) == message


def test_angel_with_a_verified_check_drops_corrupted_copies() -> None:
    good = angel_copies(1, QH, copies=1)
    bad = bytearray(good)
    bad[4] ^= 0x01  # the card byte: QH becomes KH, but the check no longer matches
    data = bytes(bad) + good + angel_copies(2, FOUR)
    assert decode_bytes(data, "angel", check="crc16-ccitt") == [Garbage(8), QH, FOUR]


def test_angel_without_a_check_believes_two_agreeing_copies_not_one() -> None:
    bad = bytearray(angel_copies(1, QH, copies=1))
    bad[4] ^= 0x40  # the card byte's suit bits cleared: no card (one read as another card
    # disputes the two: tests/test_angel_link_outvoted.py)
    data = bytes(bad) + angel_copies(1, QH, copies=2) + angel_copies(2, FOUR, copies=1)
    # QH: two copies agree over one corrupted; 4S: one lone copy, so only a guess, its
    # number not confirmed by any after it
    assert decode_bytes(data, "angel") == [QH, Misread(guess=FOUR.card), unconfirmed_last(1, 2)]


def angel_decode(data: bytes, check: str = "crc16-ccitt", **options: Any) -> list[Message]:
    decoder = AngelDecoder(check=check, **options)
    return decoder.feed(data, 0.0) + decoder.finish()


def unconfirmed_last(first: int, last: int) -> ShoeAlarm:
    """What an input ending on numbers not confirmed says: the last one may hide a loss."""
    return ShoeAlarm(
        f"seq {first} to {last}: a number misread last, not confirmed: messages may have been "
        "lost there that the numbers cannot show"
    )


def bit_apart_alarm(message: Message) -> bool:
    """Whether `message` is the alarm raised by two cards a bit apart, read once each under
    numbers in a row: one card's copies may have been damaged so, hiding a loss after them."""
    return isinstance(message, ShoeAlarm) and "two cards a bit apart" in message.text


def test_angel_reports_a_run_of_missing_sequence_numbers() -> None:
    data = b"".join(angel_copies(seq, QH) for seq in (4, 5, 9))
    assert angel_decode(data) == [QH, QH, Lost(3, "seq 6..8 never arrived"), QH]


def test_angel_with_its_range_set_reports_a_loss_across_the_wrap() -> None:
    data = angel_copies(250, QH) + angel_copies(3, CutRead())  # 251..255, 0..2 missing
    got = angel_decode(data, seq_range=(0, 255))
    assert got == [QH, Lost(8, "seq 251..2 never arrived"), CutRead()]


def counted(values: int, first: int, count: int, restart_at: int | None = None) -> list[int]:
    """The numbers a shoe counting `values` values from `first` gives `count` messages,
    its count starting again after message `restart_at`."""
    numbers = [first + i % values for i in range(count)]
    if restart_at is not None:
        numbers[restart_at:] = counted(values, first, count - restart_at)
    return numbers


@pytest.mark.parametrize("values", [10, 16, 32, 64, 100, 128, 256])
@pytest.mark.parametrize("check", ["none", "crc16-ccitt"])
def test_angel_counters_of_any_range_wrap_without_loss_or_alarm(values: int, check: str) -> None:
    first = 0x30 if values == 10 else 0  # a shoe counting in ASCII digits
    cards = [CardRead(card) for card in ALL_CARDS * 7][:313]
    data = b"".join(
        angel_copies(seq, card, check=check)
        for seq, card in zip(counted(values, first, len(cards)), cards, strict=True)
    )
    assert angel_decode(data, check) == cards


@pytest.mark.parametrize(
    ("values", "restart_at", "alarm"),
    [
        (256, 5, None),  # before the first wrap a restart looks like one
        (256, 200, None),
        (10, 20, None),  # at the top of the count, too
        (10, 25, "went back from 4 to 0: it restarted, or 5 message(s) were lost at its wrap"),
        (100, 150, "went back from 49 to 0: it restarted, or 50 message(s) were lost at its wrap"),
    ],
)
def test_angel_a_count_that_restarts_loses_nothing(
    values: int, restart_at: int, alarm: str | None
) -> None:
    cards = [CardRead(card) for card in ALL_CARDS * 5][:260]
    seqs = counted(values, 0, len(cards), restart_at)
    data = b"".join(angel_copies(s, c, check="none") for s, c in zip(seqs, cards, strict=True))
    got = angel_decode(data, "none")
    assert [m for m in got if isinstance(m, CardRead)] == cards
    alarms = [m for m in got if not isinstance(m, CardRead)]
    assert alarms == ([ShoeAlarm(f"the shoe's count {alarm}")] if alarm else [])


def test_angel_a_corrupted_copy_read_as_an_alarm_does_not_hide_the_card() -> None:
    good = angel_copies(7, QH, copies=1, check="none")
    bad = bytearray(good)
    bad[2] = ord("E")  # the command byte: this copy now reads as an alarm
    data = angel_copies(6, FOUR, check="none") + bytes(bad) + good * 2
    assert angel_decode(data, "none") == [FOUR, QH]


def test_angel_a_misnumbered_first_copy_is_outvoted_not_a_second_message() -> None:
    good = angel_copies(7, QH, copies=1, check="none")
    bad = bytearray(good)
    bad[1] ^= 0x40
    data = angel_copies(6, FOUR, check="none") + bytes(bad) + good * 2
    assert angel_decode(data, "none") == [FOUR, QH]


def test_angel_a_lone_copy_is_a_misread_with_its_guess_never_dropped() -> None:
    data = b"".join(
        angel_copies(seq, card, copies=n, check="none")
        for seq, card, n in ((1, FOUR, 3), (2, QH, 1), (3, FOUR, 3))
    )
    assert angel_decode(data, "none") == [FOUR, Misread(guess=QH.card), FOUR]


def test_angel_copies_further_apart_than_the_window_settle_late_not_unread() -> None:
    decoder = AngelDecoder(check="none")
    copy = angel_copies(1, QH, copies=1, check="none")
    got = decoder.feed(copy, 0.0) + decoder.idle(0.05) + decoder.feed(copy, 0.1)
    # 4800 baud: 100 ms between copies is within the window; two copies agreeing wait for
    # the third (it may dispute them), the line quiet, up to a second (`JAM_AFTER`)
    assert got + decoder.idle(0.3) + decoder.idle(0.6) == []
    assert decoder.idle(1.1) == [QH]
    tight = AngelDecoder(check="none", copy_window=0.05)
    got = tight.feed(copy, 0.0) + tight.idle(0.06) + tight.feed(copy, 0.1)
    assert got == [Misread(guess=QH.card)]


def test_angel_unreadable_bytes_room_for_a_whole_turn_of_the_count_raise_an_alarm() -> None:
    """A counter of 10 values: ten messages whose every copy was mangled leave the numbers
    in step (seq 3, then seq 4 a turn later); only the unreadable bytes tell."""
    mangled = bytes(b ^ 0x80 for b in b"".join(angel_copies(s, QH) for s in range(4, 14)))
    data = angel_copies(3, FOUR) + mangled + angel_copies(4, QH)
    got = angel_decode(data)
    assert got[0] == FOUR
    assert got[-1] == QH
    (alarm,) = [m for m in got if isinstance(m, ShoeAlarm)]
    assert alarm.text.startswith("seq 3 to 4: 240 unreadable bytes between them")


def test_angel_a_few_unreadable_bytes_are_no_alarm() -> None:
    damaged = bytearray(angel_copies(4, QH, copies=1))
    damaged[3] ^= 0x01  # one copy of the five of hearts fails its check
    data = angel_copies(3, FOUR) + bytes(damaged) + angel_copies(4, QH, copies=2)
    assert angel_decode(data) == [FOUR, Garbage(8), QH]


def test_angel_a_message_read_only_as_a_status_may_be_a_lost_card() -> None:
    good = angel_copies(7, QH, copies=1, check="none")
    status = bytearray(good)
    status[2] = ord("S")  # the command byte: the only copy left reads as a status
    data = angel_copies(6, FOUR, check="none") + bytes(status) + angel_copies(8, FOUR, check="none")
    got = angel_decode(data, "none")
    assert got[0] == FOUR
    assert got[-1] == FOUR
    (alarm,) = got[1:-1]
    assert isinstance(alarm, ShoeAlarm)
    assert alarm.text.startswith("seq 7: a message read only as status")
    assert alarm.text.endswith("a card may be missing")


def test_angel_an_input_ending_on_lone_copies_counts_them_by_their_numbers() -> None:
    two = CardRead(Card.parse("2C"))
    data = b"".join(
        angel_copies(seq, card, copies=n, check="none")
        for seq, card, n in ((6, FOUR, 3), (7, QH, 1), (9, two, 1))
    )
    got = angel_decode(data, "none")
    assert got == [FOUR, Misread(guess=QH.card), Misread(guess=two.card),
                   Lost(1, "1 of seq 7..8 never arrived (1 read, unnumbered)"),
                   unconfirmed_last(6, 9)]


def test_angel_statuses_and_errors() -> None:
    check = check_named("crc16-ccitt")
    assert check is not None
    data = angel.encode_frame(1, b"S", check) + angel.encode_frame(2, b"E\x07\x81", check)
    got = decode_bytes(data, "angel", check="crc16-ccitt")
    assert [type(m) for m in got] == [type(got[0]), ShoeAlarm]
    assert got[1] == ShoeAlarm("0781")


def test_bee_drops_a_repeat_without_its_mode_but_not_a_second_real_card() -> None:
    text = b" [Game]<Card:4S><Card:4S> [Game]<Card:4S> <Card:5S> "
    got = BeeDecoder().feed(text, 0.0)
    four, five = CardRead(Card.parse("4S")), CardRead(Card.parse("5S"))
    assert got == [four, four, five]


def test_bee_long_or_broken_fields_are_garbage_and_decoding_goes_on() -> None:
    text = b"[" + b"G" * 40 + b"]<Card:4S> [Game]<Card:" + b"x" * 80 + b"> [Game]<Cut>"
    got = decode_bytes(text, "bee")
    assert got[-1] == CutRead()
    assert all(isinstance(m, Garbage | CardRead) for m in got[:-1])
    assert sum(m.count for m in got if isinstance(m, Garbage)) > 100


# Regressions found by `make fuzz` (bench/fuzz_links.py), angel without a check.


def test_angel_a_frame_that_lost_its_etx_does_not_swallow_the_next_copy() -> None:
    """An alarm copy whose ETX was lost ran on to the next copy's ETX, so the message read
    only as a garbled alarm: a frame cannot hold an ENQ, so the framer starts again there."""
    broken = b"\x05\x08EE3\x11\x22"
    alarm = angel_copies(8, ShoeAlarm("E3"), copies=2, check="none")
    data = angel_copies(7, FOUR, check="none") + broken + alarm + angel_copies(9, QH, check="none")
    assert angel_decode(data, "none") == [FOUR, Garbage(len(broken)), ShoeAlarm("E3"), QH]


def test_angel_the_numbers_of_unconfirmed_messages_show_what_never_arrived() -> None:
    """Every copy alone, none confirmed: no number is believed, yet the numbers read show
    one missing (the loss used to go unsaid)."""
    read = [(124, "6H"), (126, "JC"), (127, "4H")]
    data = b"".join(angel_copies(s, CardRead(Card.parse(c)), 1, "none") for s, c in read)
    assert angel_decode(data, "none") == [
        *(Misread(guess=Card.parse(c)) for _, c in read),
        Lost(1, "1 of seq 124..127 never arrived, by the numbers read"),
        unconfirmed_last(124, 127),
    ]


def test_angel_a_whole_turn_of_unconfirmed_messages_does_not_hide_a_loss() -> None:
    """A count of ten, learned; then a whole turn of lone copies, one number missing at the
    end, before the next message believed: counted by the believed numbers alone, the turn
    hid the loss. (Cards a bit apart in a row, read once each, also raise their own alarm:
    `bit_apart_alarm`.)"""
    cards = [CardRead(c) for c in ALL_CARDS]
    data = b"".join(angel_copies(s, cards[s], check="none") for s in range(10))
    data += angel_copies(0, cards[10], check="none")
    alone = enumerate(range(1, 14), 11)
    data += b"".join(angel_copies(s % 10, cards[i], 1, "none") for i, s in alone)
    data += angel_copies(5, cards[30], check="none")
    got = [m for m in angel_decode(data, "none") if not bit_apart_alarm(m)]
    assert [m for m in got if not isinstance(m, Misread)] == [
        *cards[:11],
        Lost(1, "1 of seq 0..5 never arrived, by the numbers read"),
        cards[30],
    ]
    assert len([m for m in got if isinstance(m, Misread)]) == 13


def test_angel_a_misread_number_among_unconfirmed_ones_does_not_break_the_run() -> None:
    """Lone copies 51 to 54, the next one's number misread as 5, 56 lost, 57 believed: the
    run of numbers goes on around the misread one, so the loss is said (the message under
    5 counted as one more: a false alarm, not a silent loss)."""
    lone = [(51, "QH"), (52, "AD"), (53, "2C"), (54, "9S"), (5, "KH")]
    data = b"".join(angel_copies(s, CardRead(Card.parse(c)), 1, "none") for s, c in lone)
    data += angel_copies(57, QH, check="none")
    got = angel_decode(data, "none")
    assert got[:5] == [Misread(guess=Card.parse(c)) for _, c in lone]
    assert got[5:] == [Lost(2, "2 of seq 51..57 never arrived, by the numbers read"), QH]


def test_angel_of_two_numbers_read_for_one_message_the_one_in_the_run_is_kept() -> None:
    """The same message read under 5 and, in a second lone copy, under 55: 55 follows 54,
    so it is its number, and the one loss, 56, is said exactly."""
    lone = [(51, "QH"), (52, "AD"), (53, "2C"), (54, "9S"), (5, "KH"), (55, "KH")]
    data = b"".join(angel_copies(s, CardRead(Card.parse(c)), 1, "none") for s, c in lone)
    data += angel_copies(57, QH, check="none")
    got = angel_decode(data, "none")
    assert got[:5] == [Misread(guess=Card.parse(c)) for _, c in lone[:5]]
    assert got[5:] == [Lost(1, "1 of seq 51..57 never arrived, by the numbers read"), QH]
