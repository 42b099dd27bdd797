"""A card's outline in a row's straightened strip, from its left edge: its top and bottom
edges where they bound the row's paper clear of its neighbours, its left edge as seen, and
its right side where its width puts it when the next card hides it."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.quad import Quad, length_of

_OWN = (0.25, 0.6)  # of a card's width from its left edge: its top and bottom edges its own
# A left edge sheared further than this from square to its card's top and bottom edges
# (radians) is not taken for the card's own: a camera's view shears cards a few degrees.
_MAX_SHEAR = np.deg2rad(9.0)
# A card's top or bottom edge turned further than this (radians) from its row is not its own
# (a row is laid with each card turned 10 degrees at the most, and the camera shears it).
_MAX_TURN = np.deg2rad(15.0)
_CORNER = 0.015  # of a card's height: how far short of its corners a left edge is seen
_SPAN_FIT = 0.06  # a left edge this near a card's height long runs its whole height


@dataclass(frozen=True)
class Node:
    """A possible left edge: where it crosses the row's middle, how sure it is, the card
    finder's outline when it is one's, and its tilt (radians, its run across per its run
    down) when it was seen."""

    x: float
    score: float
    quad: Quad | None = None
    tilt: float | None = None
    span: tuple[float, float] | None = None


def outline_at(
    node: Node, tops: np.ndarray, bottoms: np.ndarray, size: tuple[float, float], middle: float
) -> np.ndarray:
    """The corners, in strip coordinates, of the card whose left edge is `node`: its turn
    is the slope of its own top and bottom edges, where they bound the row's paper clear
    of its neighbours; its left edge runs as seen, or square to them when it was not seen
    (a camera that looks at the table a little from one side shears every card by a few
    degrees, so that its sides are not square to its top and bottom)."""
    x = node.x
    width, height = size
    slope, offsets = _top_and_bottom(node, tops, bottoms, size, middle)
    turn = float(np.arctan(slope))
    along = np.array([np.cos(turn), np.sin(turn)], np.float32)
    lean = -turn if node.tilt is None or abs(node.tilt + turn) > _MAX_SHEAR else node.tilt
    down = np.array([np.sin(lean), np.cos(lean)], np.float32)
    corners = []
    for offset in offsets:
        # Where the left edge, through (x, middle) along `down`, meets this edge.
        u = (offset + slope * x - middle) / (down[1] - slope * down[0])
        corners.append(np.array([x, middle], np.float32) + u * down)
    tl, bl = corners
    if lean == node.tilt and node.span is not None:
        tl, bl = _along_span(node, (tl, bl), lean, middle, height)
    if not 0.85 * height <= float(length_of(bl - tl)) <= 1.15 * height:
        # Paper above or below that is not this card's (a neighbour turned the other way).
        tl = np.array([x, middle], np.float32) - height / 2 * down
        bl = tl + height * down
    return np.array([tl, tl + width * along, bl + width * along, bl], np.float32)


def _top_and_bottom(
    node: Node, tops: np.ndarray, bottoms: np.ndarray, size: tuple[float, float], middle: float
) -> tuple[float, list[float]]:
    """The slope of a card's top and bottom edges in the strip, and where each crosses
    the strip's first column: fitted to the row's paper over the part of the card no
    neighbour covers."""
    x = node.x
    width, height = size
    xs = np.arange(max(round(x + _OWN[0] * width), 0), min(round(x + _OWN[1] * width), len(tops)))
    slopes, offsets = [], []
    for ys in (tops, bottoms):
        if len(xs) < 5:
            break
        vx, vy, x0, y0 = cv2.fitLine(
            np.array(np.column_stack([xs, ys[xs]]), np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01
        ).ravel()
        slope = vy / vx if abs(vx) > 1e-3 else 0.0
        slopes.append(float(slope))
        offsets.append(float(y0 - slope * x0))
    # A top or bottom edge turned further than a card lies from its left edge, or than a
    # card is laid, runs under a chip or a hand, or along a neighbour's paper: the other
    # edge gives the turn, and the card's height the line opposite it; with neither, the
    # left edge gives it.
    square = 0.0 if node.tilt is None else -node.tilt
    limit = _MAX_TURN if node.tilt is None else _MAX_SHEAR
    own = [abs(np.arctan(s) - square) <= limit for s in slopes]
    if len(slopes) < 2 or not any(own):
        top_y, slope = middle - height / 2, float(np.tan(square))
        return slope, [top_y - slope * x, top_y + height - slope * x]
    if all(own):
        return float(np.mean(slopes)), offsets
    good = own.index(True)
    slope = slopes[good]
    apart = height * float(np.hypot(1.0, slope))
    top_y = offsets[0] if good == 0 else offsets[1] - apart
    return slope, [top_y, top_y + apart]


def _along_span(
    node: Node, ends: tuple[np.ndarray, np.ndarray], lean: float, middle: float, height: float
) -> tuple[np.ndarray, np.ndarray]:
    """A card's top-left and bottom-left corners where its own left edge, seen along
    `node.span`, begins and ends, when those are a card's height apart; else `ends`.

    The row's paper above or below a card may be a neighbour's (turned, or laid a little
    higher or lower); but the edge's line may run on into a neighbour's ink. Of the ends
    the edge and the row's paper give, those a card's height apart are taken. (The edge
    stops short of the card's rounded corners.)"""
    assert node.span is not None
    tl, bl = ends
    reach = _CORNER * height
    above = [node.span[0] - reach, float(tl[1])]
    below = [node.span[1] + reach, float(bl[1])]
    apart = height * np.cos(lean)
    top, bottom = min(
        ((t, b) for t in above for b in below), key=lambda p: abs(p[1] - p[0] - apart)
    )
    if abs((bottom - top) / apart - 1) > _SPAN_FIT:
        return ends
    x = node.x
    top_left, bottom_left = (
        np.array([x + np.tan(lean) * (y - middle), y], np.float32) for y in (top, bottom)
    )
    return top_left, bottom_left


def square(snapped: np.ndarray, placed: np.ndarray, aspect: float) -> np.ndarray:
    """A card's corners from its snapped sides, with its right side where its left side's
    length puts it: the right side may lie under the next card, where no edge of its own
    shows. (The top and bottom keep their own directions: the camera's view shears.)"""
    tl, tr, br, bl = snapped
    length = float(length_of(bl - tl))
    if not 0.8 <= length / max(float(length_of(placed[3] - placed[0])), 1.0) <= 1.25:
        return placed
    width = length / aspect
    top = (tr - tl) / max(float(length_of(tr - tl)), 1.0)
    bottom = (br - bl) / max(float(length_of(br - bl)), 1.0)
    return np.array([tl, tl + width * top, bl + width * bottom, bl], np.float32)
