"""Where a card looked for around its outlines was found: every place of every outline is
compared in one product, and the outline and place its card fits best are the ones a
comparison outline by outline finds (the first met, on a tie)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import ALL_CARDS, Card
from vision.classifier import share_columns
from vision.design import FACE_WEIGHT, Design, cut_face
from vision.found import found_at, moved
from vision.look import BEST_SHIFTS, Look, Looks
from vision.quad import Quad


def _looks(design: Design, seed: int, count: int) -> Looks:
    """`count` outlines looked around, each with its best places' features drawn at random."""
    rng = np.random.default_rng(seed)
    looks: Looks = {}
    for k in range(count):
        corners = (rng.random((4, 2)) * 40 + [[0, 0], [80, 0], [80, 112], [0, 112]]).astype(
            np.float32
        ) + np.float32(10 * k)
        index = rng.standard_normal((BEST_SHIFTS, design.index.shape[-1])).astype(np.float32)
        face = rng.standard_normal((BEST_SHIFTS, design.face.shape[-1])).astype(np.float32)
        places = rng.integers(-8, 9, (BEST_SHIFTS, 2))
        looks[corners.tobytes()] = Look(index, face, Quad(corners), places)
    return looks


def _one_by_one(looks: Looks, card: Card, visible: float, design: Design) -> Quad | None:
    """`found_at` made the plain way: a product per outline, the best kept as met."""
    named = design.cards.index(str(card))
    columns = share_columns(visible, design)
    face = design.masked(columns)[0][:, named] if columns else design.face[:, named]
    best, where = -np.inf, None
    for seen in looks.values():
        observed = cut_face(seen.face, columns, design.size) if columns else seen.face
        fits = FACE_WEIGHT * (face @ observed.T) + (1 - FACE_WEIGHT) * (
            design.index[:, named] @ seen.index.T
        )
        place = int(np.argmax(fits.max(axis=0)))
        if fits[:, place].max() > best:
            best = float(fits[:, place].max())
            where = moved(seen.outline, seen.places[place], design.size)
    return where


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    count=st.integers(1, 12),
    card=st.sampled_from(ALL_CARDS),
    visible=st.sampled_from([1.0, 0.99, 0.8, 0.55, 0.3]),
)
def test_a_card_is_found_where_a_comparison_outline_by_outline_finds_it(
    design: Design, seed: int, count: int, card: Card, visible: float
) -> None:
    looks = _looks(design, seed, count)
    got = found_at(looks, card, visible, design)
    expected = _one_by_one(looks, card, visible, design)
    assert got is not None
    assert expected is not None
    assert np.array_equal(got.corners, expected.corners)


def test_of_two_outlines_seen_alike_the_first_is_where_the_card_was_found(
    design: Design,
) -> None:
    first, second = _looks(design, 7, 2).values()
    alike = Look(first.index, first.face, second.outline, second.places[::-1])
    looks = {b"first": first, b"second": alike}
    got = found_at(looks, ALL_CARDS[5], 1.0, design)
    expected = _one_by_one({b"first": first}, ALL_CARDS[5], 1.0, design)
    assert got is not None
    assert expected is not None
    assert np.array_equal(got.corners, expected.corners)


def test_nothing_looked_around_is_found_nowhere(design: Design) -> None:
    assert found_at({}, ALL_CARDS[0], 1.0, design) is None


def test_a_looks_face_is_cut_once_a_width_as_it_is_cut_among_others(design: Design) -> None:
    """A look compared again at the same share of a card in view is not cut again, and its
    cut is, to the bit, the one it gets cut together with other looks."""
    looks = list(_looks(design, 3, 4).values())
    for columns in (2, 20, 38):
        together = cut_face(np.concatenate([one.face for one in looks]), columns, design.size)
        alone = np.concatenate([one.face_cut(columns, design.size) for one in looks])
        assert np.array_equal(alone, together)
        assert looks[0].face_cut(columns, design.size) is looks[0].face_cut(columns, design.size)
