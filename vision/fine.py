"""Faces at the fine look's size: a card straightened larger than the classifier's maps, as
blurred ink, for a second look where two faces differ by a few pixels (`vision.twin_look`,
`vision.rival_look`)."""

from __future__ import annotations

import functools

import cv2
import numpy as np

from vision.quad import Quad, rectify, surround
from vision.twins import SUIT_TWIN

FINE_WIDTH = 120  # pixels across a card straightened for the fine look
SHIFT = 3  # pixels either way: an outline may be that far off at this size
_DIFFER = 30  # of 255: ink that parts a card from its twin
_GRID = 2  # every second pixel of the parted ink either way is compared
_CORNER_MORE = 0.05  # of a card's width
_PATCH_LEAST = 12  # compared pixels of a patch: fewer say too little of its shape
# Pixels around the parted ink compared with it: the paper about a pip and the ink of its
# core that both faces share. A blurred club and a spade differ there mostly in how much
# ink lies where they part, which a comparison of the parted pixels alone cannot see.
_AROUND = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
# Pixels: the references are sharp, a camera's card is not. The fine faces are cached with
# a design: a change here needs `vision.design._CACHE_VERSION` bumped.
_BLUR = 1.0


def fine_size(aspect: float) -> tuple[int, int]:
    """(width, height) of a card of the given height-over-width aspect at the fine size."""
    return FINE_WIDTH, round(FINE_WIDTH * aspect)


def in_view(visible: float) -> float:
    """The share of a card's width compared where the left `visible` share is in view: the
    next card of a row, a little turned, may hide a corner more than its share says."""
    return visible - _CORNER_MORE if visible < 1.0 else 1.0


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


# Where a card and its twin differ, one way up, patch by patch (a pip, the index's pip,
# with the paper and shared ink around): the pixels, patch after patch (as offsets into a
# card straightened with a border `SHIFT` wide); the column each patch ends at, the patches
# in that order (a card's share in view holds a first few whole); how many pixels the
# first 1, 2, ... patches hold; and, side by side (pixels, 3 * patches), which patch each
# pixel is of and both faces' ink there centred and of unit length in each patch: one
# product with the card gives its sums and its covariance with each face, patch by patch.
Parted = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def parted(fine: np.ndarray) -> list[list[Parted]]:
    """For each card of a design (its fine faces), where it and its twin differ, either
    way up (`Parted`). Made once a pair: the twin's is the card's with the two faces'
    columns swapped. Where two faces differ, and every patch found there, does not depend
    on their order, and each face's ink in a patch is centred and scaled on its own: the
    same numbers, in the other column."""
    each: dict[int, list[Parted]] = {}
    for named in range(len(fine)):
        twin = int(SUIT_TWIN[named])
        if twin in each:
            each[named] = [swapped(ways) for ways in each[twin]]
            continue
        each[named] = pair_parted(fine, named, twin)
    return [each[named] for named in range(len(fine))]


def pair_parted(fine: np.ndarray, named: int, other: int) -> list[Parted]:
    """Where the fine faces of cards `named` and `other` differ, either way up (`Parted`,
    `named`'s face first)."""
    faces = fine[[named, other]].astype(np.float32)
    return [_patches(turned) for turned in (faces, faces[:, ::-1, ::-1])]


def swapped(ways: Parted) -> Parted:
    """`Parted` of two faces, for the same two faces the other way round."""
    at, ends, stops, joined = ways
    patches = joined.shape[1] // 3
    member, first, second = np.split(joined, [patches, 2 * patches], axis=1)
    return at, ends, stops, np.hstack([member, second, first])


def _patches(faces: np.ndarray) -> Parted:
    """`Parted` for two faces (2, height, width), one way up."""
    differ = (np.abs(faces[0] - faces[1]) > _DIFFER).astype(np.uint8)
    _, labels = cv2.connectedComponents(cv2.dilate(differ, _AROUND))
    grid = np.zeros_like(labels)
    grid[::_GRID, ::_GRID] = labels[::_GRID, ::_GRID]
    ys, xs = np.nonzero(grid)
    found = grid[ys, xs]
    kept = [k for k in np.unique(found) if np.count_nonzero(found == k) >= _PATCH_LEAST]
    kept.sort(key=lambda k: int(xs[found == k].max()))
    rows: list[int] = []
    cols: list[int] = []
    units = np.zeros((len(ys), 2 * len(kept)), np.float32)
    ends: list[int] = []
    stops: list[int] = []
    for p, k in enumerate(kept):
        mine = np.flatnonzero(found == k)
        ink_there = faces[:, ys[mine], xs[mine]]
        centred = ink_there - ink_there.mean(axis=1, keepdims=True)
        centred /= np.maximum(np.linalg.norm(centred, axis=1, keepdims=True), 1e-6)
        units[len(rows) + np.arange(len(mine))[:, None], [p, len(kept) + p]] = centred.T
        rows += list(ys[mine])
        cols += list(xs[mine])
        ends.append(int(xs[mine].max()))
        stops.append(len(rows))
    n = len(rows)
    member = np.zeros((n, len(kept)), np.float32)
    member[np.arange(n), np.repeat(np.arange(len(kept)), np.diff([0, *stops]))] = 1.0
    stride = faces.shape[2] + 2 * SHIFT
    at = (np.array(rows, np.intp) + SHIFT) * stride + np.array(cols, np.intp) + SHIFT
    return at, np.array(ends), np.array(stops, np.intp), np.hstack([member, units[:n]])


def straightened(frame: np.ndarray, quad: Quad, size: tuple[int, int],
                 border: int = SHIFT) -> np.ndarray | None:
    """The card as blurred ink at `size` with a `border` (pixels) all round. Only the
    piece of the frame under it is made grey: a frame is large, a card small."""
    width, height = size
    outer = surround(quad, border, size)
    low = np.maximum(np.floor(outer.corners.min(axis=0)).astype(int), 0)
    high = np.minimum(np.ceil(outer.corners.max(axis=0)).astype(int) + 1, frame.shape[1::-1])
    if np.any(high <= low):  # an outline wholly outside the frame: nothing to look at
        return None
    piece = cv2.cvtColor(frame[low[1] : high[1], low[0] : high[0]], cv2.COLOR_BGR2GRAY)
    bordered = (width + 2 * border, height + 2 * border)
    return ink(rectify(piece, Quad(outer.corners - low), bordered))


@functools.cache
def shift_offsets(width: int) -> np.ndarray:
    """The card's shifts against the faces, -SHIFT to SHIFT pixels either way, as offsets
    into a card `width` wide straightened with its border, (shifts, 1)."""
    stride = width + 2 * SHIFT
    steps = range(-SHIFT, SHIFT + 1)
    return np.array([[dy * stride + dx] for dy in steps for dx in steps], np.intp)
