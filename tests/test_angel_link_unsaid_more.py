"""Angel without a check: more losses the decoder used to leave unsaid (`make fuzz` seeds
10,120,000 to 10,199,999), rebuilt from real frames."""

from __future__ import annotations

from croupier.cards import Card
from drivers.angel_link import AngelDecoder
from drivers.messages import CardRead, Garbage, Lost, Message
from tests.test_angel_link_copies import copies, guessed


def card(name: str) -> Message:
    return CardRead(Card.parse(name))


def test_a_cards_copy_short_of_its_check_bytes_when_the_line_goes_quiet_is_read() -> None:
    """5C's one copy to arrive lost its last check byte and the line went quiet (seed
    10174192, live): without a check to verify, nothing read was missing, yet the frame was
    dropped as incomplete. With a check, it cannot be verified and is still dropped."""
    for check, middle in [
        ("none", guessed("5C")),
        ("crc16-ccitt", [Garbage(7), Lost(1, "seq 65 never arrived")]),
    ]:
        decoder = AngelDecoder(check=check)
        got = decoder.feed(copies(64, "4S", 3), 0.0) + decoder.feed(copies(65, "5C")[:-1], 0.01)
        got += decoder.idle(0.6) + decoder.feed(copies(66, "9D", 3), 0.6) + decoder.finish()
        assert got == [card("4S"), *middle, card("9D")]
