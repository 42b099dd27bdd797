"""Parting rows laid at speed: where each card's outline is put."""

from __future__ import annotations

import numpy as np

from hardware_sims.scene_render import AT_SPEED, HARSH, random_coup, render_laid_coup
from vision.design import Design
from vision.geometry import find_cards
from vision.layout import locate
from vision.quad import Quad
from vision.rows import _choose, _Node, _outline


def test_the_last_card_of_a_row_keeps_the_outline_the_finder_drew(
    design: Design, faces: dict[str, np.ndarray]
) -> None:
    # A coup whose rows each end on a card the finder outlined whole, but whose span to
    # the row's end comes out a pixel short of the width the row is parted at: it was
    # outlined again from the row's edges, worse.
    rng = np.random.default_rng(3002)
    scene = render_laid_coup(faces, random_coup(rng), rng, laying=AT_SPEED, disturbance=HARSH)
    found = find_cards(scene.image, portrait_only=True, cut_rows=False)
    rows = locate(scene.image, design)
    assert len(rows) == 2
    for row in rows:
        last = row[-1]
        assert not last.placed
        assert last.visible == 1.0
        assert any(np.array_equal(last.quad.corners, q.corners) for q in found)


def test_an_edge_under_a_chip_does_not_turn_the_card() -> None:
    x, width, height, middle = 100.0, 150.0, 210.0, 150.0
    turn = np.deg2rad(5.0)
    columns = np.arange(600)
    tops = 45 + np.tan(turn) * (columns - x)
    bottoms = tops + height / np.cos(turn)
    # A chip over the card's bottom edge, where its turn is measured: that edge climbs.
    under = (columns >= 137) & (columns < 200)
    bottoms[under] += 0.5 * (columns[under] - 137)
    tl, tr, _, bl = _outline(x, tops, bottoms, (width, height), middle)
    top = tr - tl
    assert abs(np.degrees(np.arctan2(top[1], top[0])) - 5.0) < 0.5
    assert abs(float(np.linalg.norm(bl - tl)) - height) < 2.0
    assert abs(float(tl[1]) - 45.0) < 2.0


def _card(x: float, width: float) -> _Node:
    corners = np.array([[x, 0], [x + width, 0], [x + width, 240], [x, 240]], np.float32)
    return _Node(x, 3.0, Quad(corners))


def test_cards_the_finder_outlined_larger_than_the_row_reach_as_far_as_their_width() -> None:
    # The near end of a row seen larger, its cards laid a little apart: each next card lies
    # further on than the row's own card width allows, but within the finder's outline's.
    anchors = [_card(25, 175), _card(229, 170), _card(427, 168)]
    chosen = _choose([], anchors, _Node(25, 1.0), 427 + 165, 160)
    assert chosen is not None
    assert [n.x for n in chosen] == [25, 229, 427]
