"""The reader's hand-made shortcuts give what numpy's own functions give, to the bit: a card's
reading must not change with how fast it is made."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.edges import _along
from vision.features import _cut
from vision.percentile import percentile
from vision.quad import Quad

_COORDINATES = st.floats(0.0, 2000.0, width=32, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 5), st.integers(1, 40))
def test_windows_cut_by_hand_are_numpys_sliding_windows(seed: int, cards: int, count: int) -> None:
    rng = np.random.default_rng(seed)
    maps = rng.standard_normal((cards, 40, 30, 3)).astype(np.float32)
    shape = (int(rng.integers(1, 20)), int(rng.integers(1, 15)))
    which = rng.integers(0, cards, count)
    corners = np.column_stack([
        rng.integers(0, 30 - shape[1] + 1, count), rng.integers(0, 40 - shape[0] + 1, count)
    ])
    view = np.lib.stride_tricks.sliding_window_view(maps, shape, axis=(1, 2))
    expected = view[which, corners[:, 1], corners[:, 0]].transpose(0, 2, 3, 1)
    got = _cut(maps, which, corners, shape)
    assert got.shape == expected.shape
    assert np.array_equal(got, expected)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(_COORDINATES, _COORDINATES), min_size=3, max_size=40))
def test_an_outline_is_stepped_along_each_side_as_side_by_side_steps_would(
    points: list[tuple[float, float]],
) -> None:
    polygon = np.array(points, np.float32)
    ends = np.roll(polygon, -1, axis=0)
    steps = np.maximum(np.linalg.norm(ends - polygon, axis=1).astype(int), 1)
    t = np.concatenate([np.arange(n, dtype=np.float32) / n for n in steps])
    start = np.repeat(polygon, steps, axis=0)
    expected = start + (np.repeat(ends, steps, axis=0) - start) * t[:, None]
    got = _along(polygon)
    assert got.dtype == expected.dtype
    assert np.array_equal(got, expected)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_COORDINATES, _COORDINATES), min_size=4, max_size=4))
def test_an_outlines_size_is_np_linalg_norms(corners: list[tuple[float, float]]) -> None:
    c = np.array(corners, np.float32)
    quad = Quad(c)
    assert quad.width == float(np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
    assert quad.height == float(np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 3000),
    st.sampled_from([np.uint8, np.float32, np.float64]),
    st.one_of(st.sampled_from([0.0, 25.0, 50.0, 60.0, 100.0]), st.floats(0.0, 100.0)),
)
def test_a_percentile_is_np_percentiles(seed: int, count: int, dtype: type, q: float) -> None:
    rng = np.random.default_rng(seed)
    # Few distinct values too, as the grey levels of a strip have.
    spread = 256 if dtype is np.uint8 else float(rng.choice([4.0, 300.0]))
    values = (rng.random(count) * spread).astype(dtype)
    assert percentile(values, q) == float(np.percentile(values, q))
