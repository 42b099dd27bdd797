"""Finding card outlines on the baize: blobs of paper, and the cards they hold."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from vision.edges import quadrilateral, snap
from vision.percentile import percentile
from vision.quad import Quad, length_of, lengths_of

# Blobs are looked for in a frame shrunk to this width at most; each card's edges are then
# found again in the full frame, to a fraction of a pixel.
_DETECT_WIDTH = 720
# A card is paper: its darkest channel stays high where green (or any saturated) baize has
# one channel low. The paper threshold sits at least this far above the baize's level.
_PAPER_MARGIN = 45.0
_MIN_CARD_SHARE = 0.004  # of the frame's area: smaller blobs are chips, glare or noise
_MAX_CARD_SHARE = 0.9
_ACROSS_CHANNELS = np.ones((1, 3), np.uint8)
_SEAM_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5))
_OPEN_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
_CLOSE_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
_SEAM_DEPTH = 25  # grey levels a seam lies below the paper on both sides of it
_TYPICAL_ASPECT = 1.42  # of a playing card: how many cards a row run together holds
_ASPECT_RANGE = (1.15, 1.75)  # long side over short side of a playing card
# A card's outline is a quadrilateral its blob fills: a hand or a pile is none.
_MIN_HULL_FILL, _MAX_HULL_FILL = 0.95, 1.08
_MIN_FILL = 0.45

_MIN_FRAME_SIDE = 16  # pixels, once scaled for detection
# Baize across a blob, this far from its top and bottom edges and this many lines deep,
# lies between two rows. A line holding no more paper than this share of the blob's median
# line is baize too: a card of one row turned a few degrees may touch the row above with
# its corner (a few pixels of paper on the line), where across one row every line meets
# every card.
_ROW_CUT_MARGIN, _ROW_CUT_LINES, _ROW_CUT_PAPER = 0.3, 2, 0.05


@dataclass(frozen=True)
class Detection:
    """A frame as blobs are looked for in it: shrunk to `scale`, its darkest channel, and the
    level above which that is paper. Made once a frame and shared by whoever looks."""

    scale: float
    darkest: np.ndarray
    level: float

    @staticmethod
    def of(frame: np.ndarray) -> Detection | None:
        """None for a sliver of a picture, in which no card fits, or an empty one."""
        if min(frame.shape[:2]) == 0:
            return None
        scale = min(1.0, _DETECT_WIDTH / frame.shape[1])
        if min(frame.shape[0] * scale, frame.shape[1] * scale) < _MIN_FRAME_SIDE:
            return None
        # The darkest channel is taken before shrinking: a third of the pixels to shrink.
        darkest = _darkest(frame, blur=False)
        if scale < 1.0:
            darkest = cv2.resize(darkest, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        darkest = cv2.GaussianBlur(darkest, (3, 3), 0)
        return Detection(scale, darkest, _paper_level(darkest))

    @cached_property
    def paper(self) -> np.ndarray:
        """Whether each pixel of `darkest` is paper: made once a frame, asked of each row."""
        mask: np.ndarray = self.darkest > self.level
        return mask


def find_cards(
    frame: np.ndarray,
    *,
    portrait_only: bool = False,
    cut_rows: bool = True,
    detection: Detection | None = None,
) -> list[Quad]:
    """Every card-shaped paper blob in the frame, as corners ordered upright.

    `portrait_only` keeps cards whose long side is closer to vertical, as cards lie in the
    rows of a layout; two portrait cards touching side by side would otherwise pass for
    one card turned on its side. A blob shaped like a row of cards that does not break up
    is cut into equal cards, unless `cut_rows` is off: then it gives none. `detection` is
    the frame's, when the caller made it already.
    """
    seen = detection or Detection.of(frame)
    if seen is None:
        return []
    scale, darkest, level = seen.scale, seen.darkest, seen.level
    area = darkest.shape[0] * darkest.shape[1]
    min_area = _MIN_CARD_SHARE * area
    quads = []
    for contour in _blobs(darkest, level):
        blob = cv2.contourArea(contour)
        if not min_area <= blob <= _MAX_CARD_SHARE * area:
            continue
        pieces = []
        for corners in _cards_in_blob(
            contour, min_area, portrait_only=portrait_only, cut_rows=cut_rows
        ):
            parts = _split_row(corners, cut=cut_rows) if portrait_only else [corners]
            if len(parts) > 1 and scale < 1.0:
                # Cards that merged at the detection scale may stand apart at full size.
                apart = _cards_at_full_size(frame, contour, scale, level, min_area)
                if len(apart) >= len(parts):
                    parts = apart
            pieces += [p / scale for p in parts]
        for piece in pieces:
            quad = _upright(snap(frame, piece), portrait_only=portrait_only)
            if quad is not None:
                quads.append(quad)
    return quads


def paper_blobs(frame: np.ndarray, detection: Detection | None = None) -> list[np.ndarray]:
    """The outlines (frame pixels) of the blobs of paper large enough to hold a card."""
    seen = detection or Detection.of(frame)
    if seen is None:
        return []
    scale, darkest = seen.scale, seen.darkest
    _, raw = cv2.threshold(darkest, seen.level, 255, cv2.THRESH_BINARY)
    # Ink printed to the edge (an index, a frame, court art) bites into the paper: closed
    # up, each card is whole, and cards that touch or overlap are one blob.
    mask = cv2.morphologyEx(raw, cv2.MORPH_CLOSE, _CLOSE_KERNEL)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _OPEN_KERNEL)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    cut = [_cut_between_rows(mask, raw, c) for c in contours]  # every blob, not the first
    if any(cut):
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    area = darkest.shape[0] * darkest.shape[1]
    return [
        (c / scale).astype(np.int32)
        for c in contours
        if _MIN_CARD_SHARE * area <= cv2.contourArea(c) <= _MAX_CARD_SHARE * area
    ]


def _cut_between_rows(mask: np.ndarray, raw: np.ndarray, contour: np.ndarray) -> bool:
    """Two rows laid a few pixels apart are one blob once closed up, and would be read as
    one row of cards twice as tall: where lines across the blob's middle hold hardly any
    paper before closing (`_ROW_CUT_PAPER`), baize lies between two rows, and the blob is
    cut there (in `mask`). Across one row, a line always meets the paper of every card: a
    number card's, a margin's."""
    x, y, w, h = cv2.boundingRect(contour)
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [contour - np.array([x, y], np.int32)], -1, 255, cv2.FILLED)
    paper = np.count_nonzero(raw[y : y + h, x : x + w] & inside, axis=1)
    middle = np.arange(h)
    thin = paper <= _ROW_CUT_PAPER * np.median(paper)
    bare = thin & (middle > _ROW_CUT_MARGIN * h) & (middle < (1 - _ROW_CUT_MARGIN) * h)
    if np.count_nonzero(bare) < _ROW_CUT_LINES:
        return False
    # only this blob's own pixels: another blob may reach into its bounding box
    mask[y : y + h, x : x + w][bare] &= ~inside[bare]
    return True


def _cards_at_full_size(
    frame: np.ndarray, contour: np.ndarray, scale: float, level: float, min_area: float
) -> list[np.ndarray]:
    """The cards in a blob of the detection scale, looked for again in the full frame;
    corners at the detection scale."""
    x, y, w, h = cv2.boundingRect(contour)
    pad = 3
    x0, y0 = max(int((x - pad) / scale), 0), max(int((y - pad) / scale), 0)
    x1 = min(int((x + w + pad) / scale), frame.shape[1])
    y1 = min(int((y + h + pad) / scale), frame.shape[0])
    found = []
    for part in _blobs(_darkest(frame[y0:y1, x0:x1]), level):
        if cv2.contourArea(part) < min_area / scale**2:
            continue
        for corners in _cards_in_blob(part, min_area / scale**2, portrait_only=True, cut_rows=True):
            found.append((corners + np.array([x0, y0], np.float32)) * scale)
    return found


def _darkest(frame: np.ndarray, *, blur: bool = True) -> np.ndarray:
    """The darkest channel, lightly smoothed unless not `blur`: high on paper, low on any
    saturated baize."""
    h, w = frame.shape[:2]
    # A pixel's channels lie side by side in a row: an erosion three wide over the row,
    # read at each pixel's middle channel, is its darkest (at a fifteenth of the cost of
    # splitting the channels).
    darkest = np.ascontiguousarray(cv2.erode(frame.reshape(h, w * 3), _ACROSS_CHANNELS)[:, 1::3])
    return cv2.GaussianBlur(darkest, (3, 3), 0) if blur else darkest


def _paper_level(darkest: np.ndarray) -> float:
    """The darkest-channel level above which a pixel is paper."""
    # Baize fills most of a table frame; its level is a low percentile of the darkest channel.
    baize = percentile(darkest[::4, ::4].ravel(), 25)
    otsu, _ = cv2.threshold(darkest, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return max(float(otsu), baize + _PAPER_MARGIN)


def _blobs(darkest: np.ndarray, level: float) -> list[np.ndarray]:
    """Outer outlines of the paper regions."""
    _, mask = cv2.threshold(darkest, level, 255, cv2.THRESH_BINARY)
    # Two cards that touch are parted by a thin shadow or crease: a narrow dark valley.
    valleys = cv2.morphologyEx(darkest, cv2.MORPH_BLACKHAT, _SEAM_KERNEL)
    mask[valleys > _SEAM_DEPTH] = 0
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _OPEN_KERNEL)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return list(contours)


def _split_row(corners: np.ndarray, *, cut: bool = True) -> list[np.ndarray]:
    """Portrait cards laid edge to edge look like one wide card: cut it into cards (or,
    without `cut`, none: where they part is left to someone who knows more)."""
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    c = corners[np.argsort(angles)]
    # Start at the corner whose next side is the most horizontal one.
    sides = np.roll(c, -1, axis=0) - c
    first = int(np.argmax(np.abs(sides[:, 0]) - np.abs(sides[:, 1])))
    c = np.roll(c, -first, axis=0)
    top, bottom = c[1] - c[0], c[2] - c[3]
    width = (length_of(top) + length_of(bottom)) / 2
    height = (length_of(c[3] - c[0]) + length_of(c[2] - c[1])) / 2
    count = round(width / height * _TYPICAL_ASPECT)
    if count < 2:
        return [corners]
    if not cut:
        return []
    pieces = []
    for k in range(count):
        a, b = k / count, (k + 1) / count
        piece = np.array(
            [c[0] + a * top, c[0] + b * top, c[3] + b * bottom, c[3] + a * bottom], np.float32
        )
        pieces.append(piece)
    return pieces


def _cards_in_blob(
    contour: np.ndarray, min_area: float, *, portrait_only: bool, cut_rows: bool
) -> list[np.ndarray]:
    """The corners of the card a blob is, or of the cards touching each other in it.

    Cards that touch make one blob; eroding it breaks the narrow bridges between them, and
    each part grows back by the erosion's width. A blob shaped like a row of cards that
    does not break up is returned whole, for the caller to cut.
    """
    corners = _card_corners(contour)
    if corners is not None and _one_card(corners, portrait_only=portrait_only):
        return [corners]
    whole = [] if corners is None else [corners]
    x, y, w, h = cv2.boundingRect(contour)
    pad = 2
    canvas = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(canvas, [contour], -1, 255, -1, offset=(pad - x, pad - y))
    best: list[np.ndarray] = []
    for radius in (2, 4, 6, 9):
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
        parts, _ = cv2.findContours(
            cv2.erode(canvas, kernel), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE
        )
        parts = [p for p in parts if cv2.contourArea(p) >= 0.6 * min_area]
        if len(parts) < 2:
            continue
        found = []
        for part in parts:
            drawn = np.zeros_like(canvas)
            cv2.drawContours(drawn, [part], -1, 255, -1)
            grown = cv2.bitwise_and(cv2.dilate(drawn, kernel), canvas)
            outline, _ = cv2.findContours(grown, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            piece = _card_corners(max(outline, key=cv2.contourArea))
            if piece is not None:
                cut = _split_row(piece, cut=cut_rows) if portrait_only else [piece]
                found += [c + np.array([x - pad, y - pad], np.float32) for c in cut]
        # The erosion that parts the most cards wins: a small one may leave two joined.
        if len(found) > len(best):
            best = found
    return best if len(best) > len(whole) else whole


def _one_card(corners: np.ndarray, *, portrait_only: bool) -> bool:
    """Whether a quadrilateral has a card's proportions (and stands upright, if asked)."""
    sides = lengths_of(np.roll(corners, -1, axis=0) - corners)
    a, b = sides[0] + sides[2], sides[1] + sides[3]  # two opposite pairs
    if not _ASPECT_RANGE[0] <= max(a, b) / max(min(a, b), 1e-6) <= _ASPECT_RANGE[1]:
        return False
    if not portrait_only:
        return True
    long_side = corners[1] - corners[0] if a > b else corners[2] - corners[1]
    return bool(abs(long_side[1]) > abs(long_side[0]))


def _card_corners(contour: np.ndarray) -> np.ndarray | None:
    """The corners of a blob that is one card, or a row of cards edge to edge.

    Its outline must be a quadrilateral (the convex hull fills it) and the blob must fill
    most of it (an index printed near the edge may bite a notch into it, a hand more).
    """
    corners = quadrilateral(contour)
    if corners is None:
        return None
    quad_area = max(cv2.contourArea(corners), 1.0)
    hull_fill = cv2.contourArea(cv2.convexHull(contour)) / quad_area
    fill = cv2.contourArea(contour) / quad_area
    if not (_MIN_HULL_FILL <= hull_fill <= _MAX_HULL_FILL and fill >= _MIN_FILL):
        return None
    return corners


def _upright(corners: np.ndarray, *, portrait_only: bool) -> Quad | None:
    """Corners ordered clockwise from the top-left of a portrait card; None if not card-shaped."""
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    ordered = corners[np.argsort(angles)]  # clockwise on screen (y points down)
    sides = lengths_of(np.roll(ordered, -1, axis=0) - ordered)
    # Start at a corner whose next side is a short one (the top edge of a portrait card).
    first = 0 if sides[0] + sides[2] <= sides[1] + sides[3] else 1
    ordered = np.roll(ordered, -first, axis=0)
    short = (sides[first] + sides[(first + 2) % 4]) / 2
    long = (sides[(first + 1) % 4] + sides[(first + 3) % 4]) / 2
    if short <= 0 or not _ASPECT_RANGE[0] <= long / short <= _ASPECT_RANGE[1]:
        return None
    top = ordered[1] - ordered[0]
    if portrait_only and abs(top[1]) > abs(top[0]):
        return None
    # Of the two short sides, the one higher in the frame is the top.
    if ordered[2:].mean(axis=0)[1] < ordered[:2].mean(axis=0)[1]:
        ordered = np.roll(ordered, 2, axis=0)
    return Quad(ordered.astype(np.float32))
