"""Reading whole coups: rows from the top, cards left to right, nothing named wrong."""

from __future__ import annotations

import numpy as np

from hardware_sims.scene_render import (
    CARD_NAMES as CARDS,
)
from hardware_sims.scene_render import (
    HARSH,
    Camera,
    Disturbance,
    baize,
    card_corners,
    paste,
    random_coup,
    render_coup,
)
from vision.card_reads import read_card, read_cards
from vision.design import Design
from vision.geometry import find_cards
from vision.layout import Seen, group_rows, locate, read_layout
from vision.quad import Quad


def _names(rows: list[list[Seen]]) -> list[list[str | None]]:
    return [[str(s.reading.card) if s.reading.card else None for s in row] for row in rows]


def _read_at_speed(
    design: Design, faces: dict[str, np.ndarray], seed: int
) -> tuple[list[list[str]], list[list[str | None]], np.ndarray]:
    """A coup laid at speed from `seed`: the rows laid, the rows read, and the picture; no
    row read short and no card named wrong."""
    from hardware_sims.scene_render import AT_SPEED, render_laid_coup

    rng = np.random.default_rng(seed)
    rows = random_coup(rng)
    scene = render_laid_coup(faces, rows, rng, laying=AT_SPEED, disturbance=HARSH)
    got = _names(read_layout(scene.image, design))
    assert [len(r) for r in got] == [len(r) for r in rows]
    for row_got, row_want in zip(got, rows, strict=True):
        assert all(g in (None, w) for g, w in zip(row_got, row_want, strict=True)), got
    return rows, got, scene.image


def test_whole_coups_are_read_exactly(design: Design, faces: dict[str, np.ndarray]) -> None:
    exact = 0
    for seed in range(2000, 2008):
        rng = np.random.default_rng(seed)
        scene = render_coup(faces, random_coup(rng), rng, disturbance=HARSH)
        got = _names(read_layout(scene.image, design))
        assert [len(r) for r in got] == [len(r) for r in scene.rows]
        for row_got, row_want in zip(got, scene.rows, strict=True):
            for name_got, name_want in zip(row_got, row_want, strict=True):
                assert name_got in (None, name_want)  # declining is allowed, a wrong name not
        exact += got == scene.rows
    assert exact >= 7


def test_sixteen_cards_at_1280x720(design: Design, faces: dict[str, np.ndarray]) -> None:
    rng = np.random.default_rng(77)
    rows = [
        ["AS", "2H", "3D", "4C", "5S", "6H", "7D", "8C"],
        ["9S", "TH", "JD", "QC", "KS", "AH", "2D", "3C"],
    ]
    scene = render_coup(faces, rows, rng, disturbance=HARSH)
    assert _names(read_layout(scene.image, design)) == rows


def test_the_cards_are_located_in_rows_once_for_all_who_read_them(
    design: Design, faces: dict[str, np.ndarray]
) -> None:
    rng = np.random.default_rng(2001)
    scene = render_coup(faces, random_coup(rng), rng, disturbance=HARSH)
    rows = locate(scene.image, design)
    assert [len(r) for r in rows] == [len(r) for r in scene.rows]
    assert [[s.quad.centre for s in r] for r in rows] == [
        [s.quad.centre for s in r] for r in read_layout(scene.image, design)
    ]
    heights = [float(np.mean([s.quad.centre[1] for s in r])) for r in rows]
    assert heights == sorted(heights)
    assert all([s.quad.centre[0] for s in r] == sorted(s.quad.centre[0] for s in r) for r in rows)


def test_cards_touching_in_a_row_are_parted(design: Design, faces: dict[str, np.ndarray]) -> None:
    rng = np.random.default_rng(8)
    table = baize(720, 1280, rng)
    row = ["KH", "QS", "JD", "TC", "9H"]
    width = 130.0
    for i, name in enumerate(row):
        # Edge to edge, each turned a little the other way: they touch at the corners and
        # their blobs merge, with no card hiding part of another.
        corners = card_corners((300 + i * (width + 1), 360), width, 1.4, 1.0 * (-1) ** i)
        paste(table, faces[name], corners)
    frame = Camera.draw((1280, 720), rng, Disturbance(blur=2.0)).shoot(table, rng)
    assert len(find_cards(frame, portrait_only=True)) == len(row)
    (got,) = _names(read_layout(frame, design))
    assert all(g in (None, w) for g, w in zip(got, row, strict=True))
    assert sum(g == w for g, w in zip(got, row, strict=True)) >= 4


def _seen(x: float, y: float) -> Seen:
    corners = np.float32([[x - 40, y - 56], [x + 40, y - 56], [x + 40, y + 56], [x - 40, y + 56]])
    from vision.classifier import Reading

    return Seen(Quad(corners), Reading(None, None, 0.0))


def test_rows_are_grouped_top_down_and_left_to_right() -> None:
    seen = [_seen(500, 410), _seen(100, 130), _seen(300, 118), _seen(200, 400), _seen(400, 140)]
    rows = group_rows(seen)
    assert [[s.quad.centre[0] for s in row] for row in rows] == [[100, 300, 400], [200, 500]]


def test_a_tilted_frame_still_gives_two_rows(design: Design, faces: dict[str, np.ndarray]) -> None:
    rng = np.random.default_rng(31)
    rows = [["8S", "7C", "KD", "9H"], ["AD", "2S", "JH", "QC", "TD"]]
    scene = render_coup(faces, rows, rng, disturbance=HARSH)
    assert _names(read_layout(scene.image, design)) == rows


def test_rows_laid_at_speed_come_out_whole(design: Design, faces: dict[str, np.ndarray]) -> None:
    """Overlapping, touching, turned: every card of a row has an entry, named right or
    declined, and the overlapping ones are not all declined."""
    from hardware_sims.scene_render import AT_SPEED, render_laid_coup

    named = 0
    for seed in range(3):
        rng = np.random.default_rng(300 + seed)
        rows = [[str(c) for c in rng.choice(list(CARDS), n)] for n in (6, 5)]
        scene = render_laid_coup(faces, rows, rng, laying=AT_SPEED, disturbance=HARSH)
        got = _names(read_layout(scene.image, design))
        assert [len(r) for r in got] == [len(r) for r in rows], (rows, got)
        for row_got, row_want in zip(got, rows, strict=True):
            assert all(g in (None, w) for g, w in zip(row_got, row_want, strict=True))
            named += sum(g == w for g, w in zip(row_got, row_want, strict=True))
    assert named >= 20  # of 33


def test_cards_partly_hidden_by_a_turned_neighbour_are_named(
    framed: tuple[Design, dict[str, np.ndarray]],
) -> None:
    """A coup laid at speed on a framed (tuning) design: the 2S and the QS of its first row
    lie partly under the next card, which hides more of them at one corner than their
    share in view along their top and bottom edges says; read as a little more hidden,
    they are named, and nothing is named wrong."""
    rows, got, _ = _read_at_speed(*framed, 40501)
    assert (rows[0][1], rows[0][4]) == ("2S", "QS")
    assert (got[0][1], got[0][4]) == ("2S", "QS")


def test_a_card_outlined_leaning_with_its_neighbour_is_not_named_wrong(
    design: Design, faces: dict[str, np.ndarray]
) -> None:
    """A coup laid at speed on the built-in design: the finder outlines its first card, the
    AD partly under the next, with its right side leaning along the neighbour's edge (its
    sides 5 degrees apart). Read there as it would be a card outlined around its own
    paper, it passed for the AH; an outline so skewed is read as a placed one is."""
    rows, _, image = _read_at_speed(design, faces, 52006)
    assert rows[0][0] == "AD"
    (first, *_), *_ = locate(image, design)
    assert first.quad.skew > np.deg2rad(3.0)
    assert first.placed


def test_a_card_seen_from_above_has_its_opposite_sides_parallel() -> None:
    """A card's outline skews only as far as its opposite sides part."""
    upright = Quad(np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32))
    assert upright.skew == 0.0
    leaning = Quad(np.array([[0, 0], [100, 0], [90, 140], [0, 140]], np.float32))
    assert abs(leaning.skew - np.arctan(10 / 140)) < 1e-6


def test_framed_cards_placed_in_a_row_are_snapped_inside_their_frames(
    framed: tuple[Design, dict[str, np.ndarray]],
) -> None:
    """A coup laid at speed on a framed (tuning) design: a card placed from its row's edges
    lies inside its frame, where its row's paper ends. Snapped as far as an unframed card's
    sides are, some of its sides reached the paper's edge beyond the frame and others not,
    and the 7D, the 4S and the AC below were declined; snapped within the frame, they are
    named, and nothing is named wrong."""
    rows, got, _ = _read_at_speed(*framed, 40506)
    assert (rows[0][3], rows[1][2], rows[1][6]) == ("7D", "4S", "AC")
    assert (got[0][3], got[1][2], got[1][6]) == ("7D", "4S", "AC")


def test_a_frames_cards_read_together_read_as_each_alone(
    design: Design,
    faces: dict[str, np.ndarray],
    framed: tuple[Design, dict[str, np.ndarray]],
) -> None:
    """The cards of a frame are looked for around together, the products over the
    references made once for all of them: each reads exactly as it does alone (the same
    card, guess and confidence), on a plain design and on one framed near the edge. (The
    matrix library may round a small product and a large one differently in the last bit:
    a score may differ by that much.)"""
    from hardware_sims.scene_render import AT_SPEED, render_laid_coup

    cases = [((design, faces), 2104), ((design, faces), 2105), (framed, 2106)]
    for (deck, deck_faces), seed in cases:
        rng = np.random.default_rng(seed)
        scene = render_laid_coup(
            deck_faces, random_coup(rng), rng, laying=AT_SPEED, disturbance=HARSH
        )
        spots = [spot for row in locate(scene.image, deck) for spot in row]
        together = read_cards(scene.image, spots, deck)
        assert len(spots) >= 4
        assert sum(r.card is not None for r in together) >= 3
        alone = [read_card(scene.image, spot, deck) for spot in spots]
        assert [(r.card, r.guess, r.confidence) for r in together] == [
            (r.card, r.guess, r.confidence) for r in alone
        ]
        assert np.allclose([r.score for r in together], [r.score for r in alone], atol=1e-5)
        assert np.allclose([r.split for r in together], [r.split for r in alone], atol=1e-5)


def test_a_card_named_at_its_outline_is_not_named_another_less_surely_around_it(
    design: Design, faces: dict[str, np.ndarray]
) -> None:
    """A coup laid at speed on the built-in design: the 2S of its first row, placed from its
    row's edges, is named at its outline, but not surely enough to stand there; looked for
    around it, an outline rebuilt from its left edge fits the 2C a little better (0.50
    sure, 0.59 at its outline): the two disagree, and it is not named the 2C. Guessing
    the 2C, it is looked at beside its twin: at the size either fits best the 2S fits
    0.977, 0.16 better, and it is named the 2S."""
    rows, got, _ = _read_at_speed(design, faces, 56001)
    assert rows[0][1] == "2S"
    assert str(got[0][1]) == "2S"


def test_a_card_under_the_next_is_looked_at_where_the_finder_outlined_it_too(
    framed: tuple[Design, dict[str, np.ndarray]],
) -> None:
    """A coup laid at speed on a framed (tuning) design: the 8C of its first row lies under
    the AS, and its outline from the row's edges has its top edge through its index; the
    finder outlined it truly, but for its right side, on the AS's edge. Looked at there
    too, at a card's width, it is named."""
    rows, got, _ = _read_at_speed(*framed, 46500)
    assert rows[0][1] == "8C"
    assert got[0][1] == "8C"
