"""Angel without a check: a card believed after a first copy read as a failed read waits for
the copies after it (seed 10044700 of `make fuzz`), and is never dropped while it waits
(a second reader's cases), on built frames."""

from __future__ import annotations

from croupier.cards import Card
from drivers.messages import CardRead, Garbage, Lost, Message, Misread, ShoeAlarm
from tests.test_angel_link_copies import copies, guessed
from tests.test_drivers_dialect_rules import angel_decode

HEAD = copies(29, "3C", 3)
FAILED_JC = copies(30, "JC", card_byte=0x70)  # JC's first copy read as a failed read


def read(data: bytes) -> list[Message]:
    return [m for m in angel_decode(data, "none") if not isinstance(m, Garbage)]


def said(got: list[Message], card: str) -> bool:
    """Whether `card` was delivered, as a card or as a misread guessing it."""
    sent = Card.parse(card)
    return any(
        (isinstance(m, CardRead) and m.card == sent) or (isinstance(m, Misread) and m.guess == sent)
        for m in got
    )


def test_a_card_beside_a_failed_read_before_a_number_skipped_is_a_misread() -> None:
    """Under 30 a failed read, then two copies of JC, then nothing under 31 (seed 10044700: the
    failed read sent under 30, JC's copies misnumbered from 31 alike, its third lost). A
    failed read is one damage from any card: JC may be the next message, so it is a misread
    guessing it, and the loss is said before the next card believed, whichever was lost."""
    got = read(HEAD + FAILED_JC + copies(30, "JC", 2) + copies(32, "QS", 3) + copies(33, "6H", 3))
    lost = Lost(1, "1 of seq 30..31 never arrived (1 read, unnumbered)")
    assert got[1:3] == [*guessed("JC"), lost]


def test_a_card_beside_a_failed_read_is_believed_if_next_in_step_or_read_first() -> None:
    """The next number after it, or the failed read after the card's own copies (a damaged
    copy of the card, the likelier): JC is believed, as before."""
    for under, after in (
        (FAILED_JC + copies(30, "JC", 2), 31),
        (copies(30, "JC", 2) + FAILED_JC, 32),
    ):
        data = HEAD + under + copies(after, "QS", 3) + copies(33, "6H", 3)
        assert read(data)[1] == CardRead(Card.parse("JC"))


def test_a_card_held_beside_a_failed_read_is_delivered_before_another_message_believed() -> None:
    """JC held behind its failed read (on two or three intact copies), then 5D's copies under
    30 too, two of them numbered alike: 5D reaching its votes in the same group must not take
    JC's place unsaid (a second reader's case: JC was lost silently)."""
    for intact in (2, 3):
        data = HEAD + FAILED_JC + copies(30, "JC", intact) + copies(30, "5D", 2)
        got = read(data + copies(31, "5D") + copies(32, "6H", 3))
        assert got[:2] == [CardRead(Card.parse("3C")), CardRead(Card.parse("JC"))]
        assert said(got, "5D")
        assert got[-1] == CardRead(Card.parse("6H"))


def test_a_card_held_beside_a_failed_read_is_delivered_before_a_restart() -> None:
    """The shoe restarts after JC (5D under 30 again, 6H 31): JC, held, is delivered, then
    the restart is said."""
    data = HEAD + FAILED_JC + copies(30, "JC", 2) + copies(30, "5D", 3) + copies(31, "6H", 3)
    got = read(data)
    assert got[:2] == [CardRead(Card.parse("3C")), CardRead(Card.parse("JC"))]
    assert isinstance(got[2], ShoeAlarm)
    assert got[3:] == [CardRead(Card.parse("5D")), CardRead(Card.parse("6H"))]


def test_a_card_held_beside_a_failed_read_survives_a_restart_of_a_digit_counter() -> None:
    """A counter of ASCII digits: 3C under '9', JC under '0' (its first copy a failed read),
    the shoe restarts: 5D under '0', 6H under '1'. Every card sent is said."""
    names = ["2D", "TS", "6C", "QC", "7C", "5H", "2C", "AC", "8H", "3C"]
    data = b"".join(copies(0x30 + at, card, 3) for at, card in enumerate(names))
    data += copies(0x30, "JC", card_byte=0x70) + copies(0x30, "JC", 2)
    got = read(data + copies(0x30, "5D", 3) + copies(0x31, "6H", 3))
    assert all(said(got, card) for card in [*names, "JC", "5D", "6H"])
    assert not any(isinstance(m, Lost) for m in got)


def test_a_failed_read_read_alike_on_more_copies_than_a_card_beside_it_is_said() -> None:
    """The bytes of seed 30020677's capture, as received, up to TC under 119: 2S's only copy
    to frame, its number and card byte each damaged once, read as TS under 117 (its
    intact copy swallowed by that frame's missing check byte), then the failed read sent
    under 117, its copies read under 53 and 117. Their numbers apart, no copy got its votes,
    and all were one misread guessing TS: the failed read went unsaid. Read alike on two
    copies, against the card's one, it is a message of its own, said after the card's."""
    data = bytes.fromhex(
        "057544303a03ad057444303203dea90574303003deed05754430307003c09f053544307003c09f0575"
        "44307003c09f9f0576444430270371510576b00371515105764430a7037151057744302a0305f74430"
        "3a03c479254444303a03c4790578"
    )
    got = read(data)
    assert got[:4] == [*guessed("TS"), Misread(), *guessed("7C", "TC")]
