"""A card declined at an outline off by more than the looks search (stretched one way,
turned, moved) is fitted to its guess's face, read again where that places it, and named
there when the classifier names its guess; a wrong guess places it but is not named."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from croupier.cards import Card
from tests.pip_faces import builtin_face

_BAIZE = (40, 110, 30)  # BGR


def _laid(card: Card) -> tuple[np.ndarray, Any, Any]:
    """A frame with `card`'s built-in face laid on baize, its outline, and an outline off
    by as much as a row's placing leaves some cards: 7 hundredths too tall, turned 2
    degrees and moved 3 pixels."""
    import cv2

    from vision.quad import Quad

    face = builtin_face(card)
    height, width = face.shape[:2]
    scale = 160 / width
    truth = np.array([[120, 90], [120 + width * scale, 90],
                      [120 + width * scale, 90 + height * scale], [120, 90 + height * scale]],
                     np.float32)
    source = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    frame = np.full((480, 420, 3), _BAIZE, np.uint8)
    warp = cv2.getPerspectiveTransform(source, truth)
    cv2.warpPerspective(face, warp, (420, 480), frame, borderMode=cv2.BORDER_TRANSPARENT)
    turn = np.deg2rad(2.0)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    off = (truth - truth[0]) * np.float32([1.0, 1.07]) @ rotation.T + truth[0] + [3, -3]
    return frame, Quad(truth), Quad(off.astype(np.float32))


@pytest.mark.parametrize("name", ["3C", "7H", "TS"])
def test_a_card_outlined_askew_is_placed_where_its_face_fits(design: Any, name: str) -> None:
    from croupier.cards import ALL_CARDS
    from vision.aligned import aligned

    card = Card.parse(name)
    frame, truth, off = _laid(card)
    found = aligned(frame, off, 1.0, ALL_CARDS.index(card), design)
    assert found is not None
    assert np.abs(found.corners - truth.corners).max() < 1.5, found.corners - truth.corners


@pytest.mark.parametrize(("name", "rival"), [("3C", "2C"), ("7H", "6H"), ("TS", "TC")])
def test_a_card_declined_askew_is_named_for_itself_never_its_rival(
    design: Any, name: str, rival: str
) -> None:
    from vision.aligned import realigned
    from vision.classifier import Reading, classify_placed

    card = Card.parse(name)
    frame, _, off = _laid(card)
    # Where it was outlined, it is too far off for the classifier to name.
    assert classify_placed(frame, [off], design, resized=False).card is None
    declined = Reading(None, card, 0.0, 0.7, 0.1)
    assert realigned(frame, off, 1.0, declined, design).card == card
    wrong = Reading(None, Card.parse(rival), 0.0, 0.7, 0.1)
    assert realigned(frame, off, 1.0, wrong, design) == wrong


def test_a_card_the_fit_cannot_place_is_left_declined(design: Any) -> None:
    """Bare baize under the outline: the fit strays or fails, and nothing is named."""
    from vision.aligned import realigned
    from vision.classifier import Reading

    frame, _, off = _laid(Card.parse("3C"))
    frame[:] = _BAIZE
    declined = Reading(None, Card.parse("3C"), 0.0, 0.7, 0.1)
    assert realigned(frame, off, 1.0, declined, design) == declined


@pytest.mark.parametrize(("drawn", "seed", "laid"), [
    ("drawn_builtin", 56005, (1, 0, "3S")),
    ("framed", 26201, (0, 0, "7C")),
    ("drawn_108", 78900, (0, 1, "KS")),
    ("drawn_108", 46905, (0, 5, "8S")),
    ("drawn_118", 27907, (0, 2, "3C")),
])
def test_a_card_declined_at_its_outline_is_named_where_its_face_places_it(
    request: pytest.FixtureRequest, drawn: str, seed: int, laid: tuple[int, int, str]
) -> None:
    """Coups laid at speed on tuning designs: a card declined at its outline and by the
    finer looks (the 3S and the 7C fitting their faces 0.88 and 0.81 there) is read again
    where fitting it to its face places it, and each whole coup is read: named there at
    once, or (the 8S, unsure beside its twin; the 3C, beside the 2C) after the finer looks
    where it was placed."""
    from tests.laid_coups import assert_read_whole

    assert_read_whole(request.getfixturevalue(drawn), seed, laid)


def test_a_fit_that_mirrors_the_card_or_turns_it_far_is_no_placement() -> None:
    from vision.aligned import BORDER, plausible

    def warp(linear: list[list[float]]) -> np.ndarray:
        return np.hstack([np.array(linear, np.float32), np.full((2, 1), BORDER, np.float32)])

    assert plausible(warp([[1.0, 0.0], [0.0, 1.0]]))
    assert not plausible(warp([[1.0, 0.0], [0.0, -1.0]]))  # upside down and mirrored
    cos, sin = np.cos(np.radians(6.0)), np.sin(np.radians(6.0))
    assert not plausible(warp([[cos, -sin], [sin, cos]]))
