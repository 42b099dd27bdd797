"""A card's outline in a frame, and the card straightened out of it into an upright face."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Quad:
    """A card's four corners in frame pixels, clockwise from the top-left of the face."""

    corners: np.ndarray  # float32, shape (4, 2)

    @property
    def centre(self) -> tuple[float, float]:
        x, y = self.corners.mean(axis=0)
        return float(x), float(y)

    @property
    def width(self) -> float:
        c = self.corners
        return float(length_of(c[1] - c[0]) + length_of(c[2] - c[3])) / 2

    @property
    def height(self) -> float:
        c = self.corners
        return float(length_of(c[3] - c[0]) + length_of(c[2] - c[1])) / 2

    @property
    def skew(self) -> float:
        """The larger angle (radians) between opposite sides: a card seen on a table from
        above shows less than two degrees."""
        sides = np.roll(self.corners, -1, axis=0) - self.corners
        turns = [
            abs(float(np.arctan2(a[0] * b[1] - a[1] * b[0], a @ b)))
            for a, b in ((sides[0], -sides[2]), (sides[1], -sides[3]))
        ]
        return max(turns)


def length_of(side: np.ndarray) -> np.floating:
    """A side's length, as `np.linalg.norm` gives it, to the last bit, without its checks:
    lengths are asked for hundreds of times a frame, and its checks cost more than the
    sum."""
    size: np.floating = np.sqrt(side.dot(side))
    return size


def lengths_of(sides: np.ndarray) -> np.ndarray:
    """The lengths of `sides` along their last axis, as `np.linalg.norm` gives them, to
    the last bit, without its checks."""
    sizes: np.ndarray = np.sqrt(np.add.reduce(sides * sides, axis=-1))
    return sizes


def rectify(frame: np.ndarray, quad: Quad, size: tuple[int, int]) -> np.ndarray:
    """The card inside `quad` warped to an upright `size` = (width, height) image."""
    width, height = size
    corners = quad.corners
    # Shrink a large card first, so the warp samples an image near the target's resolution
    # instead of aliasing every other pixel away.
    factor = min(quad.width / width, quad.height / height)
    if factor > 1.5:
        x0, y0 = np.floor(corners.min(axis=0)).astype(int)
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
        x0, y0 = max(x0, 0), max(y0, 0)
        patch = frame[y0:y1, x0:x1]
        shrink = 1.0 / factor
        patch = cv2.resize(patch, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        corners = (corners - np.array([x0, y0], np.float32)) * shrink
        frame = patch
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    return cv2.warpPerspective(
        frame, matrix, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def grow(quad: Quad, inset: tuple[float, float], sides: tuple[bool, bool, bool, bool] = (
    True, True, True, True
)) -> Quad:
    """The card whose outline, `inset` (shares of width, height) inside its edges on the
    `sides` (top, right, bottom, left) said, is `quad`."""
    top, right, bottom, left = (float(s) for s in sides)
    dx, dy = inset
    inner = np.array(
        [[dx * left, dy * top], [1 - dx * right, dy * top], [1 - dx * right, 1 - dy * bottom],
         [dx * left, 1 - dy * bottom]], np.float32
    )
    to_frame = cv2.getPerspectiveTransform(inner, quad.corners.astype(np.float32))
    unit = np.array([[[0, 0]], [[1, 0]], [[1, 1]], [[0, 1]]], np.float32)
    return Quad(cv2.perspectiveTransform(unit, to_frame).reshape(4, 2))


def surround(quad: Quad, pad: int, size: tuple[int, int]) -> Quad:
    """The outline `pad` pixels outside `quad` all round, once the card is straightened to
    `size` = (width, height)."""
    width, height = size
    a, b = pad / width, pad / height
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    to_frame = cv2.getPerspectiveTransform(unit, quad.corners.astype(np.float32))
    outer = np.array([[[-a, -b]], [[1 + a, -b]], [[1 + a, 1 + b]], [[-a, 1 + b]]], np.float32)
    return Quad(cv2.perspectiveTransform(outer, to_frame).reshape(4, 2))


def from_left_edge(quad: Quad, aspect: float) -> Quad:
    """The card of height-over-width `aspect` whose left edge is `quad`'s, square to it."""
    tl, _, _, bl = quad.corners
    left = bl - tl
    height = float(length_of(left))
    right = np.array([-left[1], left[0]], np.float32) / max(height, 1.0)
    if right[0] < 0:  # the side of the left edge the card lies on
        right = -right
    return _from_left(tl, bl, right * height / aspect)


def along_top_edge(quad: Quad, aspect: float) -> Quad:
    """The card of height-over-width `aspect` whose left edge is `quad`'s, its top and
    bottom edges running along `quad`'s top edge."""
    tl, tr, _, bl = quad.corners
    top = (tr - tl) / max(float(length_of(tr - tl)), 1.0)
    return _from_left(tl, bl, top * float(length_of(bl - tl)) / aspect)


def widened(quad: Quad, factor: float) -> Quad:
    """`quad` with its right side moved `factor` times as far from its left side."""
    tl, tr, br, bl = quad.corners
    return Quad(np.array([tl, tl + factor * (tr - tl), bl + factor * (br - bl), bl], np.float32))


def _from_left(tl: np.ndarray, bl: np.ndarray, across: np.ndarray) -> Quad:
    return Quad(np.array([tl, tl + across, bl + across, bl], np.float32))


def whole_frame(frame: np.ndarray) -> Quad:
    """The frame itself as the card, for a close-up or a bare face image."""
    h, w = frame.shape[:2]
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    if w > h:  # a face image lying on its side: its top is at the left
        corners = np.roll(corners, -3, axis=0)
    return Quad(corners)
