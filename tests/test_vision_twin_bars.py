"""The closer look beside a suit twin (`vision.twin_look`) on coups laid at speed on tuning
designs: where it compares a card with its twin, and the bars it declines or names at."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.laid_coups import assert_nothing_named_wrong, read_laid_coup
from vision.twin_look import _twin_better


@pytest.mark.parametrize(("seed", "row", "column", "card"), [(27902, 0, 3, "KS"),
                                                             (47901, 1, 2, "KS")])
def test_a_king_its_twin_fits_very_well_and_a_little_better_is_not_named(
    drawn_118: tuple[Any, dict[str, Any]], seed: int, row: int, column: int, card: str
) -> None:
    """Blurred, a king of spades fitted the king of clubs 0.021 and 0.034 better than
    itself where the two differ, each fitting about 0.9: it was named the king of clubs.
    A twin fitting so well fitting better at all is enough."""
    rows, got = read_laid_coup(drawn_118, seed)
    assert rows[row][column] == card
    assert_nothing_named_wrong(rows, got)


def test_a_king_its_twin_fits_a_little_better_at_the_size_either_fits_best_is_not_named(
    drawn_118: tuple[Any, dict[str, Any]],
) -> None:
    """A held-out coup: a king of spades, the 2S over its corner, fitted the king of clubs
    0.958 at its outline, 0.009 better than itself (too little for `_twin_better`), and
    0.016 better at the size either fits best: it was named the king of clubs."""
    rows, got = read_laid_coup(drawn_118, 97904)
    assert rows[1][1] == "KS"
    assert_nothing_named_wrong(rows, got)


def test_a_club_is_compared_where_it_is_seen_best_not_at_its_outline_grown_twice(
    drawn_106: tuple[Any, dict[str, Any]],
) -> None:
    """A framed design: a 3C was named the 3S (the better of its fits at where it was found
    and that outline grown again to the frame, taken face by face, favoured the spade),
    and a 2C its twin appeared to fit better was declined. Compared at the one outline
    where it is seen best, the 3C is declined and the 2C named."""
    rows, got = read_laid_coup(drawn_106, 26304)
    assert (rows[0][5], rows[1][4]) == ("3C", "2C")
    assert_nothing_named_wrong(rows, got)
    assert str(got[1][4]) == "2C"


def test_a_club_declined_for_its_twin_alone_is_looked_at_where_it_was_outlined_too(
    drawn_108: tuple[Any, dict[str, Any]],
) -> None:
    """A 7C declined for its twin alone fitted, where the look around its outline found it,
    a little worse than the 7S (0.789 and 0.793); where it was outlined, clearly better
    (0.950 and 0.899). Looked at both, the whole coup is read."""
    rows, got = read_laid_coup(drawn_108, 78902)
    assert rows[1][5] == "7C"
    assert [[str(card) for card in row] for row in got] == rows


def test_a_king_named_at_its_outline_the_look_around_guessing_its_twin_is_looked_at_closer(
    drawn_106: tuple[Any, dict[str, Any]],
) -> None:
    """A KC named surely where it was outlined was declined: the look around its outline,
    fitting it 0.09 less well, guessed the KS. Looked at beside its twin, it is named."""
    rows, got = read_laid_coup(drawn_106, 78307)
    assert rows[1][3] == "KC"
    assert [[str(card) for card in row] for row in got] == rows


def test_a_very_well_fitting_twin_needs_a_smaller_lead() -> None:
    assert _twin_better(np.array([0.88, 0.90]))
    assert not _twin_better(np.array([0.70, 0.72]))
    assert _twin_better(np.array([0.70, 0.74]))
    assert not _twin_better(np.array([0.50, 0.69]))


def test_a_card_clearly_apart_whose_index_slips_to_another_rank_is_left_to_its_confidence(
    drawn_118: tuple[Any, dict[str, Any]],
) -> None:
    """A coup laid at speed on a tuning design: a 6C whose whole score set it clearly apart
    from every rival was declined outright for its index or face alone fitting another rank
    of clubs best. Left to its confidence, the whole coup is read."""
    rows, got = read_laid_coup(drawn_118, 79900)
    assert rows[1][0] == "6C"
    assert [[str(card) for card in row] for row in got] == rows


@pytest.mark.parametrize(("seed", "row", "column", "card"), [(27904, 1, 0, "7C"),
                                                             (27905, 0, 2, "JS")])
def test_a_card_declined_for_its_twin_alone_is_compared_at_the_size_it_fits_best(
    drawn_118: tuple[Any, dict[str, Any]], seed: int, row: int, column: int, card: str
) -> None:
    """Declined for its twin alone, a 7C (and a JS) fitted the 7S about as well as itself
    at its outline, some hundredths narrower than the card; with the outline grown to
    where the faces fit best, the club fits clearly better and the whole coup is read."""
    rows, got = read_laid_coup(drawn_118, seed)
    assert rows[row][column] == card
    assert [[str(c) for c in r] for r in got] == rows


@pytest.mark.parametrize(("seed", "row", "column", "card"), [(46303, 0, 1, "TS"),
                                                             (26304, 0, 5, "3C")])
def test_a_card_named_whose_twin_fits_very_well_and_clearly_better_is_named_its_twin(
    drawn_106: tuple[Any, dict[str, Any]], seed: int, row: int, column: int, card: str
) -> None:
    """A TS named the TC, and a 3C named the 3S, each fitted clearly better by the card
    laid at its outline (and declined); at the size either face fits best, the card laid
    fits 0.97 or more and some 0.05 better. Each is named the card laid."""
    rows, got = read_laid_coup(drawn_106, seed)
    assert rows[row][column] == card
    assert_nothing_named_wrong(rows, got)
    assert str(got[row][column]) == card


def test_a_court_card_is_never_named_its_twin(drawn_118: tuple[Any, dict[str, Any]]) -> None:
    """A KS named the KC: at the size either face fits best the KS fits 0.97 and 0.045
    better, but a court card's twin may differ over its whole picture, where an outline
    astray favours either by chance. It is declined."""
    rows, got = read_laid_coup(drawn_118, 27902)
    assert rows[0][3] == "KS"
    assert_nothing_named_wrong(rows, got)
    assert got[0][3] is None


def test_a_card_declined_guessed_as_its_twin_is_named_when_the_twin_fits_clearly_better(
    drawn_106: tuple[Any, dict[str, Any]],
) -> None:
    """A 3C guessed the 3S, declined for its index or face alone fitting another card: at
    its outline the 3C already fits better than the 3S where the two differ, and at the
    size either fits best 0.978, 0.063 better. It is named the 3C."""
    rows, got = read_laid_coup(drawn_106, 78307)
    assert rows[0][6] == "3C"
    assert_nothing_named_wrong(rows, got)
    assert str(got[0][6]) == "3C"
