"""A card declined as unsure for a rival other than its suit twin (most often another rank
of its suit: a 3 beside the 2, an 8 beside the 4 and the 6) is named after a finer look
where the two differ, when that look finds it clearly itself; never the rival."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.cards import Card, Rank
from tests.pip_faces import PIPS, builtin_face, pip_faces


def _others(card: Card) -> list[Card]:
    """The other pip cards of `card`'s suit."""
    return [c for c in PIPS if c.suit is card.suit and c != card]


@pytest.mark.parametrize("blur", [0.0, 2.0])
def test_a_card_unsure_beside_a_rival_rank_is_named_for_itself_never_the_rival(
    design: Any, blur: float
) -> None:
    from vision.classifier import Reading
    from vision.rival_look import rival_checked
    from vision.twin_look import twin_checked

    for card, face, outline in pip_faces(blur):
        for rival in _others(card):
            # The rival guessed, the card laid among its rivals: nothing is named.
            wrong = Reading(None, rival, 0.0, 0.9, untwinned=0.3, rivals=(card,), unrivalled=0.8)
            assert rival_checked(face, outline, 1.0, wrong, design) == wrong, (card, rival)
            # The guess must lead either way up: a 7's middle pip lies in one half, and
            # the card turned shows it where a 6 has none and an 8 has one.
            if card.rank is Rank.SEVEN and rival.rank in {Rank.SIX, Rank.EIGHT}:
                continue
            unsure = Reading(None, card, 0.0, 0.9, untwinned=0.3, rivals=(rival,), unrivalled=0.8)
            looked = rival_checked(face, outline, 1.0, unsure, design)
            assert (looked.untwinned, looked.rivals) == (0.8, ()), (card, rival)
            named = twin_checked(face, outline, 1.0, looked, design)
            assert (named.card, named.confidence) == (card, 0.8), (card, rival)


def test_a_card_not_sure_enough_with_its_rivals_aside_or_fitting_less_is_not_looked_at(
    design: Any,
) -> None:
    from vision.classifier import Reading
    from vision.quad import whole_frame
    from vision.rival_look import rival_checked

    card, rival = Card.parse("3C"), Card.parse("2C")
    face = builtin_face(card)
    outline = whole_frame(face)
    doubtful = Reading(None, card, 0.0, 0.9, untwinned=0.3, rivals=(rival,), unrivalled=0.45)
    assert rival_checked(face, outline, 1.0, doubtful, design) == doubtful
    # Fitting its reference less than a card named at once must: it may be of another
    # design, which the look, comparing two faces of this one, cannot tell.
    poor = Reading(None, card, 0.0, 0.8, untwinned=0.3, rivals=(rival,), unrivalled=0.8)
    assert rival_checked(face, outline, 1.0, poor, design) == poor


@pytest.mark.parametrize(("drawn", "seed", "laid"), [
    ("drawn_builtin", 46004, (1, 2, "8S")),
    ("framed", 26207, (1, 7, "5C")),
    ("framed", 46205, (0, 0, "8C")),
])
def test_a_card_unsure_beside_another_rank_of_its_suit_is_named_after_the_finer_look(
    request: pytest.FixtureRequest, drawn: str, seed: int, laid: tuple[int, int, str]
) -> None:
    """Coups laid at speed on tuning designs: a card whose whole score set it too little
    apart from another rank of its suit (the 8S from the 7S, the 3C from the 2C, the 8C
    from the 4C and 6C) was declined, though its index and face named it; the finer look
    where the two differ finds it clearly itself, and each whole coup is read."""
    from tests.laid_coups import read_laid_coup

    rows, got = read_laid_coup(request.getfixturevalue(drawn), seed)
    row, column, card = laid
    assert rows[row][column] == card
    assert [[str(c) for c in r] for r in got] == rows


@pytest.fixture(scope="module")
def drawn_builtin(design: Any, faces: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    return design, faces
