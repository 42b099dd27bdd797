"""The gate between the shoe and the table when a camera witnesses: what it plays, when."""

from __future__ import annotations

from app.witnessing import WitnessGate
from croupier.decisions import Alarm, CoupDecided, Decision
from croupier.events import CardDrawn
from croupier.witness import Layout
from drivers.serial_shoe import Batch
from tests.test_witness import _cards, _shoe


def test_a_switched_card_in_the_second_coup_of_a_batch_is_alarmed_before_its_call() -> None:
    """The shoe's link delivers two whole coups at once; on the baize, the second coup's
    last card is another. The alarm comes before either coup is decided, and the batch is
    played whole after it (it is journaled whole, with the link's position)."""
    shoe = _shoe()
    played: list[Decision] = []

    def apply(batch: Batch) -> list[Decision]:
        decisions = [d for event in batch.events for d in shoe.apply(event)]
        played.extend(decisions)
        return decisions

    gate = WitnessGate(apply, lambda: shoe, patience=10)
    cards = _cards("KD QH JS 5C KS QD 9H 3C TS 8D 7H 6C JD TH 9C 4S")
    assert gate.offer(Batch(tuple(CardDrawn(c) for c in cards), 7)) == []
    gate.look(Layout(0, _cards("KD QH JS 5C"), _cards("KS QD 9H 3C")))
    assert played == []  # the first coup is witnessed, the second not yet laid
    gate.look(Layout(1))
    gate.look(Layout(1, _cards("TS 8D 7H 6C"), _cards("JD TH 9C 4H")))
    kinds = [type(d) for d in played]
    first_call = kinds.index(CoupDecided)
    alarms = [d.message for d in played[:first_call] if isinstance(d, Alarm)]
    assert alarms == [
        "camera witness: coup 2, the rouge row's 4th card: the shoe read 4S, the baize shows 4H"
    ]
    assert [d.number for d in played if isinstance(d, CoupDecided)] == [1, 2]
    assert not gate.holding
