"""Parting a row of cards laid at speed: touching, or each over the one before it.

A tailleur lays a row left to right, each card over the last by up to a fifth of its width,
so that every card's corner index stays in view. The paper of such a row is one blob. Each
card's left edge shows across it as a straight line from the row's top to its bottom; the
design gives a card's proportions, so the row's height gives a card's width. The left edges
are chosen so that consecutive ones lie a card's width apart, less at most its overlap, and
the last card ends where the row does; where the row's length needs a card no edge shows, a
place is taken all the same (the classifier declines it unless it reads surely), so that a
row never comes out short. Each card is then outlined from its left edge, top and bottom;
how much of it the next card hides is kept, for the classifier to compare only what is seen.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.edges import snap
from vision.quad import Quad, length_of
from vision.row_edges import MERGE, left_edges
from vision.row_outline import Node, outline_at, square

# The advance from one card's left edge to the next, in card widths: a fifth overlapped at
# most, a little more than touching at most (cards turned at their corners).
_ADVANCE = (0.72, 1.25)
_LAST = (0.82, 1.35)  # from the last card's left edge to the row's end
_LAST_OUTLINED = 0.9  # of its own outline's width: the least a last card outlined whole ends
# What a left edge counts for: the card finder's outline, or a place where no edge shows.
_ANCHOR_SCORE, _PLACE_SCORE = 3.0, -0.5
_EDGE_BAR = 0.75  # an edge this far along a card's height counts for nothing either way
# A row's cards found whole, this much larger or smaller than the frame's, are nearer the
# camera or further from it: they tell the row's card size (less is the finder's own noise).
_OTHER_SIZE = 0.04
_MAX_SKEW = np.deg2rad(3.0)  # between a card's opposite sides, as a camera sees a table
_FRAMED_SNAP = 0.4  # of a frame's width near the edge: how far a framed card's sides snap
_PLACE_STEP = 0.04  # of a card's width: where a card may be placed when no edge shows
# A row's blob this many times as tall as its paper's height across the row holds more than
# the row (a hand, a chip); the row is then sought within this many heights of its middle
# either way (cards turned up to ten degrees reach a little past half a height).
_JOINED, _BAND = 1.3, 0.65


@dataclass(frozen=True)
class RowCard:
    """A card found on the baize: its outline, the share of its width in view, and whether
    the outline may be off by a few pixels: placed from the row's edges, or drawn by the
    finder leaning with a neighbour's edge, rather than around the card's own paper."""

    quad: Quad
    visible: float = 1.0
    placed: bool = False
    also: Quad | None = None  # another outline to look at it around, when the finder drew one


def part_row(
    frame: np.ndarray,
    outline: np.ndarray,
    aspect: float,
    found: Sequence[Quad] = (),
    card_height: float | None = None,
    *,
    inset: tuple[float, float] = (0.0, 0.0),
    grey: np.ndarray | None = None,
) -> list[RowCard] | None:
    """The cards of one blob of paper (its `outline` in frame pixels), left to right, or
    None when the blob holds no more than one card.

    `found` are the cards the card finder outlined in the blob: those of a card's size are
    taken as they are, and the rest of the row is parted around them. Where the row's
    length needs a card that no edge shows, a card is still placed, as well as it fits:
    the classifier declines it unless it reads surely. `card_height` is a card's height
    when the frame shows whole cards; otherwise the row's height is taken for it (a little
    more than a card's, where cards are turned). `inset` is where the paper inside a frame
    printed near the edge ends (`Design.inset`): the finder outlines, and the row's paper
    and the left edges show, such cards inside their frames. `grey` is the frame in grey
    levels, when the caller made it already (once a frame for all its rows).
    """
    strip = _straighten(frame if grey is None else grey, outline)
    if strip is None:
        return None
    height = card_height or strip.row_height()
    width = height / aspect
    left = _end(strip.paper, strip.middle, height, first=True)
    right = _end(strip.paper, strip.middle, height, first=False)
    if right.x - left.x < 1.6 * width:
        return None  # one card: the caller outlines it whole
    edges, anchors, (width, height) = _edges_and_anchors(strip, found, width, height)
    # Cards are laid apart by their whole width, frame and all, and hidden by their
    # neighbours by shares of it.
    whole = width / (1 - 2 * inset[0])
    chosen = _choose(edges, anchors, left, right.x, whole)
    if chosen is None:
        return None
    return _outlined(frame, strip, chosen, right.x, (width, height, whole), aspect=aspect)


@dataclass(frozen=True)
class _Strip:
    """A row's blob straightened along the row, with a margin all round: its grey levels,
    where its paper lies, the paper's top and bottom in each column, and the map from the
    frame into it."""

    grey: np.ndarray
    paper: np.ndarray
    tops: np.ndarray
    bottoms: np.ndarray
    to_strip: np.ndarray
    middle: float

    def row_height(self) -> float:
        """The paper's height across the row, clear of its ends."""
        columns = np.flatnonzero(self.paper.any(axis=0))
        spans = (self.bottoms - self.tops)[columns]
        trimmed = spans[len(spans) // 10 : len(spans) - len(spans) // 10]
        return float(np.median(trimmed))


def _straighten(frame: np.ndarray, outline: np.ndarray) -> _Strip | None:
    """The row whose blob is `outline` straightened into a strip, or None for a sliver."""
    (cx, cy), (rw, rh), angle = row_extent(outline)
    margin = 12
    length, thick = round(rw) + 2 * margin, round(rh) + 2 * margin
    to_strip = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    to_strip[:, 2] += np.array([length / 2 - cx, thick / 2 - cy])
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    strip = cv2.warpAffine(grey, to_strip, (length, thick), flags=cv2.INTER_LINEAR)
    filled = np.zeros((thick, length), np.uint8)
    inside = cv2.transform(outline.reshape(-1, 1, 2).astype(np.float32), to_strip)
    cv2.fillPoly(filled, [np.round(inside).astype(np.int32)], 1)
    paper = filled > 0
    if np.count_nonzero(paper.any(axis=0)) < 10:
        return None
    tops = np.argmax(paper, axis=0)
    bottoms = thick - 1 - np.argmax(paper[::-1], axis=0)
    whole = _Strip(strip, paper, tops, bottoms, to_strip, thick / 2)
    return _banded(whole, whole.row_height(), margin)


def _banded(strip: _Strip, height: float, margin: int) -> _Strip:
    """`strip` cut to the band its row of cards lies in, `height` tall, when paper joined to
    the row reaches well beyond it (a hand reaching over the row, a chip against it): the
    edges, ends and outlines of its cards are all sought about the strip's middle line."""
    thick = strip.paper.shape[0]
    if thick <= _JOINED * height + 2 * margin:
        return strip
    columns = np.flatnonzero(strip.paper.any(axis=0))
    centre = float(np.median((strip.tops[columns] + strip.bottoms[columns]) / 2))
    half = _BAND * height + margin
    low, high = max(round(centre - half), 0), min(round(centre + half), thick)
    paper = strip.paper[low:high]
    moved = strip.to_strip.copy()
    moved[1, 2] -= low
    tops = np.argmax(paper, axis=0)
    bottoms = paper.shape[0] - 1 - np.argmax(paper[::-1], axis=0)
    return _Strip(strip.grey[low:high], paper, tops, bottoms, moved, paper.shape[0] / 2)


def _edges_and_anchors(
    strip: _Strip, found: Sequence[Quad], width: float, height: float
) -> tuple[list[Node], list[Node], tuple[float, float]]:
    """The left edges seen across a row, the cards the finder outlined in it as left edges
    (moved onto the edge seen at each), and a card's width and height: as those cards show
    them, if any."""
    # An edge counts for a card by how much more of one it shows than an art frame or a
    # column of pips might: a weak one only decides between counts the row allows.
    edges = [
        Node(e.x, e.cover - _EDGE_BAR, tilt=e.tilt, span=e.span)
        for e in left_edges(strip.grey, strip.paper, height, width)
    ]
    anchors = _anchors(found, strip.to_strip, strip.middle, width, height)
    if anchors:
        # The camera's view squeezes cards a little, and those of a row nearer the camera
        # are larger than another row's: whole ones found in the row tell its size best.
        quads = [a.quad for a in anchors if a.quad is not None]
        width = float(np.median([q.width for q in quads]))
        seen = float(np.median([q.height for q in quads]))
        if abs(seen / height - 1) > _OTHER_SIZE:
            height = seen
    return edges, [_along_edge(a, edges, width) for a in anchors], (width, height)


def _outlined(
    frame: np.ndarray,
    strip: _Strip,
    chosen: Sequence[Node],
    right: float,
    size: tuple[float, float, float],
    *,
    aspect: float,
) -> list[RowCard]:
    """The row's cards at their `chosen` left edges: those the finder outlined whole as it
    did, the rest outlined from the row's edges and snapped onto their own. `right` is
    where the row's paper ends in the strip, `size` a card's width and height as outlined
    and its whole width (more, for a card framed near its edge: outlined inside it)."""
    width, height, whole = size
    reach = max(_FRAMED_SNAP * (whole - width) / 2, 1.0)
    to_frame = cv2.invertAffineTransform(strip.to_strip)
    cards = []
    for k, node in enumerate(chosen):
        last = k + 1 == len(chosen)
        # The last card's paper ends where the row's does, inside its frame.
        share = (right - node.x) / width if last else (chosen[k + 1].x - node.x) / whole
        visible = min(1.0, share)
        if node.quad is not None and visible >= 1.0:
            # An outline the finder drew leaning with a neighbour's edge may be a few pixels
            # off at one side, as a placed one may.
            cards.append(RowCard(node.quad, visible, placed=node.quad.skew > _MAX_SKEW))
            continue
        # The finder's outline of a card partly under the next, its right side where the
        # card's width puts it, is looked at too: its top and bottom edges may be truer
        # than the row's paper gives them (a neighbour turned the other way).
        also = None if node.quad is None else _at_width(node.quad, width)
        # Its outline from the row's edges, its sides moved onto the edges seen there; the
        # right side of a card partly under the next one is where its width puts it.
        corners = outline_at(
            node,
            strip.tops,
            strip.bottoms,
            (min(right - node.x, width) if last else width, height),
            strip.middle,
        )
        placed = cv2.transform(corners[None], to_frame)[0].astype(np.float32)
        # A framed card is placed inside its frame: its sides are snapped there, not
        # beyond the frame, where its paper's edge may lie within reach on some sides only.
        snapped = snap(frame, placed, reach) if whole > width else snap(frame, placed)
        outline = snapped if last or visible >= 1.0 else square(snapped, placed, aspect)
        cards.append(RowCard(Quad(outline), visible, placed=True, also=also))
    return cards


def _at_width(quad: Quad, width: float) -> Quad:
    """`quad` with its right side `width` from its left side along its top and bottom."""
    tl, tr, br, bl = quad.corners
    top = (tr - tl) / max(float(length_of(tr - tl)), 1.0)
    bottom = (br - bl) / max(float(length_of(br - bl)), 1.0)
    return Quad(np.array([tl, tl + width * top, bl + width * bottom, bl], np.float32))


def row_extent(outline: np.ndarray) -> tuple[tuple[float, float], tuple[float, float], float]:
    """The smallest rectangle around a blob as (centre, (length along the row, height
    across it), the row's slope in degrees): rows run across the frame, so its side
    nearest the horizontal is the row's."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(outline)
    if ((angle + 45.0) // 90.0) % 2 == 1:  # its first side stands nearer the vertical
        rw, rh = rh, rw
    return (cx, cy), (rw, rh), (angle + 45.0) % 90.0 - 45.0


def _end(paper: np.ndarray, middle: float, height: float, *, first: bool) -> Node:
    """The row's left end (`first`) or right end: a line fitted to where the paper begins
    or ends across the middle of the row, as it crosses the middle."""
    band = np.arange(round(middle - 0.3 * height), round(middle + 0.3 * height))
    band = band[(band >= 0) & (band < paper.shape[0])]
    rows = paper[band]
    has = rows.any(axis=1)
    xs = np.argmax(rows, axis=1) if first else paper.shape[1] - np.argmax(rows[:, ::-1], axis=1)
    ys, xs = band[has], xs[has]
    if len(ys) < 5:
        return Node(float(np.median(xs)) if len(xs) else 0.0, 1.0)
    vx, vy, x0, y0 = cv2.fitLine(
        np.array(np.column_stack([xs, ys]), np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01
    ).ravel()
    lean = vx / vy if abs(vy) > 1e-3 else 0.0
    return Node(float(x0 + lean * (middle - y0)), 1.0, tilt=float(np.arctan(lean)))


def _anchors(
    found: Sequence[Quad], to_strip: np.ndarray, middle: float, width: float, height: float
) -> list[Node]:
    """The card finder's outlines of a card's size, as left edges in the strip."""
    nodes = []
    for quad in found:
        if not (0.85 <= quad.width / width <= 1.2 and 0.85 <= quad.height / height <= 1.2):
            continue  # part of a card, or cards run together
        c = cv2.transform(quad.corners[None].astype(np.float32), to_strip)[0]
        top, bottom = c[0], c[3]
        if abs(bottom[1] - top[1]) < 1:
            continue
        t = (middle - top[1]) / (bottom[1] - top[1])
        x = float(top[0] + t * (bottom[0] - top[0]))
        nodes.append(Node(x, _ANCHOR_SCORE, quad))
    return nodes


def _along_edge(anchor: Node, edges: Sequence[Node], width: float) -> Node:
    """A card the finder outlined, with the left edge seen at its own, if one was: the
    finder's outline of a card partly under the next may lean with its right side, and
    the edge tells where the card lies when it is outlined again."""
    near = [e for e in edges if abs(e.x - anchor.x) <= MERGE * width]
    if not near:
        return anchor
    edge = min(near, key=lambda e: abs(e.x - anchor.x))
    return replace(anchor, x=edge.x, tilt=edge.tilt, span=edge.span)


def _last_fits(node: Node, length: float, width: float) -> bool:
    """Whether a card whose left edge is `node` may be the row's last, `length` from where
    the row's paper ends. One the finder outlined whole may end the row as it outlined it:
    a last card turned a little ends, across the row's middle, short of a card's width
    (design 105, seed 26 203: 0.81 of one, the finder's outline of it 0.98 of its own)."""
    shortest = _LAST[0] * width
    if node.quad is not None:
        shortest = min(shortest, _LAST_OUTLINED * node.quad.width)
    return shortest <= length <= _LAST[1] * width


def _choose(
    edges: list[Node], anchors: list[Node], end: Node, right: float, width: float
) -> list[Node] | None:
    """The left edges of the row's cards, left to right: the row's own left end first,
    each next one a card's advance on (or the next card the finder outlined whole, with
    no room for a card between), the last a card's width from the row's end.

    Of all such sets the best supported is kept: an outline the card finder drew counts
    most, an edge by how far along the card it shows; where none is seen a place may be
    taken at a cost, so that the row's length is always accounted for.
    """
    step = _PLACE_STEP * width
    left = end.x
    places = [Node(x, _PLACE_SCORE) for x in np.arange(left + step, right, step)]
    # Where the card finder outlined a card, no other edge is taken near it.
    near_anchor = [
        n for n in [*edges, *places]
        if all(abs(n.x - a.x) > MERGE * width for a in anchors)
    ]
    first = [a for a in anchors if abs(a.x - left) <= MERGE * width]
    start = first[0] if first else end
    later = [n for n in [*anchors, *near_anchor] if n.x > start.x + MERGE * width]
    nodes = [start, *sorted(later, key=lambda n: n.x)]
    xs = [float(n.x) for n in nodes]
    shortest, longest = _ADVANCE[0] * width, _ADVANCE[1] * width
    # The best score of a set ending at each node, and the node before it there; of equal
    # scores the set through the nearer node before is kept.
    best: list[float | None] = [None] * len(nodes)
    before = [0] * len(nodes)
    best[0] = start.score
    for j in range(1, len(nodes)):
        x = xs[j]
        # The nodes nearer than the shortest advance are passed over at once.
        i = bisect.bisect_right(xs, x - shortest, 0, j) - 1
        while i + 1 < j and x - xs[i + 1] >= shortest:
            i += 1
        while i >= 0 and x - xs[i] < shortest:
            i -= 1
        # Cards laid apart may lie further than an advance from one another.
        reach = 2 * shortest if nodes[j].quad is not None else longest
        while i >= 0 and x - xs[i] < reach:
            prev = best[i]
            if prev is not None and (x - xs[i] <= longest or nodes[i].quad is not None):
                score = prev + nodes[j].score
                current = best[j]
                if current is None or score > current:
                    best[j], before[j] = score, i
            i -= 1
    ends = [
        (b, j) for j, b in enumerate(best)
        if b is not None and _last_fits(nodes[j], right - xs[j], width)
    ]
    if not ends:
        return None
    _, last = max(ends, key=lambda e: e[0])
    path = [last]
    while path[-1] != 0:
        path.append(before[path[-1]])
    return [nodes[i] for i in reversed(path)]
