"""The native link when a restart was suspected and not believed while a gap was open: a shoe
that did restart answers the old count's resend request from its new count, under a number
both counts used, so what fills that gap is no card the link can vouch for."""

from __future__ import annotations

from drivers.messages import Lost, Misread, ShoeAlarm
from drivers.native_receiver import NativeReceiver
from tests.test_drivers_native_link import card, requests, wire


def _open_gap() -> NativeReceiver:
    """A live receiver that has delivered 0..4, holds 6 and asks for 5."""
    receiver = NativeReceiver(retries=5, resend_after=0.2)
    dealt = ["4S", "JC", "AS", "3D", "7C"]
    data = b"".join(wire(card(text), seq) for seq, text in enumerate(dealt))
    assert len(receiver.feed(data + wire(card("8C"), 6), 0.0)) == 5
    assert requests(receiver) == [(5, 1)]
    return receiver


def test_a_gap_filled_after_a_restart_was_suspected_is_for_the_tailleur_to_confirm() -> None:
    """Seed 20002720 of `make fuzz`, reduced: a frame behind the count with news (a restarted
    shoe's seq 2) is not believed when the old count's next frame follows; the answer to the
    old count's request for 5 may be the new count's 5. It is delivered as a misread guessing
    its card, never as a card (it was a card invented in the place of one lost)."""
    receiver = _open_gap()
    assert receiver.feed(wire(card("KH"), 2), 0.1) == []  # behind the count: a restart?
    assert receiver.feed(wire(card("9D"), 7), 0.15) == []  # the old count goes on: not believed
    assert receiver.feed(wire(card("QS"), 5), 0.2) == [
        Misread(card("QS").card),
        card("8C"),
        ShoeAlarm("seq 2 (card KH) came behind the count, after 6, and nothing confirmed a "
                  "restart: not delivered"),
        card("9D"),
    ]

def test_without_a_restart_suspected_a_gap_is_filled_with_cards() -> None:
    receiver = _open_gap()
    assert receiver.feed(wire(card("QS"), 5), 0.1) == [card("QS"), card("8C")]


def test_the_doubt_ends_with_its_gap() -> None:
    """Once the gap is filled or given up, the next gap's frames are cards again."""
    receiver = _open_gap()
    receiver.feed(wire(card("KH"), 2) + wire(card("9D"), 7), 0.1)
    got = [message for k in range(5) for message in receiver.idle(10.0 + k)]
    assert got[0] == Lost(1, "seq 5 never arrived")
    assert receiver.feed(wire(card("2H"), 8) + wire(card("5D"), 10), 20.0) == [card("2H")]
    assert receiver.feed(wire(card("6S"), 9), 20.1) == [card("6S"), card("5D")]
