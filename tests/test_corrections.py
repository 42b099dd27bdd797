"""The chef de table's corrections, as the table engine applies and replays them."""

from __future__ import annotations

from decimal import Decimal

from croupier.cards import Card
from croupier.decisions import (
    Action,
    BetsChanged,
    CardVoided,
    Chance,
    Corrected,
    CoupDecided,
    CoupRetracted,
    CoupVoided,
    Decision,
    EndReason,
    Rejected,
    Settlement,
    ShoeEnded,
    VoidReason,
)
from croupier.engine import Phase
from croupier.events import (
    CloseBets,
    CorrectCard,
    EndShoe,
    PlaceStake,
    ReopenBets,
    VoidCard,
    VoidCoup,
)
from croupier.fixtures import parse_shoe
from croupier.rulebook import load_rulebook
from croupier.table import Table

BURN = "2C 3C 4C 5C 6C"


def table() -> Table:
    t = Table(load_rulebook("venezia"))
    deal(t, BURN)
    return t


def deal(t: Table, cards: str) -> list[Decision]:
    return [d for e in parse_shoe(cards) for d in t.apply(e)]


def of(kind: type, decisions: list[Decision]) -> list[Decision]:
    return [d for d in decisions if isinstance(d, kind)]


def test_correcting_a_card_of_the_coup_being_dealt() -> None:
    t = table()
    deal(t, "KS KC")
    decisions = t.apply(CorrectCard(Card.parse("KD"), "chef", "camera misread"))
    assert decisions[0] == Corrected("correct_card", "chef", "camera misread", "KC read as KD")
    assert t.shoe.state().noir == (Card.parse("KS"), Card.parse("KD"))
    assert t.shoe.state().noir_point == 20


def test_correcting_the_card_that_decided_a_coup_retracts_and_re_decides_it() -> None:
    t = table()
    t.apply(PlaceStake(1, Chance.ROUGE, Decimal(100)))
    first = deal(t, "TS KS KD 5C  KH KD TS AC")  # rouge 31 wins
    assert of(CoupDecided, first)[0].result.value == "rouge"  # type: ignore[attr-defined]
    decisions = t.apply(CorrectCard(Card.parse("9C"), "chef", "shoe misread the ace"))
    assert of(CoupRetracted, decisions) == [CoupRetracted(1)]
    (coup,) = of(CoupDecided, decisions)
    assert (coup.noir_point, coup.rouge_point) == (35, 39)  # type: ignore[attr-defined]
    (settlement,) = of(Settlement, decisions)
    assert [ln.action for ln in settlement.lines] == [Action.COLLECT]  # type: ignore[attr-defined]


def test_a_card_someone_acted_on_cannot_be_corrected() -> None:
    t = table()
    deal(t, "TS KS KD 5C  KH KD TS AC")
    t.apply(PlaceStake(1, Chance.ROUGE, Decimal(100)))
    before = t.shoe.state()
    (rejected,) = t.apply(CorrectCard(Card.parse("9C"), "chef", "late"))
    assert isinstance(rejected, Rejected)
    assert t.shoe.state() == before


def test_correcting_to_the_same_card_or_with_no_card_is_rejected() -> None:
    t = Table(load_rulebook("venezia"))
    assert isinstance(t.apply(CorrectCard(Card.parse("AS"), "chef", "x"))[0], Rejected)
    deal(t, "AS")
    assert isinstance(t.apply(CorrectCard(Card.parse("AS"), "chef", "x"))[0], Rejected)


def test_voiding_the_coup_returns_its_stakes_and_the_next_card_opens_a_new_coup() -> None:
    t = table()
    t.apply(PlaceStake(3, Chance.NOIR, Decimal(50)))
    deal(t, "KS KC")
    decisions = t.apply(VoidCoup("chef", "cards exposed"))
    assert of(CoupVoided, decisions) == [CoupVoided(1, VoidReason.CHEF)]
    (settlement,) = of(Settlement, decisions)
    assert [(ln.seat, ln.action) for ln in settlement.lines] == [(3, Action.RETURN)]  # type: ignore[attr-defined]
    assert t.bets_open
    (coup,) = of(CoupDecided, deal(t, "TS KS KD 5C  KH KD TS AC"))
    assert coup.number == 2  # type: ignore[attr-defined]


def test_void_coup_needs_a_coup_on_the_table() -> None:
    t = table()
    assert isinstance(t.apply(VoidCoup("chef", "x"))[0], Rejected)


def test_ending_the_shoe_closes_it_and_returns_the_stakes() -> None:
    t = table()
    t.apply(PlaceStake(1, Chance.ROUGE, Decimal(100)))
    decisions = t.apply(EndShoe("chef", "marked cards"))
    assert isinstance(decisions[0], Corrected)
    assert of(ShoeEnded, decisions)[0].reason is EndReason.CHEF  # type: ignore[attr-defined]
    assert t.shoe.phase is Phase.CLOSED
    assert t.ledger.stakes == []


def test_rien_ne_va_plus_closes_bets_and_only_the_chef_reopens_them() -> None:
    t = table()
    assert t.apply(CloseBets()) == [BetsChanged(open=False)]
    assert isinstance(t.apply(PlaceStake(1, Chance.ROUGE, Decimal(100)))[0], Rejected)
    assert isinstance(t.apply(CloseBets())[0], Rejected)
    decisions = t.apply(ReopenBets("chef", "closed too early"))
    assert decisions[-1] == BetsChanged(open=True)
    assert t.apply(PlaceStake(1, Chance.ROUGE, Decimal(100))) == []
    assert isinstance(t.apply(ReopenBets("chef", "again"))[0], Rejected)


def test_bets_reopen_by_themselves_after_the_coup() -> None:
    t = table()
    t.apply(CloseBets())
    deal(t, "TS KS KD 5C  KH KD TS AC")
    assert t.bets_open


def test_replaying_a_log_with_corrections_rebuilds_the_same_table() -> None:
    t = table()
    t.apply(PlaceStake(1, Chance.ROUGE, Decimal(100)))
    deal(t, "TS KS KD 5C  KH KD TS AC")
    t.apply(CorrectCard(Card.parse("9C"), "chef", "misread"))
    deal(t, "KS KC")
    t.apply(VoidCoup("chef", "dropped"))
    again = Table(load_rulebook("venezia"))
    for event in t.log:
        again.apply(event)
    assert again.shoe.state() == t.shoe.state()
    assert again.ledger.stakes == t.ledger.stakes
    assert again.log == t.log


def test_voiding_the_card_that_decided_a_coup_re_opens_and_re_decides_it() -> None:
    t = table()
    t.apply(PlaceStake(1, Chance.ROUGE, Decimal(100)))
    deal(t, "TS KS KD 5C  KH KD TS AC")  # the ace decides: rouge 31
    decisions = t.apply(VoidCard())
    assert of(CoupRetracted, decisions) == [CoupRetracted(1)]
    assert of(CardVoided, decisions) == [CardVoided(Card.parse("AC"))]
    assert t.shoe.phase is Phase.ROUGE
    assert t.ledger.stakes[0].chance is Chance.ROUGE  # the stake is back on the layout
    assert isinstance(t.apply(VoidCard())[0], Rejected)  # the same card is not voided twice
    (coup,) = of(CoupDecided, deal(t, "9C"))
    assert (coup.rouge_point, coup.voided) == (39, (Card.parse("AC"),))  # type: ignore[attr-defined]
