"""Rules of the dialects that the documented examples do not pin down on their own: the
check algorithms' reference values, angel's votes and sequence gaps, bee's repeats."""

from __future__ import annotations

import pytest

from croupier.cards import Card
from drivers import angel
from drivers.bee import BeeDecoder
from drivers.checks import CHECKS, check_named
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
    algorithm = check_named(check)
    assert algorithm is not None
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
    bad[4] ^= 0x01
    data = bytes(bad) + angel_copies(1, QH, copies=2) + angel_copies(2, FOUR, copies=1)
    # QH: two copies agree over one corrupted; 4S: one lone copy, so only a guess
    assert decode_bytes(data, "angel") == [QH, Misread(guess=FOUR.card)]


def test_angel_reports_a_run_of_missing_sequence_numbers() -> None:
    data = angel_copies(250, QH) + angel_copies(3, CutRead())  # 251..255, 0..2 missing
    got = decode_bytes(data, "angel", check="crc16-ccitt")
    assert got == [QH, Lost(8, "8 message(s) before seq 3 never arrived"), CutRead()]


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
