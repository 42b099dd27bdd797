"""Reading a whole coup: every card on the baize, named, in rows from the top."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import cv2
import numpy as np

from vision.classifier import (
    Around,
    Reading,
    classify,
    classify_around_each,
    classify_placed_each,
    classify_straight,
    declined,
    on_one_core,
)
from vision.design import Design
from vision.features import describe
from vision.geometry import Detection, find_cards, paper_blobs
from vision.look import Looks
from vision.quad import (
    Quad,
    along_top_edge,
    from_left_edge,
    grow,
    rectify,
    whole_frame,
    widened,
)
from vision.row_gaps import fill_gaps
from vision.rows import RowCard, part_row, row_extent
from vision.twin_look import twin_checked

# Two cards belong to one row when their centres are closer in height than this share of
# a card's height; the rows of a layout are a card's height apart or more.
_ROW_TOLERANCE = 0.5
_MIN_PAPER_FULL_FRAME = 0.3  # baize scores 0.05-0.2, card stock 0.4 and more
# A card read where its outline was placed, without looking around it, is named at once
# only when this sure (an outline a little off may pass an ace of spades for one of clubs).
_PLACED_SURE = 0.75
# A card looked for around its own outline alone is named only when this sure: on the
# tuning designs, cards named there wrongly were 0.61 and 0.67 sure, right ones up to 1.
_NEAR_SURE = 0.9
# A card seen larger than this many times the classifier's size is shrunk once, with this
# share of its size around it (every outline tried lies within it).
_SHRINK_FROM, _AROUND = 1.2, 0.25
_WIDTH_STEP = 0.08  # of a card's width: how far its outline's right side may be off
# The sides (top, right, bottom, left) a framed card's outline drawn by the finder is also
# grown on: its top or left side may lie on the card's edge already, where the frame stood
# out less against the baize (the light falls unevenly).
_PART_GROWN = ((False, True, True, True), (True, True, True, False), (False, True, True, False))
_HIDDEN_MORE = 0.1  # of a card's width
_ONE_CARD = 1.5  # a blob shorter than this many cards' widths along its row is one card
_MEAN_ADVANCE = 0.95  # of a card's width, from one card of a row to the next
# A card the finder outlined shorter than this share of the tallest is a piece of one (a
# row nearer the camera shows its cards a few hundredths larger than another's).
_PIECE = 0.8


@dataclass(frozen=True)
class Seen:
    """A card found in a frame and what the classifier made of it."""

    quad: Quad
    reading: Reading


@on_one_core
def read_layout(frame: np.ndarray, design: Design, *, bare_face: bool = False) -> list[list[Seen]]:
    """The cards of a frame in rows from the top, each row left to right.

    A frame with no card on baize may be one card filling it (a close-up or a bare face):
    it is then one row of one card.
    """
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
    found = _whole_cards(found)
    # The cards of a frame are one size: those outlined whole tell it best.
    card_height = float(np.median([q.height for q in found])) if found else None
    spots: list[RowCard] = []
    claimed: set[int] = set()
    aspect = design.aspect
    for contour in paper_blobs(frame, detection):
        inside = [
            k for k, q in enumerate(found)
            if k not in claimed and cv2.pointPolygonTest(contour, q.centre, False) >= 0
        ]
        claimed.update(inside)
        _, (length, height), _ = row_extent(contour)
        if inside and length < _ONE_CARD * height / aspect:
            spots += [RowCard(found[k]) for k in inside]
            continue
        parted = part_row(
            frame, contour, aspect, [found[k] for k in inside], card_height, inset=design.inset
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


def _whole_cards(found: list[Quad]) -> list[Quad]:
    """The cards the finder outlined whole. It may also outline a piece of a card (a court
    card's art inside its frame), never more than a card, and the cards of a frame are one
    size: those much shorter than the tallest are pieces."""
    tallest = max((q.height for q in found), default=0.0)
    return [q for q in found if q.height >= _PIECE * tallest]


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
            along = (tr - tl) / max(float(np.linalg.norm(tr - tl)), 1.0)
            corners = after.quad.corners
            reach = min(float((corners[0] - tl) @ along), float((corners[3] - bl) @ along))
            whole = this.quad.width / (1 - 2 * inset)
            visible = float(np.clip(reach / max(whole, 1.0), 0.3, 1.0))
            if visible < this.visible:
                row[k] = RowCard(this.quad, visible, this.placed, this.also)
    return rows


@on_one_core
def read_card(frame: np.ndarray, spot: RowCard, design: Design) -> Reading:
    """What the classifier makes of a card found on the baize (`read_cards`)."""
    return read_cards(frame, [spot], design)[0]


@on_one_core
def read_cards(frame: np.ndarray, spots: Sequence[RowCard], design: Design) -> list[Reading]:
    """What the classifier makes of each card found on the baize.

    Each is read where it was outlined, and looked for around its outline too (and around
    the outline grown to the edges of a design framed near them: the finder may outline
    the paper inside the frame): an outline placed from a row's edges may be a few pixels
    off, and the finder may be misled by glare or a chip. Named where it was outlined, it
    stands when the look around guesses it too and names no other card (the cards named
    are looked for around together: the products over the references are made once for
    all); otherwise it is looked for further (`_look_further`). A card named is looked at
    again, finer, beside its suit twin (`vision.twin_look`).
    """
    near = [_near(frame, spot, design) for spot in spots]
    firsts = [classify(piece, spot.quad, design, spot.visible) for piece, spot in near]
    looks: list[Looks] = [{} for _ in spots]
    named = [
        k for k, (reading, (_, spot)) in enumerate(zip(firsts, near, strict=True))
        if reading.card is not None and (not spot.placed or reading.confidence >= _PLACED_SURE)
    ]
    # A second look, around the outline: it must guess the same card and name no other.
    arounds = classify_around_each(
        [Around(near[k][0], _outlines(near[k][1], design), near[k][1].visible, looks[k])
         for k in named],
        design,
    )
    readings = list(firsts)
    for k, around in zip(named, arounds, strict=True):
        reading = firsts[k]
        seen = {r.card for r in around if r.card is not None}
        if not (seen <= {reading.card} and reading.card in {r.guess for r in around}):
            readings[k] = declined(reading)
    # The others are looked for further, all together at each step.
    rest = [k for k in range(len(spots)) if k not in named]
    further = _look_further([(*near[k], looks[k], firsts[k]) for k in rest], design)
    for k, reading in zip(rest, further, strict=True):
        readings[k] = reading
    return [twin_checked(frame, spot.quad, spot.visible, reading, design)
            for spot, reading in zip(spots, readings, strict=True)]


def _grown(spot: RowCard, design: Design) -> list[Quad]:
    """The card's outline grown to the edges of a design framed near them, if it is one."""
    return [grow(spot.quad, design.inset)] if design.inset != (0.0, 0.0) else []


def _outlines(spot: RowCard, design: Design, *, grown: bool = False) -> list[Quad]:
    """The outlines a card named where it was outlined is looked for around (`grown`: a
    card not named there), before any is rebuilt."""
    return [spot.quad, *_grown(spot, design)] if grown or not spot.placed else [spot.quad]


def _look_further(cards: Sequence[_Pending], design: Design) -> list[Reading]:
    """Cards not named where they were outlined (each in its frame, with what was seen
    around its outlines, and its first reading): each looked for around its outlines, and
    named there when sure; otherwise around all its outlines at once, rebuilt from its left
    edge as well, and named only where it fits best by the margin any card must show, and
    does not name another less surely than where it was outlined. The cards are looked for
    together at each step, the products over the references made once for all."""
    readings: list[Reading] = [Reading(None, None, 0.0)] * len(cards)
    # The next card, turned, may hide more of a card at one corner than its share in view
    # measured along its top and bottom edges says: a hidden card is tried at less.
    pending = list(range(len(cards)))
    for less in (0.0, _HIDDEN_MORE):
        pending = [k for k in pending if not less or cards[k][1].visible < 1.0]
        shares = [cards[k][1].visible - less for k in pending]
        # Looked for around where it was outlined first, and named there when sure: each
        # outline more costs as much as the first. (Named there less surely, a card may
        # still be another, which another outline shows to fit better.)
        near = classify_placed_each(
            [_around(cards[k], share, design) for k, share in zip(pending, shares, strict=True)],
            design,
            resized=False,
        )
        unsure = [j for j, reading in enumerate(near) if reading.confidence < _NEAR_SURE]
        for k, reading in zip(pending, near, strict=True):
            readings[k] = reading
        full = classify_placed_each(
            [_around(cards[pending[j]], shares[j], design, rebuilt=True) for j in unsure], design
        )
        for j, reading in zip(unsure, full, strict=True):
            readings[pending[j]] = _agreed(cards[pending[j]][3], reading)
        pending = [
            pending[j] for j, reading in zip(unsure, full, strict=True) if reading.card is None
        ]
    return readings


# A card not named where it was outlined: its frame, the card, what was seen around its
# outlines, and its first reading.
_Pending = tuple[np.ndarray, RowCard, Looks, Reading]


def _agreed(first: Reading, reading: Reading) -> Reading:
    """`reading`, declined when it names a card another than the one named, more surely,
    where the card was outlined: it may be either."""
    agrees = first.card in (None, reading.card) or reading.confidence > first.confidence
    return reading if reading.card is None or agrees else declined(reading)


def _around(
    card: _Pending,
    visible: float,
    design: Design,
    *,
    rebuilt: bool = False,
) -> Around:
    """A card not named where it was outlined, to look for around its outlines there, or
    around all of them at once, rebuilt from its left edge as well."""
    frame, spot, looks, _ = card
    outlines = _outlines(spot, design, grown=True)
    if spot.also is not None:  # the finder's outline of a card under the next, widened
        outlines.append(spot.also)
    if rebuilt:
        outlines += _rebuilt(spot, design)
    return Around(frame, outlines, visible, looks)


def _rebuilt(spot: RowCard, design: Design) -> list[Quad]:
    """The outline's right side is the least sure: it lies under the next card or beside
    it, and the finder may take the neighbour's edge for it. The left edge, which a row
    never hides, gives the card again at the design's proportions: square to it, or along
    the card's own top edge (the camera's view shears a little); and the right side is
    tried a little nearer and further."""
    grown = _grown(spot, design)
    rebuilt = [from_left_edge(q, design.aspect) for q in [spot.quad, *grown]]
    rebuilt.append(along_top_edge(spot.quad, design.aspect))
    rebuilt += [widened(spot.quad, 1 + step) for step in (-_WIDTH_STEP, _WIDTH_STEP)]
    if grown and not spot.placed:
        rebuilt += [grow(spot.quad, design.inset, sides) for sides in _PART_GROWN]
    return rebuilt


def _near(frame: np.ndarray, spot: RowCard, design: Design) -> tuple[np.ndarray, RowCard]:
    """The part of the frame around a card, shrunk once to about the size the classifier
    compares cards at, and the card in it: the many outlines tried around a card are then
    each cut from one small image, where each would shrink its own piece of the frame."""
    factor = min(spot.quad.width / design.size[0], spot.quad.height / design.size[1])
    if factor <= _SHRINK_FROM:
        return frame, spot
    corners = spot.quad.corners
    reach = _AROUND * max(spot.quad.width, spot.quad.height)
    x0, y0 = np.maximum(np.floor(corners.min(axis=0) - reach).astype(int), 0)
    x1, y1 = np.ceil(corners.max(axis=0) + reach).astype(int) + 1
    piece = frame[y0:y1, x0:x1]
    small = _shrunk(piece, 1 / factor)

    def moved(quad: Quad) -> Quad:
        return Quad(((quad.corners - np.array([x0, y0], np.float32)) / factor).astype(np.float32))

    also = moved(spot.also) if spot.also is not None else None
    return small, RowCard(moved(spot.quad), spot.visible, spot.placed, also)


_WHOLE_RATIO = 1e-6


def _shrunk(image: np.ndarray, scale: float) -> np.ndarray:
    """`image` resized by `scale` (< 1), each pixel the mean of what it covers. An 8-bit
    image is shrunk in floating point and rounded: the same pixels as OpenCV's 8-bit path
    gives, in two thirds of its time; but for a whole number of pixels into one, which
    that path sums in integers and rounds its own way (and fast)."""
    whole = abs(1 / scale - round(1 / scale)) < _WHOLE_RATIO
    if image.dtype != np.uint8 or whole:
        return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    wide = cv2.resize(
        image.astype(np.float32), None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA
    )
    return np.rint(wide).astype(np.uint8)


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
    for card in sorted(cards, key=lambda c: quad(c).centre[1]):
        if rows:
            row = rows[-1]
            row_y = float(np.mean([quad(c).centre[1] for c in row]))
            height = float(np.mean([quad(c).height for c in row]))
            if abs(quad(card).centre[1] - row_y) < _ROW_TOLERANCE * height:
                row.append(card)
                continue
        rows.append([card])
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
            return twin_checked(frame, largest, 1.0, classify(frame, largest, design), design)
    whole = _whole_frame_card(frame, design, bare_face=bare_face)
    return whole.reading if whole is not None else Reading(None, None, 0.0)


def _whole_frame_card(frame: np.ndarray, design: Design, *, bare_face: bool) -> Seen | None:
    """The frame read as one card, or None when it does not look like card stock (empty
    baize); a bare face is card stock by definition."""
    whole = whole_frame(frame)
    card = rectify(frame, whole, design.size)
    if not bare_face and describe(card)[1] < _MIN_PAPER_FULL_FRAME:
        return None
    return Seen(whole, twin_checked(frame, whole, 1.0, classify_straight(card, design), design))
