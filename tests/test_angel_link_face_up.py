"""Angel without a check: a card's face-up bit flipped alone disputes nothing and makes no
other message, and a card resting on two copies beside the next message's copy is not
taken as read (`make fuzz` seeds 10,000,000 to 10,199,999, rebuilt from real frames)."""

from __future__ import annotations

from croupier.cards import Card
from drivers import angel
from drivers.checks import crc16_ccitt
from drivers.messages import CardRead, CutRead, Message
from tests.test_angel_link_copies import copies, guessed
from tests.test_drivers_dialect_rules import angel_decode


def card(name: str, face_up: bool = False) -> Message:
    return CardRead(Card.parse(name), face_up)


def face_up(seq: int, name: str, count: int = 1) -> bytes:
    """`count` copies of a card dealt face down under `seq`, their face-up bit flipped."""
    byte = angel.card_byte(Card.parse(name), face_up=True)
    return copies(seq, name, count, card_byte=byte)


def test_a_late_copy_with_its_face_up_bit_flipped_is_no_other_card() -> None:
    """6C believed under 55, then late copies of it under 51 (its face-up bit flipped too)
    and 54 (seed 10021284, a count of 48 to 63): the first was delivered as a misread, and
    the second, no longer reading as the message just delivered, as another one; a card
    dealt once came out three times."""
    data = copies(54, "3D", 3) + copies(55, "6C", 3) + face_up(51, "6C") + copies(54, "6C")
    data += copies(56, "5H", 3)
    assert angel_decode(data, "none", seq_range=(48, 63)) == [card("3D"), card("6C"), card("5H")]


def test_a_card_believed_face_up_and_down_under_one_number_is_one_message() -> None:
    """QD dealt face down, its frames doubled under 93, two of the copies with the face-up
    bit flipped alike (seeds 10038595, 10046159): QD was delivered twice, face up then
    down, with an alarm that the count restarted. Two copies each way up say nothing of
    which way it came out, which the engine acts on: the tailleur confirms it. A single
    copy the other way up disputes nothing."""
    tie = face_up(93, "QD", 2) + copies(93, "QD", 2)
    for middle in (tie, copies(93, "QD") + face_up(93, "QD", 2) + copies(93, "QD")):
        data = copies(92, "7H", 3) + middle + copies(94, "TS", 3)
        assert angel_decode(data, "none") == [card("7H"), *guessed("QD"), card("TS")]
    data = copies(92, "7H", 3) + copies(93, "QD", 2) + face_up(93, "QD") + copies(94, "TS", 3)
    assert angel_decode(data, "none") == [card("7H"), card("QD"), card("TS")]


def test_a_card_on_two_copies_beside_the_next_messages_copy_is_a_misread() -> None:
    """Under 96 two copies read 4C and a third the cut card, which is read again under 97:
    the cut card's copy misnumbered took the place of the card's own third copy, so the
    card rests on two copies that two damaged alike make (seed 10019754: QC's copies both
    read 4C, the third lost; 4C was taken as read, QC lost unsaid). The tailleur confirms
    the card."""
    cut = angel.message_data(CutRead())
    data = copies(95, "KD", 3) + copies(96, "4C", 2) + angel.encode_frame(96, cut, crc16_ccitt)
    data += angel.encode_frame(97, cut, crc16_ccitt) * 2 + copies(98, "3H", 3)
    assert angel_decode(data, "none") == [card("KD"), *guessed("4C"), CutRead(), card("3H")]
    # with its own third copy read, the card stands
    data = copies(95, "KD", 3) + copies(96, "4C", 3) + angel.encode_frame(96, cut, crc16_ccitt)
    data += angel.encode_frame(97, cut, crc16_ccitt) * 2 + copies(98, "3H", 3)
    assert angel_decode(data, "none") == [card("KD"), card("4C"), CutRead(), card("3H")]
