"""Parting rows laid at speed: where each card's outline is put."""

from __future__ import annotations

import numpy as np

from hardware_sims.scene_render import AT_SPEED, HARSH, random_coup, render_laid_coup
from vision.design import Design
from vision.geometry import find_cards
from vision.layout import locate
from vision.rows import _outline


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
