"""Faces at the fine look's size: a card straightened larger than the classifier's maps, as
blurred ink, for a second look where two faces differ by a few pixels (`vision.twin_look`)."""

from __future__ import annotations

import cv2
import numpy as np

FINE_WIDTH = 120  # pixels across a card straightened for the fine look
# Pixels: the references are sharp, a camera's card is not. The fine faces are cached with
# a design: a change here needs `vision.design._CACHE_VERSION` bumped.
_BLUR = 1.0


def fine_size(aspect: float) -> tuple[int, int]:
    """(width, height) of a card of the given height-over-width aspect at the fine size."""
    return FINE_WIDTH, round(FINE_WIDTH * aspect)


def fine_faces(straight: list[np.ndarray]) -> np.ndarray:
    """The fine references: each face (BGR, straightened to the fine size) as ink, 0..255,
    (faces, height, width) uint8."""
    faces = [ink(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)) for face in straight]
    return np.stack(faces).round().astype(np.uint8)


def ink(grey: np.ndarray) -> np.ndarray:
    """How dark each pixel of a grey card is, 0..255, blurred (float32). Grey, not colour:
    a card and its suit twin are of one colour."""
    dark: np.ndarray = cv2.GaussianBlur(255.0 - grey.astype(np.float32), (0, 0), _BLUR)
    return dark
