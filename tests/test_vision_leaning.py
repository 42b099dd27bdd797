"""A card whose index alone or face alone fits another card best, not clearly apart from
it on its whole score, is looked at finer beside that card (`vision.rival_look`) before it
may be named: never named on the classifier's maps alone, nor ever the card it leans to."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from croupier.cards import ALL_CARDS, Card


@pytest.fixture(scope="module")
def builtin() -> Any:
    from vision.design import builtin_design

    return builtin_design()


def _fits(builtin: Any, whole: dict[str, float], index: dict[str, float],
          face: dict[str, float]) -> np.ndarray:
    """Fits (whole, index, face) at every blur level, each card at 0.2 but those given."""
    levels = builtin.index.shape[0]
    fits = np.full((3, levels, len(ALL_CARDS)), 0.2)
    for part, given in enumerate((whole, index, face)):
        for card, value in given.items():
            fits[part, :, ALL_CARDS.index(Card.parse(card))] = value
    return fits


def test_a_card_leaning_to_another_rank_records_it_as_a_rival_to_look_beside(
    builtin: Any,
) -> None:
    from vision.classifier import _best_fit

    # 9C fits best on its whole score, 8C close behind; its face alone fits the 8C best.
    fits = _fits(builtin, {"9C": 0.9, "8C": 0.88}, {"9C": 0.9}, {"9C": 0.9, "8C": 0.95})
    leaning = _best_fit(fits, builtin.gram, builtin)
    assert (leaning.card, leaning.guess) == (None, Card.parse("9C"))
    # Not for the look beside its twin alone: first beside the card its face says.
    assert leaning.untwinned == 0.0
    assert leaning.rivals[0] == Card.parse("8C")
    assert leaning.unrivalled >= 0.5
    # Its index alone leaning to another rank of another suit: that card is a rival too.
    fits = _fits(builtin, {"9C": 0.9, "8C": 0.88}, {"9C": 0.9, "7S": 0.95}, {"9C": 0.9})
    assert Card.parse("7S") in _best_fit(fits, builtin.gram, builtin).rivals


def test_a_card_whose_index_alone_fits_its_twin_best_is_still_declined_outright(
    builtin: Any,
) -> None:
    from vision.classifier import _best_fit

    fits = _fits(builtin, {"9C": 0.9, "8C": 0.88}, {"9C": 0.9, "9S": 0.95}, {"9C": 0.9})
    doubted = _best_fit(fits, builtin.gram, builtin)
    assert (doubted.card, doubted.untwinned, doubted.rivals) == (None, 0.0, ())


@pytest.mark.parametrize(("drawn", "seed", "laid"), [
    ("drawn_108", 46905, (0, 5, "8S")),
    ("drawn_118", 47904, (0, 7, "6S")),
])
def test_a_card_leaning_to_another_card_is_named_after_the_finer_look(
    request: pytest.FixtureRequest, drawn: str, seed: int, laid: tuple[int, int, str]
) -> None:
    """Coups laid at speed on tuning designs: an 8S whose index alone fitted the 7C best,
    a 6S whose index alone fitted the 8S best, each face alone its suit twin, were declined
    outright; the finer look finds each clearly ahead of those cards and of its closest
    rivals, the look beside its twin clearly itself, and nothing is named wrong."""
    from tests.laid_coups import assert_nothing_named_wrong, read_laid_coup

    rows, got = read_laid_coup(request.getfixturevalue(drawn), seed)
    row, column, card = laid
    assert rows[row][column] == card
    assert str(got[row][column]) == card
    assert_nothing_named_wrong(rows, got)
