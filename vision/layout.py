"""Reading a whole coup: every card on the baize, named, in rows from the top."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import cv2
import numpy as np

from vision.card_reads import read_cards
from vision.classifier import Reading, on_one_core
from vision.design import Design
from vision.features import describe
from vision.first_reads import classify_each, straight_each
from vision.geometry import Detection, find_cards, paper_blobs
from vision.quad import Quad, length_of, rectify, whole_frame
from vision.row_gaps import fill_gaps
from vision.rows import RowCard, part_row, row_extent
from vision.twin_look import twin_checked

# Two cards belong to one row when their centres are closer in height than this share of
# a card's height; the rows of a layout are a card's height apart or more.
_ROW_TOLERANCE = 0.5
_MIN_PAPER_FULL_FRAME = 0.3  # baize scores 0.05-0.2, card stock 0.4 and more
_ONE_CARD = 1.5  # a blob shorter than this many cards' widths along its row is one card
_MEAN_ADVANCE = 0.95  # of a card's width, from one card of a row to the next
# A card the finder outlined shorter than this share of the tallest is a piece of one (a
# row nearer the camera shows its cards a few hundredths larger than another's).
_PIECE = 0.8
# An outline this much wider for its height than the design's card is two cards run
# together (a card partly hidden is outlined narrower, never wider). Of the finder's 3,882
# outlines on the tuning designs laid at speed (880 coups), three lie below: two cards run
# together twice (0.81, 0.87) and a built-in card at 0.89 whose row reads the same
# without it; single cards from 0.90. On the test designs, the five below 0.87 were each
# two cards. Such an outline does not size the frame's cards; a row's parting still takes
# it for a card's left edge when it is near a card's size (design 104, seed 26 400: a
# card outlined with its shadow at 0.88 marks where its row begins).
_RUN_TOGETHER = 0.9


@dataclass(frozen=True)
class Seen:
    """A card found in a frame and what the classifier made of it."""

    quad: Quad
    reading: Reading


@on_one_core
def read_layout(frame: np.ndarray, design: Design, *, bare_face: bool = False) -> list[list[Seen]]:
    """The cards of a frame in rows from the top, each row left to right.

    A frame with no card on baize may be one card filling it (a close-up or a bare face):
    it is then one row of one card. An empty frame shows nothing.
    """
    if frame.size == 0:
        return []
    if not bare_face:
        rows = locate(frame, design)
        if rows:
            readings = iter(read_cards(frame, [spot for row in rows for spot in row], design))
            return [[Seen(spot.quad, next(readings)) for spot in row] for row in rows]
    whole = _whole_frame_card(frame, design, bare_face=bare_face)
    return [[whole]] if whole is not None else []


def locate(frame: np.ndarray, design: Design) -> list[list[RowCard]]:
    """Every card on the baize, with the share of its width in view, in rows from the top,
    each row left to right.

    Each blob of paper is outlined as the cards the card finder parts it into, or, when a
    row laid over itself holds more cards than that, as the row's cards parted along their
    left edges. Paper that cannot be parted either way still stands for as many cards as
    its length holds, each outlined where it would lie: the classifier declines them
    rather than the row coming out short.
    """
    # Only cards outlined around their own paper: a row that does not break up is parted
    # below, along its cards' edges.
    detection = Detection.of(frame)
    if detection is None:
        return []
    found = find_cards(frame, portrait_only=True, cut_rows=False, detection=detection)
    found, sizing = _whole_cards(found, design.aspect)
    # The cards of a frame are one size: those outlined whole tell it best.
    card_height = float(np.median([q.height for q in sizing])) if sizing else None
    spots: list[RowCard] = []
    claimed: set[int] = set()
    aspect = design.aspect
    # Made once for every row parted: a whole frame costs more to make grey than a row.
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    for contour in paper_blobs(frame, detection):
        # Within the blob's hull, not the blob: a court card's art the colour of the baize,
        # opened to it by a chip over the card's edge, leaves a bay in the blob where its
        # centre lies, and the card, taken for one outside every row, was read twice (once
        # placed by its row's edges). The hull is made once a blob, not once a card.
        hull = cv2.convexHull(contour)
        inside = [
            k for k, q in enumerate(found)
            if k not in claimed and cv2.pointPolygonTest(hull, q.centre, False) >= 0
        ]
        claimed.update(inside)
        _, (length, height), _ = row_extent(contour)
        if inside and length < _ONE_CARD * height / aspect:
            spots += [RowCard(found[k]) for k in inside]
            continue
        parted = part_row(
            frame, contour, aspect, [found[k] for k in inside], card_height,
            inset=design.inset, grey=grey,
        )
        if parted is not None:
            spots += parted
        elif inside:
            spots += [RowCard(found[k]) for k in inside]
        else:
            spots += [RowCard(q, placed=True) for q in _share_out(contour, aspect)]
    spots += [RowCard(q) for k, q in enumerate(found) if k not in claimed]
    rows = [_with_lost(row, detection, design) for row in _rows_of(spots, _outline)]
    return _hidden_by_next(rows, design.inset[0])


def _whole_cards(found: list[Quad], aspect: float) -> tuple[list[Quad], list[Quad]]:
    """The cards the finder outlined whole, and those of them that tell a card's size. It
    may also outline a piece of a card (a court card's art inside its frame), and the
    cards of a frame are one size: those much shorter than the tallest are pieces. Two
    cards run together it may outline as one, too wide for a card of the design's
    `aspect` (height over width): its height tells nothing of a card's, but it is left
    among the cards found, for a row's parting to take as a card's left edge if it is
    near a card's size (an outline a little wide, taking in a shadow, may still be one
    card's)."""
    single = [q for q in found if q.height >= _RUN_TOGETHER * aspect * q.width]
    tallest = max((q.height for q in single), default=0.0)
    whole = [q for q in found if q.height >= _PIECE * tallest]
    return whole, [q for q in single if q.height >= _PIECE * tallest]


def _outline(spot: RowCard) -> Quad:
    return spot.quad


def _with_lost(row: list[RowCard], detection: Detection, design: Design) -> list[RowCard]:
    """The row with a card placed wherever its paper holds one no outline accounts for."""

    def whole_width(quad: Quad) -> float:
        # A card's height is whole where the next card hides part of its width.
        return quad.height / (1 - 2 * design.inset[1]) / design.aspect

    lost = fill_gaps([s.quad for s in row], detection, whole_width)
    for k, quad in reversed(lost):
        row.insert(k, RowCard(quad, placed=True))
    return row


def _hidden_by_next(rows: list[list[RowCard]], inset: float) -> list[list[RowCard]]:
    """The cards in rows, each with the share of its width that the next card of its row
    leaves in view: a row is laid left to right, each card over the one before, and a card
    the finder outlined whole, or one placed beside a gap, may still lie under its
    neighbour's edge. A framed card's outline lies inside its frame by `inset` of its
    width each side, as its neighbour's does: the share is of its whole width."""
    for row in rows:
        for k, (this, after) in enumerate(itertools.pairwise(row)):
            tl, tr, _, bl = this.quad.corners
            along = (tr - tl) / max(float(length_of(tr - tl)), 1.0)
            corners = after.quad.corners
            reach = min(float((corners[0] - tl) @ along), float((corners[3] - bl) @ along))
            whole = this.quad.width / (1 - 2 * inset)
            visible = float(np.clip(reach / max(whole, 1.0), 0.3, 1.0))
            if visible < this.visible:
                row[k] = RowCard(this.quad, visible, this.placed, this.also)
    return rows


def _share_out(contour: np.ndarray, aspect: float) -> list[Quad]:
    """Paper no card was found in, cut into as many card places as its length holds."""
    (cx, cy), (length, height), angle = row_extent(contour)
    card_width = height / aspect
    count = max(1, round(length / (card_width * _MEAN_ADVANCE)))
    if not 0.6 <= length / (count * card_width) <= 1.4:
        return []  # no row of cards: a chip, a hand, a pile
    a = np.deg2rad(angle)
    along = np.array([np.cos(a), np.sin(a)], np.float32)
    down = np.array([-along[1], along[0]], np.float32)
    start = np.array([cx, cy], np.float32) - along * length / 2 - down * height / 2
    step = length / count
    places = []
    for k in range(count):
        left, right = start + along * k * step, start + along * (k + 1) * step
        corners = [left, right, right + down * height, left + down * height]
        places.append(Quad(np.array(corners, np.float32)))
    return places


def group_rows(seen: list[Seen]) -> list[list[Seen]]:
    """Cards grouped into rows by height, top row first, each row left to right."""
    return _rows_of(seen, lambda s: s.quad)


T = TypeVar("T")


def _rows_of(cards: Sequence[T], quad: Callable[[T], Quad]) -> list[list[T]]:
    """Things with an outline grouped into rows by height, top row first, each row left to
    right."""
    rows: list[list[T]] = []
    # Each card's middle and height, measured once: a row's are asked for every card after.
    ys: list[list[float]] = []
    heights: list[list[float]] = []
    for card in sorted(cards, key=lambda c: quad(c).centre[1]):
        y, height = quad(card).centre[1], quad(card).height
        if rows and abs(y - float(np.mean(ys[-1]))) < _ROW_TOLERANCE * float(np.mean(heights[-1])):
            rows[-1].append(card)
            ys[-1].append(y)
            heights[-1].append(height)
            continue
        rows.append([card])
        ys.append([y])
        heights.append([height])
    return [sorted(row, key=lambda c: quad(c).centre[0]) for row in rows]


@on_one_core
def read_one(frame: np.ndarray, design: Design, *, bare_face: bool = False) -> Reading:
    """The one card of an image: a bare face, a close-up filling the frame, or a card on baize.

    The largest card found on the baize is read; when none is found, the frame itself.
    """
    if not bare_face:
        quads = find_cards(frame)
        if quads:
            largest = max(quads, key=lambda q: q.width * q.height)
            (reading,) = classify_each([(frame, largest, 1.0)], design)
            return twin_checked(frame, largest, 1.0, reading, design)
    whole = _whole_frame_card(frame, design, bare_face=bare_face)
    return whole.reading if whole is not None else Reading(None, None, 0.0)


def _whole_frame_card(frame: np.ndarray, design: Design, *, bare_face: bool) -> Seen | None:
    """The frame read as one card, or None when it does not look like card stock (empty
    baize); a bare face is card stock by definition."""
    whole = whole_frame(frame)
    card = rectify(frame, whole, design.size)
    if not bare_face and describe(card)[1] < _MIN_PAPER_FULL_FRAME:
        return None
    (reading,) = straight_each([card], design)
    return Seen(whole, twin_checked(frame, whole, 1.0, reading, design))
