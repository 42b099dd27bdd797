"""Invariants of the engine over random shuffled sixains (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.calls import point_call
from croupier.cards import SIXAIN_SIZE
from croupier.decisions import (
    Alarm,
    Chance,
    CoupDecided,
    Decision,
    Rejected,
    Result,
    ShoeEnded,
)
from croupier.engine import Shoe
from croupier.errors import FixtureError
from croupier.events import CardDrawn, CutCard, ShoeEmpty, ShoeEvent, VoidCard
from croupier.fixtures import parse_shoe, render_shoe
from croupier.rulebook import load_rulebook
from croupier.shuffle import regulation_shoe

RULEBOOKS = st.sampled_from([load_rulebook("venezia"), load_rulebook("france")])


@st.composite
def shoes(draw: st.DrawFn) -> list[ShoeEvent]:
    """A shuffled sixain, some cards face up, the cut card anywhere, some cards voided."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    events = [e for e in regulation_shoe(rng, draw(st.sampled_from([0, 0.005, 0.05]))) if
              isinstance(e, CardDrawn)]
    cut_at = draw(st.integers(0, len(events)))
    events.insert(cut_at, CutCard())
    for _ in range(draw(st.integers(0, 4))):
        events.insert(draw(st.integers(1, len(events))), VoidCard())
    return events


def fold(events: list[ShoeEvent], shoe: Shoe) -> list[Decision]:
    return [d for e in [*events, ShoeEmpty()] for d in shoe.apply(e)]


@settings(max_examples=60, deadline=None)
@given(shoes(), RULEBOOKS)
def test_every_coup_obeys_the_rules(events: list[ShoeEvent], rulebook: object) -> None:
    shoe = Shoe(rulebook)  # type: ignore[arg-type]
    decisions = fold(events, shoe)
    for coup in (d for d in decisions if isinstance(d, CoupDecided)):
        for cards, point in ((coup.noir, coup.noir_point), (coup.rouge, coup.rouge_point)):
            assert 31 <= point <= 40
            assert sum(c.points for c in cards) == point
            assert sum(c.points for c in cards[:-1]) <= 30  # stops at the first card past 30
        low = min(coup.noir_point, coup.rouge_point)
        if coup.noir_point == coup.rouge_point:
            assert coup.result is (Result.REFAIT if low == 31 else Result.APRES)
            assert coup.couleur is None
            assert coup.pay == ()
            assert coup.calls == (point_call(low), point_call(low) + " après")
            continue
        winner = Result.NOIR if coup.noir_point < coup.rouge_point else Result.ROUGE
        assert coup.result is winner
        first_red = coup.noir[0].colour.value == "red"
        same = first_red == (winner is Result.ROUGE)
        assert coup.couleur is (Chance.COULEUR if same else Chance.INVERSE)
        rouge_word = "rouge gagne" if winner is Result.ROUGE else "rouge perd"
        assert coup.calls[:2] == (point_call(coup.noir_point), point_call(coup.rouge_point))
        assert coup.calls[2].startswith(rouge_word)
        order = [Chance.INVERSE, Chance.NOIR, Chance.ROUGE, Chance.COULEUR]
        assert list(coup.pay) == sorted(coup.pay, key=order.index)
        assert set(coup.pay) == {coup.couleur, Chance(winner.value)}


@settings(max_examples=60, deadline=None)
@given(shoes(), RULEBOOKS)
def test_every_card_is_accounted_for(events: list[ShoeEvent], rulebook: object) -> None:
    decisions = fold(events, Shoe(rulebook))  # type: ignore[arg-type]
    end = decisions[-1]
    assert isinstance(end, ShoeEnded)
    assert end.total == SIXAIN_SIZE
    assert not [d for d in decisions if isinstance(d, Alarm) and d.code == "seventh_copy"]


@settings(max_examples=60, deadline=None)
@given(shoes(), RULEBOOKS, st.data())
def test_replaying_the_log_rebuilds_the_same_state(
    events: list[ShoeEvent], rulebook: object, data: st.DataObject
) -> None:
    stop = data.draw(st.integers(0, len(events)))
    shoe = Shoe(rulebook)  # type: ignore[arg-type]
    first = [d for e in events[:stop] for d in shoe.apply(e)]
    again = Shoe(rulebook)  # type: ignore[arg-type]
    second = [d for e in shoe.log for d in again.apply(e)]
    assert again.state() == shoe.state()
    assert second == [d for d in first if not isinstance(d, Rejected)]


@given(st.text(max_size=200))
def test_any_text_parses_or_fails_with_a_fixture_error(text: str) -> None:
    try:
        events = parse_shoe(text)
    except FixtureError as err:
        message = str(err)
    else:
        lines = text.replace("\r", "\n").split("\n")
        tokens = [t for line in lines for t in line.split("#", 1)[0].split()]
        assert len(events) == len(tokens)
        return
    assert message.startswith("<shoe>:")
    assert "bad token" in message


@settings(max_examples=30, deadline=None)
@given(shoes())
def test_render_and_parse_round_trip(events: list[ShoeEvent]) -> None:
    kept = [e for e in events if isinstance(e, CardDrawn | CutCard)]
    assert parse_shoe(render_shoe(kept)) == kept
