"""Parting rows laid at speed: where each card's outline is put."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from hardware_sims.scene_render import NONE, Camera, baize, card_corners, paste
from tests.laid_coups import read_laid_coup
from vision.card_reads import read_card
from vision.design import Design
from vision.geometry import paper_blobs
from vision.layout import locate
from vision.quad import Quad
from vision.row_outline import Node, outline_at
from vision.rows import part_row


@pytest.mark.parametrize("shear", [-0.08, 0.08])
def test_a_card_placed_in_a_row_seen_aslant_keeps_its_left_edge_as_seen(
    design: Design, faces: dict[str, np.ndarray], shear: float
) -> None:
    """A camera looking at the table a little from one side shears the cards: their left
    edges are not square to their tops. A card whose outline is placed from its row's
    edges (each laid over the one before) is outlined along its left edge as it runs."""
    rng = np.random.default_rng(7)
    table = baize(720, 1280, rng)
    width = 150.0
    names = ["7H", "QS", "4D", "TC", "9S"]
    truth = []
    for k, name in enumerate(names):
        corners = card_corners((200.0 + k * 0.85 * width, 360.0), width, design.aspect, 3.0)
        paste(table, faces[name], corners)
        truth.append(corners)
    view = np.array([[1.0, shear, -shear * 360.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    camera = Camera(view, np.ones((720, 1280, 3), np.float32), 0.7, 2.0, 100)
    frame = camera.shoot(table, rng)
    (row,) = locate(frame, design)
    assert len(row) == len(names)
    placed = 0
    for spot, corners, name in zip(row[:-1], truth, names, strict=False):
        seen = camera.project(corners)
        if spot.placed:
            placed += 1
            assert np.abs(spot.quad.corners[[0, 3]] - seen[[0, 3]]).max() < 0.02 * width
        assert str(read_card(frame, spot, design).card) == name
    assert placed >= 3


def test_a_card_placed_in_a_row_ends_where_its_left_edge_does(
    design: Design, faces: dict[str, np.ndarray]
) -> None:
    """Cards laid a little higher or lower than the one before, and turned: the row's paper
    above or below a card may be its neighbour's. A card whose outline is placed from its
    row's edges has its top and bottom where its own left edge begins and ends."""
    rng = np.random.default_rng(11)
    table = baize(720, 1280, rng)
    width = 150.0
    height = width * design.aspect
    names = ["6S", "JC", "3D", "9S", "4H", "8C"]
    lifts = [0.0, -0.06, 0.05, -0.05, 0.06, 0.0]
    turns = [2.0, -4.0, 5.0, -3.0, 4.0, 0.0]
    truth = []
    for k, name in enumerate(names):
        centre = (150.0 + k * 0.82 * width, 360.0 + lifts[k] * height)
        corners = card_corners(centre, width, design.aspect, turns[k])
        paste(table, faces[name], corners)
        truth.append(corners)
    frame = Camera.draw((1280, 720), rng, NONE).shoot(table, rng)
    (row,) = locate(frame, design)
    assert len(row) == len(names)
    assert all(spot.placed for spot in row[:-1])
    off = [
        float(np.abs(spot.quad.corners[[0, 3]] - corners[[0, 3]]).max()) / height
        for spot, corners in zip(row[:-1], truth, strict=False)
    ]
    assert sum(o < 0.025 for o in off) >= 4, off


@pytest.mark.parametrize("seen", [False, True])
def test_an_edge_under_a_chip_does_not_turn_the_card(seen: bool) -> None:
    """The row's paper below a card climbs over a chip lying on its bottom edge, where the
    card's turn is measured: the top edge gives the turn, and the card's height its
    bottom, whether or not the card's left edge was seen."""
    x, width, height, middle = 100.0, 150.0, 210.0, 150.0
    turn = np.deg2rad(5.0)
    columns = np.arange(600)
    tops = 45 + np.tan(turn) * (columns - x)
    bottoms = tops + height / np.cos(turn)
    under = (columns >= 137) & (columns < 200)
    bottoms[under] += 0.5 * (columns[under] - 137)
    node = Node(x, 0.2, tilt=-float(turn) if seen else None)
    tl, tr, _, bl = outline_at(node, tops, bottoms, (width, height), middle)
    top = tr - tl
    assert abs(np.degrees(np.arctan2(top[1], top[0])) - 5.0) < 0.5
    assert abs(float(np.linalg.norm(bl - tl)) - height) < 2.0
    assert abs(float(tl[1]) - 45.0) < 2.0


def test_a_row_of_framed_cards_laid_apart_is_parted_into_its_cards(
    framed: tuple[Design, dict[str, np.ndarray]],
) -> None:
    """Framed cards laid a little apart and turned: the finder and the row's edges outline
    them inside their frames, but they lie apart by their whole width, frame and all."""
    design, faces = framed
    rng = np.random.default_rng(5)
    table = baize(720, 1280, rng)
    width = 160.0
    names = ["KC", "9H", "QC", "JC", "8S", "4H"]
    for k, name in enumerate(names):
        corners = card_corners(
            (140.0 + k * 1.12 * width, 360.0), width, design.aspect, 6.0 * (-1) ** k
        )
        paste(table, faces[name], corners)
    frame = Camera.draw((1280, 720), rng, NONE).shoot(table, rng)
    (row,) = locate(frame, design)
    assert len(row) == len(names)


def test_a_framed_card_under_the_next_is_seen_by_the_share_of_its_whole_width(
    framed: tuple[Design, dict[str, np.ndarray]],
) -> None:
    """Framed cards each laid over a fifth of the one before: outlined inside their
    frames, each still shows four fifths of its whole width, and the last the whole."""
    design, faces = framed
    rng = np.random.default_rng(9)
    table = baize(720, 1280, rng)
    width = 160.0
    names = ["5H", "AC", "7S", "4C"]
    for k, name in enumerate(names):
        paste(table, faces[name], card_corners((200.0 + k * 0.8 * width, 360.0), width,
                                               design.aspect, 0.0))
    frame = Camera.draw((1280, 720), rng, NONE).shoot(table, rng)
    (row,) = locate(frame, design)
    assert len(row) == len(names)
    for spot in row[:-1]:
        assert spot.visible == pytest.approx(0.8, abs=0.04)
    assert row[-1].visible == pytest.approx(1.0, abs=0.02)  # nothing lies over it


def test_a_row_nearer_the_camera_is_outlined_at_its_own_cards_size(
    design: Design, faces: dict[str, np.ndarray]
) -> None:
    """The cards of a row nearer the camera look larger than the frame's others: where a
    card of the row was found whole, the row's cards are outlined at its size, not at the
    frame's (the last card's outline was 15 pixels short of its edges)."""
    rng = np.random.default_rng(4)
    table = baize(720, 1280, rng)
    width = 170.0
    height = width * design.aspect
    names = ["7H", "QS", "4D", "TC", "9S", "3C"]
    xs = [200.0 + width * k for k in (0.0, 1.0, 1.83, 2.66, 3.49, 4.32)]
    turns, lifts = [0, 3, -4, 2, -3, 4], [0, 0.04, -0.04, 0.03, -0.03, 0.02]
    truth = []
    for x, name, turn, lift in zip(xs, names, turns, lifts, strict=True):
        corners = card_corners((x, 360 + lift * height), width, design.aspect, turn)
        paste(table, faces[name], corners)
        truth.append(corners)
    frame = Camera.draw((1280, 720), rng, NONE).shoot(table, rng)
    (blob,) = paper_blobs(frame)
    # The first card touches the next: the finder outlines it whole. The frame's other
    # cards (none drawn here) are 8 % smaller.
    cards = part_row(frame, blob, design.aspect, [Quad(truth[0])], 0.92 * height)
    assert cards is not None
    assert len(cards) == len(names)
    assert np.abs(cards[-1].quad.corners - truth[-1]).max() < 0.02 * width
    assert [str(read_card(frame, card, design).card) for card in cards] == names


def test_two_rows_laid_a_few_pixels_apart_are_two_rows(
    design: Design, faces: dict[str, np.ndarray]
) -> None:
    """Rouge laid 8 px under noir: closed up, the two rows were one blob of paper, read as
    one row of three cards twice as tall (a whole coup lost but for three declines)."""
    rng = np.random.default_rng(11)
    table = baize(720, 1280, rng)
    width = 125.0
    height = width * design.aspect
    rows = [["AS", "6C", "9S", "5H", "2H", "3D", "QC"], ["QS", "KD", "9H", "JD", "4D", "AH", "8C"]]
    for r, names in enumerate(rows):
        for k, name in enumerate(names):
            centre = (160.0 + k * 1.02 * width, 200.0 + r * (height + 8.0))
            paste(table, faces[name], card_corners(centre, width, design.aspect, 0.0))
    frame = Camera.draw((1280, 720), rng, NONE).shoot(table, rng)
    assert len(paper_blobs(frame)) == 2
    found = locate(frame, design)
    assert [[str(read_card(frame, spot, design).card) for spot in row] for row in found] == rows


def test_cards_outlined_whole_with_no_room_between_are_next_to_each_other(
    design: Design, faces: dict[str, np.ndarray]
) -> None:
    """A coup laid apart, in harder light, blur and JPEG (the bench's row): a five of
    spades touching the cards either side was one blob with them; the finder outlined
    each whole, a little narrower than they are, and the five lay further from the card
    before than a card's advance, so two places were taken for it (a row of eight read
    as nine). With no room for a card between them, two cards outlined whole are next to
    each other."""
    from bench.bench_vision import HARDER
    from hardware_sims.scene_render import random_coup, render_coup
    from vision.layout import read_layout

    rng = np.random.default_rng(23002)
    rows = random_coup(rng)
    scene = render_coup(faces, rows, rng, disturbance=HARDER)
    got = [[str(s.reading.card) for s in row] for row in read_layout(scene.image, design)]
    assert rows[0][5] == "5S"
    assert got == rows


def test_a_last_card_the_finder_outlined_whole_may_end_its_row_short_of_a_card(
    framed: tuple[Any, dict[str, Any]],
) -> None:
    """Design 105 (framed near its edges), seed 26 203: noir's last card, a little turned,
    ends across the row's middle 0.81 of a card's width from its left edge, below the
    least a last card may (0.82); the finder outlined it whole. The row of eight was read
    as seven, its last two cards one declined."""
    rows, got = read_laid_coup(framed, 26203)
    assert [[str(card) for card in row] for row in got] == rows
