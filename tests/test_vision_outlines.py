"""A card's outline rebuilt from its left edge, which a row laid at speed never hides."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware_sims.scene_render import HARSH, NONE, Camera, baize, card_corners, paste
from tests.laid_coups import read_laid_coup
from vision.card_reads import read_card
from vision.design import Design
from vision.quad import Quad, along_top_edge, from_left_edge, widened
from vision.rows import RowCard

ASPECT = 1.4


def _card(angle: float) -> np.ndarray:
    corners: np.ndarray = card_corners((400.0, 300.0), 120.0, ASPECT, angle)
    return corners


def _right_side_off(corners: np.ndarray, by: float) -> Quad:
    """The outline with its right side `by` of the card's width further right, and turned
    about its top-right corner: a neighbour's edge taken for the card's own."""
    tl, tr, br, bl = corners
    along = (tr - tl) / np.linalg.norm(tr - tl)
    width = float(np.linalg.norm(tr - tl))
    return Quad(
        np.array([tl, tr + by * width * along, br + 2 * by * width * along, bl], np.float32)
    )


@pytest.mark.parametrize("angle", [-10.0, 0.0, 7.5])
def test_a_card_is_rebuilt_square_to_its_left_edge(angle: float) -> None:
    true = _card(angle)
    rebuilt = from_left_edge(_right_side_off(true, 0.12), ASPECT)
    assert np.abs(rebuilt.corners - true).max() < 0.5


@pytest.mark.parametrize("angle", [-10.0, 4.0])
def test_a_card_rebuilt_along_its_top_edge_keeps_that_edge(angle: float) -> None:
    true = _card(angle)
    sheared = true.copy()
    sheared[3] += np.array([6.0, 0.0], np.float32)  # the camera's view leans the left edge
    rebuilt = along_top_edge(Quad(sheared), ASPECT).corners
    top = (rebuilt[1] - rebuilt[0]) / np.linalg.norm(rebuilt[1] - rebuilt[0])
    truth = (true[1] - true[0]) / np.linalg.norm(true[1] - true[0])
    assert np.allclose(top, truth, atol=1e-4)
    assert np.allclose(rebuilt[[0, 3]], sheared[[0, 3]])
    height = float(np.linalg.norm(sheared[3] - sheared[0]))
    assert float(np.linalg.norm(rebuilt[1] - rebuilt[0])) == pytest.approx(height / ASPECT)


def test_widening_moves_only_the_right_side() -> None:
    true = _card(5.0)
    wide = widened(Quad(true), 1.08).corners
    assert np.allclose(wide[[0, 3]], true[[0, 3]])
    assert np.allclose(wide[1] - wide[0], 1.08 * (true[1] - true[0]), atol=1e-4)
    assert np.allclose(wide[2] - wide[3], 1.08 * (true[2] - true[3]), atol=1e-4)


@pytest.mark.parametrize(("name", "seed"), [("7H", 1), ("QS", 2), ("4D", 3), ("TC", 4)])
def test_a_card_outlined_with_a_wrong_right_side_is_still_named(
    design: Design, faces: dict[str, np.ndarray], name: str, seed: int
) -> None:
    """An outline whose right side lies well off the card is declined where it was drawn;
    the card is found again from its left edge, and named right."""
    rng = np.random.default_rng(seed)
    table = baize(720, 1280, rng)
    corners = card_corners((640.0, 360.0), 150.0, design.aspect, float(rng.uniform(-8, 8)))
    paste(table, faces[name], corners)
    frame = Camera.draw((1280, 720), rng, NONE).shoot(table, rng)
    reading = read_card(frame, RowCard(_right_side_off(corners, 0.15), placed=True), design)
    assert reading.card is not None
    assert str(reading.card) == name


@pytest.mark.parametrize(("name", "seed"), [("AC", 5), ("7H", 4), ("3C", 1)])
def test_a_framed_card_outlined_inside_its_frame_on_three_sides_is_named(
    framed: tuple[Design, dict[str, np.ndarray]], name: str, seed: int
) -> None:
    """The finder outlines the paper inside a frame printed near the edge, but where the
    frame stands out less against the baize its outline may reach the card's edge on one
    side: grown back on every side it is too tall, and grown on the others it is named."""
    design, faces = framed
    rng = np.random.default_rng(seed)
    table = baize(720, 1280, rng)
    corners = card_corners((640.0, 360.0), 140.0, design.aspect, float(rng.uniform(-8, 8)))
    paste(table, faces[name], corners)
    camera = Camera.draw((1280, 720), rng, HARSH)
    frame = camera.shoot(table, rng)
    dx, dy = design.inset
    inside = np.array([[dx, 0], [1 - dx, 0], [1 - dx, 1 - dy], [dx, 1 - dy]], np.float32)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    to_frame = cv2.getPerspectiveTransform(unit, camera.project(corners).astype(np.float32))
    outline = cv2.perspectiveTransform(inside[:, None], to_frame).reshape(4, 2)
    reading = read_card(frame, RowCard(Quad(outline)), design)
    assert reading.card is not None
    assert str(reading.card) == name


def test_a_card_named_where_it_was_placed_stands_when_the_look_around_strays_off_it(
    framed: tuple[Design, dict[str, np.ndarray]],
) -> None:
    """A coup laid at speed on a framed (tuning) design: the JC of its first row, placed
    from the row's edges, was named 1.0 sure there (fitting 0.96); the look around that
    outline fitted far worse (0.77) and guessed the JS, naming nothing, and the JC was
    declined for it. Now the whole coup is read."""
    rows, got = read_laid_coup(framed, 46505)
    assert rows[0][1] == "JC"
    assert [[str(card) for card in row] for row in got] == rows
