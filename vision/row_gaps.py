"""Paper in a row that no card's outline accounts for: a card the locator lost.

A card whose art reaches its edges may be only a ring of paper to the paper mask, broken
where its index is printed close to the edge; its pieces then fall to the blobs of its
neighbours, and neither blob's row holds it. Where paper runs along a row's top and its
bottom both, over most of a stretch as wide as half a card or more that no outline
covers, a card lies there: it is placed, for the classifier to name or decline, so that
a row never comes out short without a declined card in its place. A chip or a hand over
the baize reaches the row's top or its bottom, not both; baize between cards laid apart
holds no paper at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from vision.geometry import Detection
from vision.quad import Quad, length_of

_MIN_GAP = 0.5  # of a card's width: a stretch narrower than this is a card's own margin
# Beyond a row's ends, a lost card shows its whole width (the first card, all but the part
# its neighbour hides): less is the paper of a card outlined short.
_MIN_END = 0.7
_PAPER_SHARE = 0.5  # of a stretch's columns: paper along the row's top and bottom both
_BAND = (-0.03, 0.2)  # of a card's height from its top (and from its bottom, turned about)
_BAND_SAMPLES = 8
_END_REACH = 1.3  # of a card's width: how far beyond a row's ends paper is looked for


def fill_gaps(
    row: Sequence[Quad], detection: Detection, whole_width: Callable[[Quad], float]
) -> list[tuple[int, Quad]]:
    """Places for the cards lost from `row` (outlines left to right, frame pixels), each
    with the index in the row it goes before. `whole_width` is a card's width, frame and
    all, from its outline (a framed card is outlined inside its frame)."""
    paper = _paper_at(detection)
    added: list[tuple[int, Quad]] = []
    for k in range(len(row) + 1):
        before = row[k - 1] if k > 0 else None
        after = row[k] if k < len(row) else None
        added += [(k, q) for q in _stretch(before, after, paper, whole_width)]
    return added


def _stretch(
    before: Quad | None,
    after: Quad | None,
    paper: Callable[[np.ndarray], np.ndarray],
    whole_width: Callable[[Quad], float],
) -> list[Quad]:
    """The cards lying in the stretch of row between two outlines (either may be None for
    the row's end: then the stretch reaches `_END_REACH` cards' widths beyond the other)."""
    known = before or after
    assert known is not None
    width = whole_width(known)
    tl, tr, br, bl = known.corners
    along = (tr - tl) / max(float(length_of(tr - tl)), 1.0)
    reach = _END_REACH * width * along
    # The stretch's top and bottom edges, each from its start to its end.
    top = (before.corners[1] if before else tl - reach, after.corners[0] if after else tr + reach)
    bottom = (
        before.corners[2] if before else bl - reach, after.corners[3] if after else br + reach
    )
    length = float(min(length_of(top[1] - top[0]), length_of(bottom[1] - bottom[0])))
    if float((top[1] - top[0]) @ along) <= 0 or length < _MIN_GAP * width:
        return []
    t = np.linspace(0.0, 1.0, max(round(length / 2), 2))[:, None]
    tops, bottoms = top[0] + t * (top[1] - top[0]), bottom[0] + t * (bottom[1] - bottom[0])
    held = _held(tops, bottoms, paper)
    ends = _between(held) if before and after else _beyond(held[::-1] if after else held)
    if ends is None:
        return []
    first, last = ends if before else (len(held) - 1 - ends[1], len(held) - 1 - ends[0])
    span = (last - first) * length / (len(held) - 1)
    if span < (_MIN_GAP if before and after else _MIN_END) * width:
        return []
    count = max(1, round(span / width))
    lefts = np.linspace(first, last, count + 1)[:count]
    return [_card(tops[round(i)], bottoms[round(i)], width * along) for i in lefts]


def _between(held: np.ndarray) -> tuple[int, int] | None:
    """Where the cards lost between two outlines lie along the lines across the stretch:
    from the first holding paper to the next outline (they lie under it)."""
    on = np.flatnonzero(held)
    if len(on) < max(_PAPER_SHARE * len(held), 1):
        return None
    return int(on[0]), len(held) - 1


def _beyond(held: np.ndarray) -> tuple[int, int] | None:
    """Where the cards lost beyond a row's end lie, along the lines across the stretch
    from the end outward: from the end to the furthest line holding paper."""
    on = np.flatnonzero(held)
    if len(on) == 0 or len(on) < _PAPER_SHARE * (on[-1] + 1):
        return None
    return 0, int(on[-1])


def _held(
    tops: np.ndarray, bottoms: np.ndarray, paper: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray:
    """For each line across the row (from `tops` to `bottoms`): whether paper lies both
    near its top and near its bottom."""
    down = (bottoms - tops)[:, None]
    s = np.linspace(*_BAND, _BAND_SAMPLES)[None, :, None]
    at_top = paper(tops[:, None] + s * down).any(axis=1)
    at_bottom = paper(bottoms[:, None] - s * down).any(axis=1)
    held: np.ndarray = np.logical_and(at_top, at_bottom)
    return held


def _card(top_left: np.ndarray, bottom_left: np.ndarray, across: np.ndarray) -> Quad:
    corners = [top_left, top_left + across, bottom_left + across, bottom_left]
    return Quad(np.array(corners, np.float32))


def _paper_at(detection: Detection) -> Callable[[np.ndarray], np.ndarray]:
    """Whether each point (frame pixels, any leading shape) lies on paper."""
    mask = detection.paper
    h, w = mask.shape

    def paper(points: np.ndarray) -> np.ndarray:
        x = np.rint(points[..., 0] * detection.scale).astype(int)
        y = np.rint(points[..., 1] * detection.scale).astype(int)
        inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
        on: np.ndarray = mask[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)] & inside
        return on

    return paper
