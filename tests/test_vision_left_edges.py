"""The left edges of a row's cards are counted along every tilt from one integral image:
exactly the counts of the edge map sheared upright for each tilt, widened and summed."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.row_edges import _ANGLES, _sheared_counts


def _warped_counts(edge: np.ndarray) -> np.ndarray:
    """The counts made the plain way: a nearest-neighbour shear of the map per tilt, a
    dilation a pixel either way, a sum per column."""
    thick, length = edge.shape
    middle = thick / 2
    counts = []
    for tilt in _ANGLES:
        shear = np.array([[1, np.tan(tilt), -np.tan(tilt) * middle], [0, 1, 0]], np.float32)
        sheared = cv2.warpAffine(
            edge.astype(np.float32),
            shear,
            (length, thick),
            flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
        )
        counts.append(cv2.dilate(sheared, np.ones((1, 3), np.uint8)).sum(axis=0))
    return np.stack(counts)


@settings(max_examples=60, deadline=None)
@given(
    thick=st.integers(2, 260),
    length=st.integers(2, 700),
    density=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_counts_along_every_tilt_are_the_sheared_maps(
    thick: int, length: int, density: float, seed: int
) -> None:
    edge = np.random.default_rng(seed).random((thick, length)) < density
    counts = _sheared_counts(edge)
    assert counts.dtype == np.float32
    assert np.array_equal(counts, _warped_counts(edge))


def test_upright_lines_are_counted_at_their_tilt() -> None:
    edge = np.zeros((120, 300), bool)
    edge[:, 50] = True  # upright
    rows = np.arange(120)
    edge[rows, np.round(200 + np.tan(np.deg2rad(8)) * (rows - 60)).astype(int)] = True
    counts = _sheared_counts(edge)
    upright, tilted = list(np.rad2deg(_ANGLES)).index(0.0), list(np.rad2deg(_ANGLES)).index(8.0)
    assert counts[upright, 50] == 120
    assert counts[tilted, 200] == 120
    assert counts[upright, 200] < 60
