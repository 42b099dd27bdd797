"""Angel without a check: a lone or outvoted copy is a misread with its guess, never a
silent drop, whatever it resembles (cases a reviewer built from real frames)."""

from __future__ import annotations

from croupier.cards import Card
from drivers.angel_link import AngelDecoder
from drivers.messages import CardRead, Message, Misread, ShoeAlarm
from tests.test_angel_link_copies import copies, guessed
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
