"""A card the locator loses from a row is still placed, for the classifier to name or
decline: a row never comes out short without a declined card in its place."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware_sims.scene_render import NONE, Camera, baize, card_corners, paste
from vision.card_reads import read_card
from vision.design import Design
from vision.layout import _whole_cards, locate
from vision.quad import Quad

_ART = (90, 40, 30, 255)  # BGRA: a court card's dark art


def _art_to_the_edge(face: np.ndarray) -> np.ndarray:
    """A face whose art covers all but a thin margin, and reaches the edge at its top and
    bottom: to the paper mask the card is a ring broken in two, each half joining the blob
    of the neighbour it touches (as a court card of a test design was lost)."""
    art = face.copy()
    h, w = art.shape[:2]
    m = round(0.05 * w)
    art[m : h - m, m : w - m] = _ART
    art[:m, w // 3 : w // 2] = _ART
    art[h - m :, w // 2 : 2 * w // 3] = _ART
    return art


@pytest.mark.parametrize("where", [0, 1, 3])
def test_a_card_whose_paper_falls_to_its_neighbours_is_placed_in_its_row(
    design: Design, faces: dict[str, np.ndarray], where: int
) -> None:
    rng = np.random.default_rng(3)
    table = baize(720, 1280, rng)
    width = 150.0
    names = ["5H", "9S", "2D"]
    names.insert(where, "KC")
    truth = []
    for k, name in enumerate(names):
        corners = card_corners((200.0 + k * 0.9 * width, 360.0), width, design.aspect, 0.0)
        paste(table, _art_to_the_edge(faces[name]) if name == "KC" else faces[name], corners)
        truth.append(corners)
    frame = Camera.draw((1280, 720), rng, NONE).shoot(table, rng)
    (row,) = locate(frame, design)
    assert len(row) == len(names)
    lost = row[where]
    assert abs(float(lost.quad.corners[0][0] - truth[where][0][0])) < 0.15 * width
    named = [read_card(frame, spot, design).card for spot in row]
    assert [str(c) for k, c in enumerate(named) if k != where] == [n for n in names if n != "KC"]
    assert named[where] in (None, "KC")


def test_a_chip_or_a_hand_between_cards_laid_apart_is_no_card(
    design: Design, faces: dict[str, np.ndarray]
) -> None:
    """Cards laid apart by more than half a card's width: the baize between them, a chip
    with its white spots on it, a hand reaching over it: none holds paper along the row's
    top and its bottom both."""
    rng = np.random.default_rng(8)
    table = baize(720, 1280, rng)
    width = 140.0
    names = ["7H", "QS", "4D", "TC", "9S"]
    for k, name in enumerate(names):
        paste(table, faces[name], card_corners((200.0 + k * 1.6 * width, 330.0), width,
                                               design.aspect, 0.0))
    height = width * design.aspect
    gap_x = round(200.0 + 0.8 * width)
    low = round(330.0 + 0.35 * height)
    cv2.circle(table, (gap_x, low), round(0.28 * width), (40, 40, 200), -1)
    for a in range(6):
        spot = (round(gap_x + 30 * np.cos(a)), round(low + 30 * np.sin(a)))
        cv2.circle(table, spot, 6, (235, 235, 235), -1)
    hand = (round(200.0 + 4.0 * width), round(330.0 + 0.4 * height))
    cv2.ellipse(table, hand, (round(0.25 * width), round(0.3 * height)), 0, 0, 360,
                (105, 145, 200), -1)
    frame = Camera.draw((1280, 720), rng, NONE).shoot(table, rng)
    (row,) = locate(frame, design)
    assert [str(read_card(frame, spot, design).card) for spot in row] == names


def test_a_piece_of_a_card_the_finder_outlined_does_not_size_the_frames_cards() -> None:
    """The finder outlined a framed jack's art panel as a card, half a card's height: with
    one whole card found beside it, the median of the two made every card of the frame a
    quarter too small, and a row of three was parted into five."""
    whole = Quad(np.array([[0, 0], [150, 0], [150, 210], [0, 210]], np.float32))
    nearer = Quad(np.array([[400, 0], [555, 0], [555, 216], [400, 216]], np.float32))
    piece = Quad(np.array([[700, 50], [775, 50], [775, 155], [700, 155]], np.float32))
    assert _whole_cards([whole, piece, nearer], 1.4) == ([whole, nearer], [whole, nearer])


def test_two_cards_outlined_as_one_are_not_a_whole_card() -> None:
    """Two cards run together, outlined as one a fifth wider for its height than a card, and
    taller than the cards found whole (turned): taken for a card, it made every other card
    of the frame a piece."""
    whole = Quad(np.array([[0, 0], [126, 0], [126, 178], [0, 178]], np.float32))
    run_together = Quad(np.array([[700, 0], [869, 0], [869, 204], [700, 204]], np.float32))
    assert _whole_cards([whole, run_together], 1.4) == ([whole, run_together], [whole])
