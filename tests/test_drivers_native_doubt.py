"""The native link when a restart was suspected and not believed while a gap was open: a shoe
that did restart answers the old count's resend request from its new count, under a number
both counts used, so what fills that gap is no card the link can vouch for."""

from __future__ import annotations

import pytest

from drivers.messages import CutRead, Lost, Misread, ShoeAlarm
from drivers.native_receiver import NativeReceiver
from tests.test_drivers_native_link import card, heartbeat, requests, wire


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


def _dealt() -> NativeReceiver:
    """A live receiver that has delivered 0..4 and misses nothing."""
    receiver = NativeReceiver(retries=5, resend_after=0.2)
    dealt = ["4S", "JC", "AS", "3D", "7C"]
    assert len(receiver.feed(b"".join(wire(card(t), s) for s, t in enumerate(dealt)), 0.0)) == 5
    return receiver


@pytest.mark.parametrize("old_next", [wire(card("8C"), 6), heartbeat(6)], ids=["card", "heartbeat"])
def test_a_gap_opened_just_after_a_restart_was_suspected_is_in_doubt(old_next: bytes) -> None:
    """The restarted shoe's 2 first, then the old count's 6 (or its heartbeat naming 6), late,
    which opens the gap at 5: the new count answers the request for 5."""
    receiver = _dealt()
    receiver.feed(wire(card("KH"), 2), 0.1)
    receiver.feed(old_next, 0.15)
    assert requests(receiver) == [(5, 1)]
    assert receiver.feed(wire(card("QS"), 5), 0.2)[0] == Misread(card("QS").card)


def test_a_restart_suspected_by_a_heartbeat_alone_is_said_not_doubted() -> None:
    """A heartbeat behind the count that nothing confirms is said; it puts no gap in doubt
    (stale heartbeats are common on a bad line)."""
    receiver = _open_gap()
    receiver.feed(heartbeat(0), 0.1)
    receiver.feed(wire(card("9D"), 7), 0.15)
    assert receiver.feed(wire(card("QS"), 5), 0.3) == [
        card("QS"), card("8C"),
        ShoeAlarm("the shoe's heartbeat named seq 0, after 6, and nothing confirmed it: a "
                  "stale copy, or the shoe restarted and frames were lost"),
        card("9D"),
    ]


@pytest.mark.parametrize(("frame", "named"), [(CutRead(), "cut card"),
                                              (ShoeAlarm("door open"), "alarm door open")])
def test_a_cut_card_or_an_alarm_in_doubt_is_named_not_delivered(
    frame: CutRead | ShoeAlarm, named: str,
) -> None:
    """It may stand in the place of a card the old count dealt: that card may be missing."""
    receiver = _open_gap()
    receiver.feed(wire(card("KH"), 2) + wire(card("9D"), 7), 0.1)
    assert receiver.feed(wire(frame, 5), 0.2)[0] == ShoeAlarm(
        f"seq 5 ({named}) filled a gap after a restart was suspected: it may be the restarted "
        "count's, not delivered; a card may be missing")


def test_the_doubt_ends_with_its_gap_filled() -> None:
    """A gap opened later by a heartbeat, with no restart suspected since, is filled by cards."""
    receiver = _open_gap()
    receiver.feed(wire(card("KH"), 2) + wire(card("9D"), 7), 0.1)
    receiver.feed(wire(card("QS"), 5), 0.2)
    assert receiver.feed(heartbeat(10), 0.3) == []
    assert receiver.feed(wire(card("2H"), 8) + wire(card("6S"), 9), 0.35) == [
        card("2H"), card("6S")]
