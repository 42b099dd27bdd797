"""Invariants of the ledger over random sessions (hypothesis)."""

from __future__ import annotations

import random
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.decisions import (
    PAY_ORDER,
    Action,
    Chance,
    CoupDecided,
    CoupRetracted,
    Decision,
    Rejected,
    Settlement,
)
from croupier.events import (
    CardDrawn,
    ChoosePrison,
    CloseBets,
    CutCard,
    EndSession,
    PlaceStake,
    PrisonChoice,
    SetTable,
    VoidCard,
    Withdraw,
)
from croupier.rulebook import available_rulebooks, load_rulebook
from croupier.shuffle import regulation_shoe
from croupier.table import Event, Table
from croupier.view import Allowed

CHANCES = list(Chance)
AMOUNTS = [Decimal(a) for a in ("1", "5", "10", "12.5", "100", "999", "1000", "5000", "-3")]
LEAVING = {Action.COLLECT, Action.PAY, Action.FREE, Action.SHARE, Action.RETURN}


@st.composite
def sessions(draw: st.DrawFn) -> tuple[str, list[Event]]:
    """A shuffled shoe cut short, with players acting between (and during) the coups.

    The shoe's cards are drawn from a few ranks only, so that refaits and après are common.
    """
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    rules = draw(st.sampled_from(available_rulebooks()))
    deck = [e for e in regulation_shoe(rng) if isinstance(e, CardDrawn)]
    if draw(st.booleans()):
        deck = [e for e in deck if e.card.points in (1, 10)]
    cards = deck[: draw(st.integers(5, 160))]
    events: list[Event] = [SetTable(None, Decimal(10), Decimal(1000))]
    for card in cards:
        for _ in range(draw(st.integers(0, 3))):
            seat = rng.randint(1, 7)
            chance, other = rng.sample(CHANCES, 2)
            kind = rng.random()
            if kind < 0.55:
                events.append(PlaceStake(seat, chance, rng.choice(AMOUNTS), rng.random() < 0.3))
            elif kind < 0.7:
                events.append(Withdraw(seat, chance))
            elif kind < 0.78:
                events.append(CloseBets())
            else:
                choice = rng.choice(list(PrisonChoice))
                events.append(ChoosePrison(seat, chance, choice,
                                           other if choice is PrisonChoice.MOVE else None))
        events.append(card)
        if rng.random() < 0.01:
            events.append(VoidCard())
    if draw(st.booleans()):
        events.append(CutCard())
    events.append(EndSession())
    return rules, events


def _refused(decisions: list[Decision]) -> bool:
    """The table refused the event whole (a stake above the maximum may be refused in part:
    a `Rejected` for the excess, then the settlement that gives it back)."""
    return len(decisions) == 1 and isinstance(decisions[0], Rejected)


def _run(rules: str, events: list[Event]) -> tuple[Table, list[tuple[Event, list[Decision]]]]:
    table = Table(load_rulebook(rules))
    return table, [(event, table.apply(event)) for event in events]


@settings(max_examples=80, deadline=None)
@given(sessions())
def test_money_is_conserved(session: tuple[str, list[Event]]) -> None:
    table, steps = _run(*session)
    staked = Decimal(0)
    # What each settlement moved: (back to players, kept by the bank, won, premiums).
    moved: list[tuple[Decimal, Decimal, Decimal, Decimal]] = []
    coup_settlement: dict[int, int] = {}  # coup number -> index of its settlement in `moved`
    for event, decisions in steps:
        accepted = not _refused(decisions)
        if isinstance(event, PlaceStake) and accepted:
            staked += event.amount
        after_coup = False
        for decision in decisions:
            if isinstance(decision, CoupRetracted):
                # The coup is decided again: what its settlement moved is undone.
                zero = Decimal(0)
                moved[coup_settlement.pop(decision.number)] = (zero, zero, zero, zero)
            elif isinstance(decision, CoupDecided):
                after_coup = True
            elif isinstance(decision, Settlement):
                if after_coup:
                    coup_settlement[decision.number] = len(moved)
                    after_coup = False
                moved.append(_moved(decision))
    back, kept, won, premiums = (sum(m[i] for m in moved) for i in range(4))
    on_layout = sum((s.amount for s in table.ledger.stakes), Decimal(0))
    assert staked == back + kept + on_layout
    assert premiums >= 0
    assert won >= 0


def _moved(settlement: Settlement) -> tuple[Decimal, Decimal, Decimal, Decimal]:
    back = kept = won = premiums = Decimal(0)
    for line in settlement.lines:
        amount = line.amount or Decimal(0)
        if line.action is Action.PREMIUM:
            premiums += amount
        elif line.action is Action.PAY:
            back += line.stake
            won += amount
        elif line.action is Action.COLLECT:
            kept += line.stake
        elif line.action is Action.RETURN:
            # Given back whole, with its premium where the house returns it.
            assert 0 < line.stake <= amount
            back += line.stake
            premiums -= amount - line.stake
        elif line.action in LEAVING:
            # A share rounded down to the house's chip may come to nothing.
            assert 0 <= amount <= line.stake
            back += amount
            kept += line.stake - amount
    return back, kept, won, premiums


@settings(max_examples=80, deadline=None)
@given(sessions())
def test_no_stake_is_settled_twice_or_forgotten(session: tuple[str, list[Event]]) -> None:
    rules, events = session
    table = Table(load_rulebook(rules))
    gone: set[int] = set()
    for event in events:
        before = {s.ident for s in table.ledger.stakes}
        decisions = table.apply(event)
        after = {s.ident for s in table.ledger.stakes}
        left = sum(
            1 for d in decisions if isinstance(d, Settlement) for ln in d.lines
            if ln.action in LEAVING
        )
        if isinstance(event, PlaceStake):
            # A placement hands back only what is above the maximum, never a stake.
            assert left <= 1
            assert after >= before
            continue
        if any(isinstance(d, CoupRetracted) for d in decisions):
            # A coup decided again: the stakes its first settlement took off come back.
            gone -= after
            continue
        assert left == len(before - after)
        assert not (after & gone)
        gone |= before - after
        if any(isinstance(d, Settlement) for d in decisions) and isinstance(event, CardDrawn):
            # A coup's settlement speaks of every stake that was on the layout.
            spoken = sum(len(d.lines) for d in decisions if isinstance(d, Settlement))
            assert spoken >= len(before)
    assert table.ended
    assert all(s.in_prison for s in table.ledger.stakes)


@settings(max_examples=80, deadline=None)
@given(sessions())
def test_every_rejected_event_changes_nothing(session: tuple[str, list[Event]]) -> None:
    rules, events = session
    table = Table(load_rulebook(rules))
    for event in events:
        before = (list(table.ledger.stakes), table.ledger.choices_open, table.shoe.state(),
                  len(table.log))
        decisions = table.apply(event)
        if not any(isinstance(d, Rejected) for d in decisions):
            continue
        if len(decisions) == 1:
            after = (list(table.ledger.stakes), table.ledger.choices_open, table.shoe.state(),
                     len(table.log))
            assert after == before
        else:  # a stake above the maximum: the excess is refused and goes back at once
            refused, settlement = decisions
            assert isinstance(refused, Rejected)
            assert "above the maximum" in refused.reason
            assert isinstance(settlement, Settlement)
            assert isinstance(event, PlaceStake)
            (back,) = [ln for ln in settlement.lines if ln.action is Action.RETURN]
            assert (back.seat, back.chance) == (event.seat, event.chance)
            assert 0 < back.amount < event.amount


@settings(max_examples=80, deadline=None)
@given(sessions())
def test_payout_lines_follow_the_plan(session: tuple[str, list[Event]]) -> None:
    _, steps = _run(*session)
    for _, decisions in steps:
        for settlement in (d for d in decisions if isinstance(d, Settlement)):
            actions = [ln.action for ln in settlement.lines]
            handing = [i for i, a in enumerate(actions) if a in (Action.PAY, Action.FREE)]
            collecting = [i for i, a in enumerate(actions) if a is Action.COLLECT]
            assert not handing or not collecting or max(collecting) < min(handing)
            # Payments chance by chance, inverse, noir or rouge, couleur; farthest seat first.
            keys = [(PAY_ORDER.index(settlement.lines[i].chance), -settlement.lines[i].seat)
                    for i in handing]
            assert keys == sorted(keys)
            assert handing == list(range(len(collecting), len(collecting) + len(handing)))


@settings(max_examples=40, deadline=None)
@given(sessions())
def test_replaying_the_table_log_rebuilds_the_same_state(session: tuple[str, list[Event]]) -> None:
    rules, events = session
    table, steps = _run(rules, events[:-1])
    again = Table(load_rulebook(rules))
    replayed = [d for e in table.log for d in again.apply(e)]
    assert again.ledger.stakes == table.ledger.stakes
    assert again.shoe.state() == table.shoe.state()
    assert again.view() == table.view()  # what a screen shows is replayable too
    assert replayed == [d for _, ds in steps if not _refused(ds) for d in ds]


@settings(max_examples=40, deadline=None)
@given(sessions())
def test_the_snapshot_allows_what_the_table_accepts(session: tuple[str, list[Event]]) -> None:
    """A screen enables a button only when the table would take its tap, and the other way
    round, for rien ne va plus and the stakes."""
    rules, events = session
    table = Table(load_rulebook(rules))
    for event in events:
        view = table.view()
        if isinstance(event, CloseBets | VoidCard):
            wanted = Allowed.CLOSE_BETS if isinstance(event, CloseBets) else Allowed.VOID_CARD
            assert (wanted in view.allowed) == (not _refused(table.apply(event)))
            continue
        if isinstance(event, PlaceStake) and Allowed.STAKE not in view.allowed:
            assert _refused(table.apply(event))
            continue
        table.apply(event)
        view = table.view()
        assert view.noir_point == table.shoe.state().noir_point
        assert view.rouge_point == table.shoe.state().rouge_point
        assert view.stakes == tuple(table.ledger.stakes)
