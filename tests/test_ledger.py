"""The stake ledger, rule by rule (docs/RULES.md §2, §5–7; docs/FORMATS.md (session scripts))."""

from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.cards import Card
from croupier.decisions import Action, Chance, Decision, Rejected, Settlement, SettlementLine
from croupier.events import (
    CardDrawn,
    ChoosePrison,
    CutCard,
    EndSession,
    NewShoe,
    PlaceStake,
    PrisonChoice,
    SetTable,
    Withdraw,
)
from croupier.fixtures import parse_shoe
from croupier.rulebook import InsurancePer, Rulebook, load_rulebook
from croupier.table import Table
from croupier.value import replace

R, N, C, INV = Chance.ROUGE, Chance.NOIR, Chance.COULEUR, Chance.INVERSE
BURN = "2C 3C 4C 5C 6C"
# Coups as (noir row, rouge row); the first noir card's colour decides couleur/inverse.
ROUGE_INVERSE = "TS KS KD 5C  KH KD TS AC"  # rouge 31 wins, noir starts black: inverse
NOIR_COULEUR = "TS KS KD AC  KH KD TS 7C"  # noir 31 wins, black first: couleur
ROUGE_COULEUR = "TH KS KD 7C  KH KD TS 2C"  # rouge 32 wins, red first: couleur
REFAIT = "KS KC KD AS  KH KD TS AH"
APRES = "KS KC KD 2S  KH KD TS 2H"


# Venezia's rules with amounts left unrounded and insurance bought once per stake, so that
# the mechanics show in exact amounts; the houses' own choices are tested by name.
EXACT = replace(load_rulebook("venezia"), name="exact", chip=Decimal(0),
                insurance_per=InsurancePer.STAKE)


def table(rules: str | Rulebook = EXACT, minimum: int = 10, maximum: int = 1000) -> Table:
    t = Table(load_rulebook(rules) if isinstance(rules, str) else rules)
    assert t.apply(SetTable(None, Decimal(minimum), Decimal(maximum))) == []
    deal(t, BURN)
    return t


def deal(t: Table, cards: str) -> list[Decision]:
    return [d for e in parse_shoe(cards) for d in t.apply(e)]


def stake(t: Table, seat: int, chance: Chance, amount: int | str, insured: bool = False) -> list[
    Decision
]:
    return t.apply(PlaceStake(seat, chance, Decimal(amount), insured))


def settlements(decisions: list[Decision]) -> list[Settlement]:
    return [d for d in decisions if isinstance(d, Settlement)]


def lines(decisions: list[Decision]) -> list[tuple[int, Chance, Action, Decimal | None]]:
    (settlement,) = settlements(decisions)
    return [(ln.seat, ln.chance, ln.action, ln.amount) for ln in settlement.lines]


def rejected(decisions: list[Decision]) -> str:
    (only,) = decisions
    assert isinstance(only, Rejected)
    return only.reason


def test_collections_first_then_inverse_noir_or_rouge_couleur_from_the_farthest_seat() -> None:
    t = table()
    for seat, chance in [(1, R), (2, INV), (5, INV), (3, N), (4, C), (6, C), (7, R)]:
        assert stake(t, seat, chance, 100) == []
    assert lines(deal(t, ROUGE_INVERSE)) == [
        (3, N, Action.COLLECT, 100), (6, C, Action.COLLECT, 100), (4, C, Action.COLLECT, 100),
        (5, INV, Action.PAY, 100), (2, INV, Action.PAY, 100),
        (7, R, Action.PAY, 100), (1, R, Action.PAY, 100),
    ]


def test_paid_and_collected_stakes_leave_the_layout() -> None:
    t = table()
    stake(t, 1, N, 100)
    deal(t, NOIR_COULEUR)
    assert t.ledger.stakes == []
    assert lines(deal(t, NOIR_COULEUR)) == []


def test_limits_apply_to_the_sum_of_a_seats_stakes_on_a_chance() -> None:
    t = table("france", minimum=10, maximum=1000)
    assert "below the minimum 10" in rejected(stake(t, 1, R, 5))
    assert "stake of 20000 above the maximum 1000" in rejected(stake(t, 1, R, 20000))
    assert stake(t, 1, R, 600) == []
    assert "stake of 1200 with 600 already there above the maximum" in rejected(
        stake(t, 1, R, 600))
    assert stake(t, 1, R, 400) == []
    assert lines(deal(t, ROUGE_COULEUR)) == [(1, R, Action.PAY, 1000)]


def test_the_maximum_is_at_most_1000_times_the_minimum() -> None:
    t = Table(load_rulebook("france"))
    assert "above 1000 times the minimum" in rejected(
        t.apply(SetTable(None, Decimal(1), Decimal(1001))))
    assert "below the minimum" in rejected(t.apply(SetTable(None, Decimal(10), Decimal(5))))


def test_bets_close_at_the_coups_first_card() -> None:
    t = table()
    stake(t, 1, R, 100)
    deal(t, "TS")
    before = (list(t.ledger.stakes), t.shoe.state())
    assert "bets are closed" in rejected(stake(t, 2, N, 100))
    assert "bets are closed" in rejected(t.apply(Withdraw(1, R)))
    assert (t.ledger.stakes, t.shoe.state()) == before


def test_a_withdrawal_is_answered_at_once() -> None:
    t = table()
    stake(t, 3, R, 100)
    (settlement,) = t.apply(Withdraw(3, R))
    assert settlement == Settlement(1, (SettlementLine(3, R, Decimal(100), Action.RETURN,
                                                       Decimal(100)),))
    assert "no stake on rouge" in rejected(t.apply(Withdraw(3, R)))


def test_apres_leaves_every_stake_standing_and_bets_reopen() -> None:
    t = table()
    stake(t, 1, R, 100)
    stake(t, 2, C, 50)
    assert lines(deal(t, APRES)) == [(1, R, Action.STAND, None), (2, C, Action.STAND, None)]
    assert lines(t.apply(Withdraw(1, R))) == [(1, R, Action.RETURN, 100)]
    assert lines(deal(t, ROUGE_COULEUR)) == [(2, C, Action.PAY, 50)]


def test_insurance_premium_is_one_percent_paid_when_placed() -> None:
    t = table()
    assert lines(stake(t, 2, N, 250, insured=True)) == [(2, N, Action.PREMIUM, Decimal("2.5"))]
    assert "is insured" in rejected(stake(t, 2, N, 100))
    assert lines(stake(t, 2, N, 100, insured=True)) == [(2, N, Action.PREMIUM, 1)]


def test_france_insures_only_stakes_of_ten_or_more() -> None:
    t = table("france", minimum=5, maximum=5000)
    assert "insurance needs a stake of at least 10" in rejected(stake(t, 1, R, 5, insured=True))
    # 0.1 is no chip: the premium is taken in whole euros, rounded up (docs/RULES.md §6).
    assert lines(stake(t, 1, R, 10, insured=True)) == [(1, R, Action.PREMIUM, 1)]


def test_a_rulebook_may_round_the_insured_amount_up_to_a_unit() -> None:
    swiss = replace(load_rulebook("venezia"), name="swiss", insurance_unit=Decimal(500))
    t = table(swiss)
    assert lines(t.apply(PlaceStake(1, R, Decimal(600), True))) == [(1, R, Action.PREMIUM, 10)]


def test_refait_sends_uninsured_stakes_to_prison_and_leaves_insured_ones_free() -> None:
    t = table()
    stake(t, 1, R, 100)
    stake(t, 2, N, 100, insured=True)
    (settlement,) = settlements(deal(t, REFAIT))
    assert [(ln.seat, ln.action, ln.level) for ln in settlement.lines] == [
        (1, Action.PRISON, 1), (2, Action.STAND, None)]
    assert lines(t.apply(Withdraw(2, N))) == [(2, N, Action.RETURN, 100)]
    assert "in prison" in rejected(t.apply(Withdraw(1, R)))


def test_a_prisoner_whose_chance_wins_is_freed_whole_and_one_that_loses_is_lost() -> None:
    t = table()
    stake(t, 1, R, 100)
    stake(t, 2, N, 100)
    deal(t, REFAIT)
    assert lines(deal(t, ROUGE_COULEUR)) == [(2, N, Action.COLLECT, 100), (1, R, Action.FREE, 100)]


def test_prison_levels_go_deeper_at_each_refait_and_each_level_must_be_won() -> None:
    t = table()
    stake(t, 1, R, 100)
    deal(t, REFAIT)
    (second,) = settlements(deal(t, REFAIT))
    assert second.lines[0].level == 2
    (after_win,) = settlements(deal(t, ROUGE_COULEUR))
    assert (after_win.lines[0].action, after_win.lines[0].level) == (Action.PRISON, 1)
    assert lines(deal(t, APRES)) == [(1, R, Action.STAND, None)]
    assert lines(deal(t, ROUGE_COULEUR)) == [(1, R, Action.FREE, 100)]


def test_sharing_returns_half_then_a_quarter() -> None:
    t = table()
    stake(t, 1, R, 100)
    stake(t, 2, N, 100)
    deal(t, REFAIT)
    assert lines(t.apply(ChoosePrison(1, R, PrisonChoice.SHARE))) == [(1, R, Action.SHARE, 50)]
    deal(t, REFAIT)
    assert lines(t.apply(ChoosePrison(2, N, PrisonChoice.SHARE))) == [(2, N, Action.SHARE, 25)]
    assert t.ledger.stakes == []


def test_venezia_divides_the_stake_at_the_fourth_refait_france_does_not() -> None:
    # 100 / 16 is 6.25: Venezia pays whole euros, the house keeping the odd part.
    for rules, action, amount in [("venezia", Action.SHARE, Decimal(6)),
                                  ("france", Action.PRISON, None)]:
        t = table(rules)
        stake(t, 1, R, 100)
        for _ in range(3):
            deal(t, REFAIT)
        assert lines(deal(t, REFAIT)) == [(1, R, action, amount)]


def test_keep_and_move_answer_at_once_and_a_moved_prisoner_plays_on_its_new_chance() -> None:
    t = table()
    stake(t, 4, INV, 50)
    deal(t, REFAIT)
    (keep,) = t.apply(ChoosePrison(4, INV, PrisonChoice.KEEP))
    assert [(ln.action, ln.level) for ln in keep.lines] == [(Action.PRISON, 1)]  # type: ignore[union-attr]
    (move,) = t.apply(ChoosePrison(4, INV, PrisonChoice.MOVE, C))
    assert move == Settlement(1, (SettlementLine(4, INV, Decimal(50), Action.MOVE, level=1, to=C),))
    assert lines(deal(t, ROUGE_COULEUR)) == [(4, C, Action.FREE, 50)]


def test_france_does_not_move_prisoners() -> None:
    t = table("france")
    stake(t, 4, INV, 50)
    deal(t, REFAIT)
    assert "does not allow moving" in rejected(t.apply(ChoosePrison(4, INV, PrisonChoice.MOVE, C)))


def test_prison_choices_are_open_only_after_a_refait_until_the_next_first_card() -> None:
    t = table()
    stake(t, 1, R, 100)
    assert "no prison choice is open" in rejected(t.apply(ChoosePrison(1, R, PrisonChoice.SHARE)))
    deal(t, REFAIT)
    assert "no prisoner on noir" in rejected(t.apply(ChoosePrison(1, N, PrisonChoice.SHARE)))
    assert "another chance" in rejected(t.apply(ChoosePrison(1, R, PrisonChoice.MOVE, R)))
    deal(t, "TS")
    assert "no prison choice is open" in rejected(t.apply(ChoosePrison(1, R, PrisonChoice.SHARE)))


def test_a_void_coup_returns_stakes_venezia_returns_prisoners_whole() -> None:
    t = table()
    stake(t, 1, R, 100)
    deal(t, REFAIT)
    stake(t, 2, N, 40)
    decisions = deal(t, "TS CUT")
    assert lines(decisions) == [(2, N, Action.RETURN, 40), (1, R, Action.RETURN, 100)]
    assert "bets are closed" in rejected(stake(t, 3, R, 100))


def test_france_carries_prisoners_to_the_next_shoe_and_refunds_by_level_at_the_end() -> None:
    t = table("france")
    stake(t, 1, R, 100)
    deal(t, REFAIT)
    deal(t, REFAIT)
    assert lines(deal(t, "TS CUT")) == [(1, R, Action.STAND, None)]
    t.apply(NewShoe())
    deal(t, BURN)
    assert t.ledger.stakes[0].level == 2
    carried, final = settlements(t.apply(EndSession()))
    assert [ln.action for ln in carried.lines] == [Action.STAND]
    assert lines([final]) == [(1, R, Action.SHARE, 25)]
    assert "session has ended" in rejected(t.apply(CardDrawn(Card.parse("AS"))))


def test_a_cut_card_between_coups_returns_the_stakes_placed_for_the_next() -> None:
    t = table()
    stake(t, 1, R, 100)
    assert lines(t.apply(CutCard())) == [(1, R, Action.RETURN, 100)]


def test_the_rulebook_changes_only_between_shoes_with_a_clear_layout() -> None:
    t = table()
    france = load_rulebook("france")
    assert "only between shoes" in rejected(t.apply(SetTable(france)))
    fresh = Table(load_rulebook("venezia"))
    assert fresh.apply(SetTable(france)) == []
    assert fresh.shoe.rulebook.name == "france"


def test_seats_count_from_one_and_stakes_are_positive() -> None:
    t = table()
    assert "seats count from 1" in rejected(stake(t, 0, R, 100))
    assert "more than 0" in rejected(stake(t, 1, R, -5))


@pytest.mark.parametrize("amount", ["10.5", "1.25"])
def test_money_is_exact(amount: str) -> None:
    t = table(minimum=1, maximum=1000)
    stake(t, 1, R, 1)
    stake(t, 2, N, amount)
    deal(t, REFAIT)
    deal(t, REFAIT)
    deal(t, REFAIT)
    (settlement,) = settlements(deal(t, REFAIT))
    shares = [ln.amount for ln in settlement.lines]
    assert shares == [Decimal(amount) / 16, Decimal(1) / 16]
    assert all(isinstance(share, Decimal) for share in shares)


def test_limits_change_only_while_bets_are_open_and_never_under_a_standing_stake() -> None:
    t = table(maximum=10000)
    stake(t, 1, R, 5000)
    deal(t, "KS")
    assert "only while bets are open" in rejected(
        t.apply(SetTable(None, Decimal(10), Decimal(1000))))
    deal(t, "KC KD 2S  KH KD TS 2H")  # après: the stake stands
    assert "above the new maximum" in rejected(t.apply(SetTable(None, Decimal(10),
                                                                Decimal(1000))))
    t.apply(Withdraw(1, R))
    assert t.apply(SetTable(None, Decimal(10), Decimal(1000))) == []


def test_rien_ne_va_plus_does_not_outlive_the_shoe() -> None:
    from croupier.events import CloseBets

    t = table()
    t.apply(CloseBets())
    deal(t, "CUT 2D 3D 4D 5D 6D")
    t.apply(NewShoe())
    deal(t, BURN)
    assert t.bets_open
    assert stake(t, 1, R, 100) == []
