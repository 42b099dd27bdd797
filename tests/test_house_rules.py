"""Issue 13: the money a croupier pays or takes, rule by rule, each test quoting its source.

The sources are quoted as docs/RULES.md quotes them: the Casinò di Venezia's rules, the
French arrêté of 1959 (Art. 56), a Swiss casino's rules. Where a source leaves a reading
open the rulebook chooses, and the test says which rulebook key decides.
"""

from __future__ import annotations

from decimal import Decimal

from croupier.decisions import Action
from croupier.events import (
    ChoosePrison,
    CloseBets,
    PlaceStake,
    PrisonChoice,
    ReopenBets,
    SetTable,
    Withdraw,
)
from croupier.ledger import Ledger, Stake
from croupier.rulebook import MaximumRule, PrisonLimitCounts, load_rulebook
from croupier.table import Table
from croupier.value import replace
from tests.test_ledger import (
    APRES,
    BURN,
    INV,
    REFAIT,
    ROUGE_COULEUR,
    C,
    N,
    R,
    deal,
    lines,
    rejected,
    settlements,
    stake,
    table,
)

VENEZIA, FRANCE = load_rulebook("venezia"), load_rulebook("france")


# -- 1. A set-up that is refused deals nothing -------------------------------------------


def test_venezia_sets_no_ratio_between_its_limits() -> None:
    """Venezia, General rules: "The minimum and maximum stakes are indicated on the
    individual tables using appropriate signs." No ratio: `maximum_ratio = "none"`."""
    t = Table(VENEZIA)
    assert t.apply(SetTable(None, Decimal(5), Decimal(10000))) == []
    assert (t.ledger.minimum, t.ledger.maximum) == (5, 10000)


def test_a_refused_set_up_takes_nothing_until_a_valid_one() -> None:
    """France (2007, Art. 55 as digested): the maximum is at most 1000 times the minimum.
    A table refused its set-up has no rules to deal by: it takes no stake and no card."""
    t = Table(VENEZIA)
    assert "above 1000 times the minimum" in rejected(
        t.apply(SetTable(FRANCE, Decimal(5), Decimal(10000))))
    assert "nothing is accepted until a valid table set-up" in rejected(
        stake(t, 1, R, 5, insured=True))
    assert not t.bets_open
    assert "set-up was refused" in rejected(deal(t, "2C"))
    assert t.shoe.state().burned == 0
    # Not left on venezia's rules either: once set up as asked, France's own apply.
    assert t.apply(SetTable(FRANCE, Decimal(5), Decimal(5000))) == []
    deal(t, BURN)
    assert "insurance needs a stake of at least 10" in rejected(stake(t, 1, R, 5, insured=True))


def test_rules_that_cannot_be_read_refuse_the_set_up() -> None:
    t = Table(VENEZIA)
    assert "no rulebook named" in rejected(
        t.apply(SetTable(None, Decimal(10), Decimal(100), "no rulebook named 'monaco'")))
    assert "set-up was refused" in rejected(deal(t, "2C"))


def test_a_mistimed_set_up_keeps_the_one_in_force() -> None:
    t = table(VENEZIA)
    stake(t, 1, R, 100)
    deal(t, "TS")
    assert "only while bets are open" in rejected(t.apply(SetTable(None, Decimal(20))))
    assert t.ledger.refused is None
    assert t.ledger.minimum == 10


def test_a_ratio_of_0_means_none_like_every_other_0() -> None:
    t = Table(replace(FRANCE, maximum_ratio=0))
    assert t.apply(SetTable(None, Decimal(1), Decimal(1000000))) == []


def test_a_house_may_want_the_maximum_equal_to_the_ratio() -> None:
    """France (2007, Art. 55): read as "at most" by default; `maximum_rule = "equal"`."""
    t = Table(replace(FRANCE, maximum_rule=MaximumRule.EQUAL))
    assert "is not 1000 times the minimum" in rejected(
        t.apply(SetTable(None, Decimal(10), Decimal(5000))))
    assert t.apply(SetTable(None, Decimal(10), Decimal(10000))) == []


# -- 2. A stake over the maximum ----------------------------------------------------------


def test_venezia_plays_the_maximum_and_returns_the_excess() -> None:
    """Venezia, General rules: "Any excess wins made by surpassing the maximum limit will
    not be paid and the difference in the stake will be returned to the customer."
    (`above_maximum = "play_maximum"`)"""
    t = table(VENEZIA, minimum=10, maximum=10000)
    assert lines(stake(t, 1, R, 250000)) == [(1, R, Action.RETURN, 240000)]
    assert "already has the maximum 10000" in rejected(stake(t, 1, R, 50))
    assert lines(deal(t, ROUGE_COULEUR)) == [(1, R, Action.PAY, 10000)]


def test_france_refuses_a_stake_over_the_maximum_whole() -> None:
    """House practice (`above_maximum = "refuse"`): the French texts do not say."""
    t = table(FRANCE, minimum=10, maximum=1000)
    assert "above the maximum 1000" in rejected(stake(t, 1, R, 1500))
    assert t.ledger.stakes == []


# -- 3. Prison choices after "rien ne va plus" --------------------------------------------


def test_no_prison_choice_after_rien_ne_va_plus() -> None:
    """Venezia, The Cards: betting finishes when the steward says "Messieurs les jeux sont
    faites, rien ne va plus". "From this moment on, players cannot withdraw, shift or place
    any more bets." Swiss rules: "From the moment the first card is turned over, players
    cannot withdraw, shift or place any more bets." """
    t = table(VENEZIA)
    stake(t, 1, R, 100)
    deal(t, REFAIT)
    t.apply(CloseBets())
    assert "rien ne va plus" in rejected(t.apply(ChoosePrison(1, R, PrisonChoice.MOVE, N)))
    assert "rien ne va plus" in rejected(t.apply(ChoosePrison(1, R, PrisonChoice.SHARE)))
    t.apply(ReopenBets("chef", "called too early"))
    assert lines(t.apply(ChoosePrison(1, R, PrisonChoice.SHARE))) == [(1, R, Action.SHARE, 50)]


# -- 4. No stakes during the burn ---------------------------------------------------------


def test_bets_open_only_once_the_five_cards_are_burned() -> None:
    """Venezia, The Cards: "The game begins, after the first five cards have been
    eliminated, 'Messieurs les cinq cartes', when the steward announces, 'Messieurs faites
    vos jeux'." Swiss rules: "the first 5 cards dealt are discarded (burnt) face down in the
    basket. Betting begins when the steward calls 'Messieurs, faites vos jeux'." """
    t = Table(VENEZIA)
    t.apply(SetTable(None, Decimal(10), Decimal(1000)))
    deal(t, "2C 3C 4C 5C")
    assert not t.bets_open
    assert "after the burn" in rejected(stake(t, 1, R, 100))
    deal(t, "6C")
    assert t.bets_open
    assert stake(t, 1, R, 100) == []


def test_with_no_burn_bets_open_at_once() -> None:
    t = Table(replace(VENEZIA, burn_cards=0))
    assert t.bets_open
    assert stake(t, 1, R, 100) == []


# -- 5. Amounts a chip can pay ------------------------------------------------------------


def test_premiums_and_shares_are_whole_chips_rounded_as_the_house_says() -> None:
    """House practice (`chip`, `premium_rounding`, `share_rounding`): no text names the
    smallest chip. Venezia: 1 €, the house keeping the odd part of premiums and shares."""
    t = table(VENEZIA, minimum=1)
    assert lines(stake(t, 1, R, 15, insured=True)) == [(1, R, Action.PREMIUM, 1)]  # not 0.15
    assert lines(stake(t, 2, N, 33, insured=True)) == [(2, N, Action.PREMIUM, 1)]  # not 0.33
    t.apply(Withdraw(1, R))
    t.apply(Withdraw(2, N))
    stake(t, 3, C, 15)
    for _ in range(3):
        deal(t, REFAIT)
    assert lines(deal(t, REFAIT)) == [(3, C, Action.SHARE, 0)]  # 15/16 = 0.9375


def test_a_house_may_give_the_odd_part_to_the_player() -> None:
    t = table(load_rulebook("lac"), minimum=5)
    stake(t, 3, C, 15)
    deal(t, REFAIT)
    assert lines(t.apply(ChoosePrison(3, C, PrisonChoice.SHARE))) == [(3, C, Action.SHARE, 8)]


def test_swiss_insurance_covers_whole_units_of_500_and_no_more_than_is_at_risk() -> None:
    """Swiss rules: "Players can insure stakes against a '31 après' by paying the bank 1%
    on a minimum of 500 chf (and multiples of) per combination." A 700 stake insures 500
    for 5, not 1000 for 10 (`insured_rounding = "down"`); the refait leaves the 500
    standing and sends the 200 to prison."""
    t = table(load_rulebook("suisse"), minimum=10, maximum=5000)
    assert lines(stake(t, 1, R, 700, insured=True)) == [(1, R, Action.PREMIUM, 5)]
    assert "at least 500" in rejected(stake(t, 2, N, 400, insured=True))
    (settled,) = settlements(deal(t, REFAIT))
    assert [(ln.stake, ln.action) for ln in settled.lines] == [
        (200, Action.PRISON), (500, Action.STAND)]


# -- 6. Readings the sources leave open, as rulebook choices ------------------------------


def test_venezia_insures_per_coup_france_per_stake() -> None:
    """Venezia, 31 Après: "At every hand in the round, to avoid losing half their stake
    as the result of a '31 Après' players can 'insure' stakes". Art. 56 (1959): the
    premium is paid "lors du dépôt de l'enjeu", when the stake is placed."""
    venezia, france = table(VENEZIA), table(FRANCE)
    for t in (venezia, france):
        stake(t, 1, INV, 200, insured=True)
    assert lines(deal(venezia, APRES)) == [(1, INV, Action.PREMIUM, 2), (1, INV, Action.STAND,
                                                                         None)]
    assert lines(deal(france, APRES)) == [(1, INV, Action.STAND, None)]
    # The premium bought for a coup not played goes back with the stake withdrawn.
    assert lines(venezia.apply(Withdraw(1, INV))) == [(1, INV, Action.RETURN, 202)]
    assert lines(france.apply(Withdraw(1, INV))) == [(1, INV, Action.RETURN, 200)]


def test_venezia_counts_three_refaits_in_a_row_not_prison_levels() -> None:
    """Venezia, 31 Après: "There is a limit of three consecutive Après hands. At the
    fourth Après the sum left in play is divided." (`prison_limit_counts`)"""
    by_levels = replace(VENEZIA, prison_limit_counts=PrisonLimitCounts.LEVELS)
    outcomes = []
    for book in (VENEZIA, by_levels):
        t = table(book)
        stake(t, 1, R, 160)
        deal(t, REFAIT)
        deal(t, REFAIT)
        deal(t, ROUGE_COULEUR)  # level 2 won once: level 1, and the run of refaits is over
        deal(t, REFAIT)
        deal(t, REFAIT)
        outcomes.append(lines(deal(t, REFAIT)))  # level 4, the third refait in a row
    assert outcomes == [[(1, R, Action.PRISON, None)], [(1, R, Action.SHARE, 10)]]


def test_the_count_is_the_prisoners_own_not_the_tables() -> None:
    t = table(VENEZIA)
    for _ in range(3):
        deal(t, REFAIT)
    stake(t, 2, N, 80)  # staked after three refaits in a row: its first is the fourth
    assert lines(deal(t, REFAIT)) == [(2, N, Action.PRISON, None)]


def test_venezia_returns_prisoners_when_the_shoe_runs_out_not_when_it_is_reshuffled() -> None:
    """Venezia, General rules: players may "withdraw the entire value of their stakes if
    after the first '31 Après' the round (coup) ends because there are no cards left";
    but cards turned face up three times suspend the coup and "the cards are reshuffled",
    and play goes on (`prisoners_at_shoe_end`, `prisoners_at_reshuffle`)."""
    prisoner = Stake(1, 1, R, Decimal(100), level=1)
    ran_out, reshuffled = Ledger(VENEZIA), Ledger(VENEZIA)
    ran_out.stakes = reshuffled.stakes = [prisoner]
    run_out = ran_out.end_of_shoe(3, voided=False, reshuffle=False)
    again = reshuffled.end_of_shoe(3, voided=False, reshuffle=True)
    assert run_out is not None
    assert again is not None
    assert [(ln.action, ln.amount) for ln in run_out.lines] == [(Action.RETURN, 100)]
    assert [ln.action for ln in again.lines] == [Action.STAND]
    assert reshuffled.stakes == [prisoner]


def test_a_placement_applies_the_rules_of_the_stake_it_adds_to() -> None:
    t = table(VENEZIA)
    assert lines(t.apply(PlaceStake(1, R, Decimal(100), True))) == [(1, R, Action.PREMIUM, 1)]
    assert lines(t.apply(PlaceStake(1, R, Decimal(150), True))) == [(1, R, Action.PREMIUM, 2)]
