"""A card's surroundings shrunk through floating point: the very pixels of OpenCV's 8-bit
path, which is slower."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.card_reads import _shrunk


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    height=st.integers(8, 260),
    width=st.integers(8, 260),
    scale=st.floats(0.2, 0.99) | st.sampled_from([0.5, 1 / 3, 0.25]),
)
def test_an_8_bit_piece_shrinks_to_opencv_s_own_pixels(
    seed: int, height: int, width: int, scale: float
) -> None:
    rng = np.random.default_rng(seed)
    piece: np.ndarray = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    # Cards are smooth: half the examples blurred, where means fall near half-levels more.
    if seed % 2:
        piece = cv2.GaussianBlur(piece, (0, 0), 2.0)
    expected = cv2.resize(piece, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    got = _shrunk(piece, scale)
    assert got.dtype == np.uint8
    assert np.array_equal(got, expected)
