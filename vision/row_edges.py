"""The left edges of a row's cards, found in the row straightened into a strip: each card
laid over the one before shows its left edge across the row as a straight line, a little
tilted when the card is turned or the camera shears it."""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from vision.percentile import percentile

MERGE = 0.08  # edge candidates closer than this (card widths) are one
_MIN_COVER = 0.65  # share of a card's height along which its left edge shows
_LINE_DEPTH = 6.0  # grey levels an edge's line lies below the paper beside it
_ANGLES = np.deg2rad(np.arange(-14, 14.5, 1.0))
_SPAN_GAP = 0.08  # of a card's height: a left edge broken no longer than this is one


@dataclass(frozen=True)
class LeftEdge:
    """A line that may be a card's left edge: where it crosses the strip's middle row, the
    share of a card's height along which it shows, its tilt (radians, its run across per
    its run down), and where it begins and ends (strip rows)."""

    x: float
    cover: float
    tilt: float
    span: tuple[float, float]


def left_edges(
    strip: np.ndarray, paper: np.ndarray, height: float, width: float
) -> list[LeftEdge]:
    """Candidate left edges of a row's cards in its straightened `strip`: straight lines, nearly
    across the row, darker than the paper just to their right (the card's own margin): the
    card's shadow or printed outline, whatever lies beneath. Ink on a card ends in such
    steps too, but in short ones: only a line along most of a card's height counts."""
    smooth = cv2.GaussianBlur(strip.astype(np.float32), (0, 0), 0.7)
    reach = 3
    right_of = np.roll(smooth, -reach, axis=1)
    # The card's own margin: paper, as bright as the row's paper is at the least.
    level = percentile(smooth[paper], 60)
    margin = cv2.erode(right_of, np.ones((1, 3), np.uint8)) > 0.8 * level
    # The paper begins at the edge: the line itself may lie on the baize.
    edge = ((right_of - smooth > _LINE_DEPTH) & margin & np.roll(paper, -reach, axis=1))
    counts = _sheared_counts(edge)
    middle = strip.shape[0] / 2
    # Every line long enough, tilt after tilt and left to right along each, the longest
    # first (a stable sort: of equal ones, the first met).
    tilts, xs = np.nonzero(counts > _MIN_COVER * height)
    covers = counts[tilts, xs] / height
    order = np.argsort(-covers, kind="stable")
    kept = [
        (float(xs[k]), float(_ANGLES[tilts[k]]), float(covers[k]))
        for k in order[_apart(xs[order].astype(np.float64), MERGE * width)]
    ]
    return [
        LeftEdge(x, cover, tilt, _span(edge, x, tilt, middle, height))
        for x, tilt, cover in sorted(kept)
    ]


def _apart(xs: np.ndarray, gap: float) -> list[int]:
    """Of candidates at `xs`, best first, those kept when each is kept unless it lies within
    `gap` of one kept before it: a candidate at a time would be some fifty thousand a
    second; those kept are a handful, and each rules out its neighbours at once."""
    kept: list[int] = []
    free = np.ones(len(xs), bool)
    while free.any():
        k = int(np.argmax(free))
        kept.append(k)
        free &= np.abs(xs - xs[k]) > gap
    return kept


def _span(
    edge: np.ndarray, x: float, tilt: float, middle: float, height: float
) -> tuple[float, float]:
    """Where a left edge begins and ends, top and bottom (strip rows): the longest run of
    it along its line, across gaps shorter than `_SPAN_GAP` of a card's height."""
    thick, length = edge.shape
    ys = np.arange(thick)
    xs = np.round(x + np.tan(tilt) * (ys - middle)).astype(int)
    # The line's pixel and its two neighbours along each row, gathered at once.
    at = xs + np.array([[-1], [0], [1]])
    near = np.take(edge.ravel(), ys * length + np.clip(at, 0, length - 1))
    near &= (at >= 0) & (at < length)
    rows = np.flatnonzero(near.any(axis=0))
    if len(rows) == 0:
        return middle, middle
    breaks = np.flatnonzero(np.diff(rows) > _SPAN_GAP * height)
    starts = np.concatenate([[0], breaks + 1])
    ends = np.concatenate([breaks, [len(rows) - 1]])
    k = int(np.argmax(rows[ends] - rows[starts]))
    return float(rows[starts[k]]), float(rows[ends[k]])


def _sheared_counts(edge: np.ndarray) -> np.ndarray:
    """For each tilt of `_ANGLES` and each column x: how many rows of the edge map (bool,
    thick × length) have an edge within a pixel of the line of that tilt through x at the
    row's middle (float32, tilts × length).

    This is the count of the map sheared upright (each row moved by its nearest whole
    pixel), widened by a pixel either way and summed per column; it is made from one
    integral image of the widened map, each tilt's sheared column sums taken from it along
    the rows where its shift steps, rather than from a sheared copy of the map per tilt."""
    thick, length = edge.shape
    shear = _Shear.of(thick)
    reach = shear.reach
    padded = np.zeros((thick, length + 2 * reach), np.uint8)
    padded[:, reach : reach + length] = edge
    # Widened by a pixel either way; a sheared row's first and last columns are mended below.
    wide = padded.copy()
    wide[:, 1:] |= padded[:, :-1]
    wide[:, :-1] |= padded[:, 1:]
    above = np.diff(cv2.integral(wide, sdepth=cv2.CV_32S), axis=1)  # column sums above each row
    step = above[:, :-1] - above[:, 1:]
    windows = np.lib.stride_tricks.sliding_window_view
    steps = windows(step, length, axis=1)[shear.rows, shear.columns + reach]
    counts: np.ndarray = windows(above[thick], length)[shear.shifts[:, -1] + reach].astype(
        np.float32
    )
    # Each tilt's steps summed in the steps' own width, all tilts' added at once: a whole
    # number widened for each tilt on its own took three times as long.
    sums = [steps[start:end].sum(axis=0, dtype=np.int32)
            for start, end in itertools.pairwise(shear.bounds)]
    counts += shear.signs[:, None] * np.stack(sums)
    # The sheared map's own first and last columns are widened from two columns, not three:
    # each from its own column and the one inward, the four gathered at once.
    at = np.stack([shear.shifts, shear.shifts + 1, shear.shifts + length - 1,
                   shear.shifts + length - 2])
    rows = np.arange(thick) * length
    near = np.take(edge.ravel(), rows + np.clip(at, 0, length - 1)) & (at >= 0) & (at < length)
    counts[:, 0] = np.count_nonzero(near[0] | near[1], axis=1)
    counts[:, length - 1] = np.count_nonzero(near[2] | near[3], axis=1)
    return counts


@dataclass(frozen=True)
class _Shear:
    """How the rows of an edge map `thick` rows high shift when it is sheared upright for
    each tilt of `_ANGLES` about its middle row: each row by its nearest whole pixel (as
    OpenCV's nearest-neighbour warp moves it), and where those shifts step."""

    shifts: np.ndarray  # (tilts, thick)
    reach: int  # more than any shift, and a pixel of widening
    rows: np.ndarray  # the rows where a tilt's shift steps, tilt after tilt
    columns: np.ndarray  # the lesser of the two shifts about each step
    bounds: tuple[int, ...]  # where each tilt's steps begin in `rows` (and the last end)
    signs: np.ndarray  # +1 where a tilt's shifts rise down the map, -1 where they fall

    @staticmethod
    @functools.cache
    def of(thick: int) -> _Shear:
        middle = thick / 2
        # The shear's coefficients as the warp took them: single precision.
        tilts = np.array([[np.tan(t), -np.tan(t) * middle] for t in _ANGLES], np.float32)
        slope, offset = tilts.astype(np.float64).T
        shifts = np.rint(slope[:, None] * np.arange(thick) + offset[:, None]).astype(np.intp)
        tilt, above = np.nonzero(np.diff(shifts, axis=1))  # tilt after tilt
        steps = np.bincount(tilt, minlength=len(_ANGLES))
        return _Shear(
            shifts,
            int(np.abs(shifts).max()) + 2,
            above + 1,
            np.minimum(shifts[tilt, above], shifts[tilt, above + 1]),
            tuple(int(b) for b in np.concatenate([[0], np.cumsum(steps)])),
            np.sign(slope).astype(np.int32),
        )
