"""Faces at the fine look's size: a card straightened larger than the classifier's maps, as
blurred ink, for a second look where two faces differ by a few pixels (`vision.twin_look`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.twins import SUIT_TWIN

FINE_WIDTH = 120  # pixels across a card straightened for the fine look
SHIFT = 3  # pixels either way: an outline may be that far off at this size
_DIFFER = 30  # of 255: ink that parts a card from its twin
_GRID = 2  # every second pixel of the parted ink either way is compared
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


# Where a card and its twin differ, one way up: the pixels (as offsets into a card
# straightened with a border `SHIFT` wide), their columns, and both faces' ink there.
Parted = tuple[np.ndarray, np.ndarray, np.ndarray]


def parted(fine: np.ndarray) -> list[list[Parted]]:
    """For each card of a design (its fine faces), where it and its twin differ, either way
    up, column by column (a card's share in view is a prefix), both faces' ink there (2,
    pixels)."""
    each = []
    for named in range(len(fine)):
        faces = fine[[named, int(SUIT_TWIN[named])]].astype(np.float32)
        ways = []
        for turned in (faces, faces[:, ::-1, ::-1]):
            apart = np.zeros(turned.shape[1:], bool)
            apart[::_GRID, ::_GRID] = np.abs(turned[0] - turned[1])[::_GRID, ::_GRID] > _DIFFER
            xs, ys = np.nonzero(apart.T)
            at = (ys + SHIFT) * (turned.shape[2] + 2 * SHIFT) + xs + SHIFT
            ways.append((at, xs, turned[:, ys, xs]))
        each.append(ways)
    return each
