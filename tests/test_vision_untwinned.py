"""A card declined as unsure, whose index and face name it, is named after a closer look
beside its suit twin, when that look finds it clearly itself; when it finds the twin, very
well and clearly better, the twin."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from croupier.cards import ALL_CARDS, Card
from tests.pip_faces import pip_faces
from vision.twins import SUIT_TWIN


@pytest.fixture(scope="module")
def builtin() -> Any:
    from vision.design import builtin_design

    return builtin_design()


def _twin(card: Card) -> Card:
    return ALL_CARDS[int(SUIT_TWIN[ALL_CARDS.index(card)])]


@pytest.mark.parametrize("blur", [0.0, 2.0])
def test_a_face_declined_as_unsure_is_named_for_itself_even_guessed_as_its_twin(
    builtin: Any, blur: float
) -> None:
    from vision.classifier import Reading
    from vision.twin_look import twin_checked

    for card, face, outline in pip_faces(blur):
        unsure = Reading(None, card, 0.0, untwinned=0.8)
        named = twin_checked(face, outline, 1.0, unsure, builtin)
        assert (named.card, named.confidence) == (card, 0.8), card
        # Guessed its twin: its twin's twin, the card laid, fits clearly better and very
        # well, and is named (`PIPS`: never a court card).
        twin = Reading(None, _twin(card), 0.0, untwinned=0.8)
        assert twin_checked(face, outline, 1.0, twin, builtin).card == card, card
        # Not sure enough with its twin aside: the closer look is not asked.
        doubtful = Reading(None, card, 0.0, untwinned=0.45)
        assert twin_checked(face, outline, 1.0, doubtful, builtin) == doubtful, card


def _fits(builtin: Any, scores: dict[str, float], index: dict[str, float]) -> np.ndarray:
    """Fits (whole, index, face) at every blur level, each card at 0.2 but those given."""
    levels = builtin.index.shape[0]
    fits = np.full((3, levels, len(ALL_CARDS)), 0.2)
    for part, given in ((0, scores), (1, index), (2, scores)):
        for card, value in given.items():
            fits[part, :, ALL_CARDS.index(Card.parse(card))] = value
    return fits


def test_only_a_card_unsure_for_its_twin_alone_is_sure_with_the_twin_aside(
    builtin: Any,
) -> None:
    from vision.classifier import _best_fit

    gram = builtin.gram
    # 9C fits well, its twin 9S nearly as well: declined, but sure with the twin aside.
    near = _best_fit(_fits(builtin, {"9C": 0.9, "9S": 0.89}, {"9C": 0.9}), gram, builtin)
    assert (near.card, near.guess) == (None, Card.parse("9C"))
    assert near.untwinned >= 0.5
    # Another card than its twin nearly as good: no closer look beside the twin settles it.
    other = _best_fit(_fits(builtin, {"9C": 0.9, "8C": 0.89}, {"9C": 0.9}), gram, builtin)
    assert other.card is None
    assert other.untwinned < 0.5
    # Its index fits its twin better: declined outright.
    index = _best_fit(_fits(builtin, {"9C": 0.9, "9S": 0.89}, {"9S": 0.95}), gram, builtin)
    assert (index.card, index.untwinned) == (None, 0.0)
    # Sure at once: named, nothing more to say.
    sure = _best_fit(_fits(builtin, {"9C": 0.95}, {}), gram, builtin)
    assert (sure.card, sure.untwinned) == (Card.parse("9C"), 0.0)


def test_an_unsure_card_records_its_closest_rival_and_how_sure_it_is_without_it(
    builtin: Any,
) -> None:
    from vision.classifier import _best_fit

    gram = builtin.gram
    # 9C fits well, 8C nearly as well: unsure even with its twin aside; sure with 8C aside.
    near = _best_fit(_fits(builtin, {"9C": 0.9, "8C": 0.89}, {"9C": 0.9}), gram, builtin)
    assert (near.card, near.guess) == (None, Card.parse("9C"))
    assert near.untwinned < 0.5
    assert near.rivals == (Card.parse("8C"),)
    assert near.unrivalled >= 0.5
    # Unsure for its twin alone: no rival to look at.
    twin = _best_fit(_fits(builtin, {"9C": 0.9, "9S": 0.89}, {"9C": 0.9}), gram, builtin)
    assert twin.untwinned >= 0.5
    assert (twin.rivals, twin.unrivalled) == ((), 0.0)


def test_a_card_whose_face_alone_fits_its_twin_best_is_left_to_the_closer_look(
    builtin: Any,
) -> None:
    from vision.classifier import _best_fit

    gram = builtin.gram
    fits = _fits(builtin, {"9C": 0.9, "9S": 0.85}, {"9C": 0.9})
    fits[2, :, ALL_CARDS.index(Card.parse("9S"))] = 0.92  # its face alone leans to 9S
    leaning = _best_fit(fits, gram, builtin)
    assert (leaning.card, leaning.guess) == (None, Card.parse("9C"))
    assert leaning.untwinned >= 0.5
    # Its face alone fitting another rank, which its whole score does not set it clearly
    # apart from: nothing for the look beside its twin alone (`test_vision_leaning`).
    fits[2, :, ALL_CARDS.index(Card.parse("8C"))] = 0.95
    fits[0, :, ALL_CARDS.index(Card.parse("8C"))] = 0.88
    assert _best_fit(fits, gram, builtin).untwinned == 0.0


def test_a_framed_card_whose_face_leans_to_its_twin_is_named_after_the_closer_look(
    drawn_106: tuple[Any, dict[str, Any]],
) -> None:
    """A coup laid at speed on a tuning design framed near its edges: the TC opening a row,
    partly under the next card, fitted the TS a little better on its face alone, its index
    and its whole score naming the TC. It was declined; the closer look beside its twin
    names it now, and nothing in the coup is named wrong."""
    from tests.laid_coups import assert_nothing_named_wrong, read_laid_coup

    rows, got = read_laid_coup(drawn_106, 46603)
    assert rows[0][0] == "TC"
    assert str(got[0][0]) == "TC"
    assert_nothing_named_wrong(rows, got)


@pytest.mark.parametrize(("drawn", "seed", "laid"),
                         [("framed", 26205, (1, 3, "8H")), ("drawn_108", 26901, (1, 2, "2H"))])
def test_a_card_fitting_a_little_less_well_is_left_to_the_closer_look(
    request: pytest.FixtureRequest, drawn: str, seed: int, laid: tuple[int, int, str]
) -> None:
    """Coups laid at speed on tuning designs: a card fitting its reference 0.76 at best,
    clearly apart from every card but its suit twin, was declined though the closer look
    finds it clearly itself; it is left to that look now, and each whole coup is read."""
    from tests.laid_coups import assert_read_whole

    assert_read_whole(request.getfixturevalue(drawn), seed, laid)
