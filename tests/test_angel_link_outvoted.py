"""Angel without a check: a lone or outvoted copy is a misread with its guess, never a
silent drop, whatever it resembles (cases a reviewer built from real frames)."""

from __future__ import annotations

from croupier.cards import Card
from drivers.angel_link import AngelDecoder
from drivers.messages import CardRead, Message, Misread, ShoeAlarm
from tests.test_angel_link_copies import copies, guessed


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
