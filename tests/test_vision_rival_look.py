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
            # The rival guessed, the card laid among its rivals: the rival is not named;
            # the rank below the card, guessed, may be taken for the card (`_pale_pip`).
            wrong = Reading(None, rival, 0.0, 0.9, untwinned=0.3, rivals=(card,), unrivalled=0.8)
            looked = rival_checked(face, outline, 1.0, wrong, design)
            assert looked == wrong or (looked.card, looked.guess) == (None, card), (card, rival)
            assert twin_checked(face, outline, 1.0, looked, design).card in (None, card)
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
    from tests.laid_coups import assert_read_whole

    assert_read_whole(request.getfixturevalue(drawn), seed, laid)


def _paled(card: Card, rival: Card, keep: float) -> Any:
    """`card`'s built-in face, its pips where it differs from `rival` away from the index
    (a 5's middle pip beside a 4) paled to `keep` of their ink, as glare pales them, and
    blurred as a camera sees it."""
    import cv2
    import numpy as np

    face, other = builtin_face(card), builtin_face(rival)
    grey = [cv2.cvtColor(f, cv2.COLOR_BGR2GRAY).astype(np.float32) for f in (face, other)]
    differ = np.abs(grey[0] - grey[1]) > 30
    quarter = face.shape[0] // 4
    differ[:quarter] = differ[-quarter:] = False
    face[differ] = (255 - (255 - face[differ].astype(np.float32)) * keep).astype(np.uint8)
    return cv2.GaussianBlur(face, (0, 0), 1.5)


@pytest.mark.parametrize(
    ("card", "rival"), [("5C", "4C"), ("3D", "2D"), ("5H", "4H"), ("3S", "2S")]
)
def test_a_card_whose_middle_pip_glare_pales_is_named_beside_the_rank_without_it(
    design: Any, card: str, rival: str
) -> None:
    from croupier.cards import ALL_CARDS
    from vision.classifier import Reading
    from vision.quad import whole_frame
    from vision.rival_look import RIVAL_WORSE, lead, rival_checked

    laid, other = Card.parse(card), Card.parse(rival)
    face = _paled(laid, other, 0.1)
    outline = whole_frame(face)
    pair = (ALL_CARDS.index(laid), ALL_CARDS.index(other))
    # On all the pixels at once the pale pip is little more than paper: too little a lead.
    assert lead(face, [outline], 1.0, pair, design) < RIVAL_WORSE
    unsure = Reading(None, laid, 0.0, 0.9, untwinned=0.3, rivals=(other,), unrivalled=0.8)
    looked = rival_checked(face, outline, 1.0, unsure, design)
    assert (looked.untwinned, looked.rivals) == (0.8, ())


@pytest.mark.parametrize(("card", "below", "above"), [
    ("3D", "2D", "4D"), ("5C", "4C", "6C"), ("3S", "2S", "4S"),
])
def test_a_card_guessed_the_rank_below_for_a_pip_glare_paled_is_taken_for_itself(
    design: Any, card: str, below: str, above: str
) -> None:
    """Its middle pip all but washed out, the card fits the rank without it well enough to
    be guessed that: patch by patch, its own face leads the guess far, and leads every
    other rank of its suit near it, and the card is guessed itself, as sure as it would be
    were its rivals not cards (its twin, the twin look settles). Guessed right, it is not
    taken for the rank above."""
    from vision.classifier import Reading
    from vision.quad import whole_frame
    from vision.rival_look import rival_checked

    laid, lower, upper = (Card.parse(name) for name in (card, below, above))
    face = _paled(laid, lower, 0.1)
    outline = whole_frame(face)
    guessed = Reading(None, lower, 0.0, 0.9, untwinned=0.0, rivals=(laid,), unrivalled=0.8)
    looked = rival_checked(face, outline, 1.0, guessed, design)
    assert (looked.card, looked.guess, looked.untwinned) == (None, laid, 0.8)
    right = Reading(None, laid, 0.0, 0.9, untwinned=0.0, rivals=(upper,), unrivalled=0.8)
    assert rival_checked(face, outline, 1.0, right, design).guess == laid


def test_a_rival_whose_twin_is_a_rival_of_the_cards_suit_is_left_to_the_twin_look() -> None:
    from croupier.cards import ALL_CARDS
    from vision.rival_look import _compared

    def compared(card: str, rivals: list[str]) -> list[str]:
        kept = _compared(ALL_CARDS.index(Card.parse(card)),
                         [ALL_CARDS.index(Card.parse(c)) for c in rivals])
        return [str(ALL_CARDS[k]) for k in kept]

    assert compared("3C", ["2C", "2S"]) == ["2C"]
    assert compared("3C", ["2S"]) == ["2S"]
    assert compared("3C", ["2H", "2D"]) == ["2H", "2D"]


@pytest.mark.parametrize(("drawn", "seed", "laid"), [
    ("drawn_builtin", 66000, (0, 1, "7H")),
    ("drawn_108", 56905, (1, 2, "5H")),
    ("drawn_118", 67901, (1, 0, "3H")),
    ("framed", 56207, (0, 6, "3C")),  # guessed 2C, its middle pip washed out
    ("framed", 66206, (0, 2, "3C")),  # so too
])
def test_a_card_with_a_pale_pip_is_named_after_the_finer_look(
    request: pytest.FixtureRequest, drawn: str, seed: int, laid: tuple[int, int, str]
) -> None:
    """Coups laid at speed on tuning designs under harsh light: a 7H, a 5H and a 3H whose
    middle pip glare paled fitted the 6H, the 4H, the 2H better on all the pixels at once
    where the two differ, and were declined; patch by patch each fits its own best, very
    well, and each whole coup is read."""
    from tests.laid_coups import assert_read_whole

    assert_read_whole(request.getfixturevalue(drawn), seed, laid)
