"""Finding card outlines on the baize and straightening them into upright faces."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# Detection runs on a frame no wider than this: card edges are long straight lines, so half
# a 1280-wide frame still places a corner within a pixel or two of the full-size frame.
_DETECT_WIDTH = 720
# A card is paper: its darkest channel stays high where green (or any saturated) baize has
# one channel low. The paper threshold sits at least this far above the baize's level.
_PAPER_MARGIN = 45.0
_MIN_CARD_SHARE = 0.004  # of the frame's area: smaller blobs are chips, glare or noise
_MAX_CARD_SHARE = 0.9
_ASPECT_RANGE = (1.15, 1.75)  # long side over short side of a playing card
_MIN_SOLIDITY = 0.93  # blob area over its quadrilateral's area: a hand or a pile is not a card


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
        return float(np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2

    @property
    def height(self) -> float:
        c = self.corners
        return float(np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2


def find_cards(frame: np.ndarray, *, portrait_only: bool = False) -> list[Quad]:
    """Every card-shaped paper blob in the frame, as corners ordered upright.

    `portrait_only` keeps cards whose long side is closer to vertical, as cards lie in the
    rows of a layout; two portrait cards touching side by side would otherwise pass for
    one card turned on its side.
    """
    scale = min(1.0, _DETECT_WIDTH / frame.shape[1])
    small = (
        frame
        if scale == 1.0
        else cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    )
    mask = paper_mask(small)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    area = small.shape[0] * small.shape[1]
    quads = []
    for contour in contours:
        blob = cv2.contourArea(contour)
        if not _MIN_CARD_SHARE * area <= blob <= _MAX_CARD_SHARE * area:
            continue
        corners = _quadrilateral(contour)
        if corners is None or blob < _MIN_SOLIDITY * cv2.contourArea(corners):
            continue
        quad = _upright(corners / scale, portrait_only=portrait_only)
        if quad is not None:
            quads.append(quad)
    return quads


def paper_mask(frame: np.ndarray) -> np.ndarray:
    """255 where the frame looks like card stock rather than baize."""
    darkest = frame.min(axis=2)
    darkest = cv2.GaussianBlur(darkest, (3, 3), 0)
    # Baize fills most of a table frame; its level is a low percentile of the darkest channel.
    baize = float(np.percentile(darkest[::4, ::4], 25))
    otsu, _ = cv2.threshold(darkest, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    level = max(otsu, baize + _PAPER_MARGIN)
    _, mask = cv2.threshold(darkest, level, 255, cv2.THRESH_BINARY)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)


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
        corners = (corners - np.float32([x0, y0])) * shrink
        frame = patch
    target = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    return cv2.warpPerspective(
        frame, matrix, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def whole_frame(frame: np.ndarray) -> Quad:
    """The frame itself as the card, for a close-up or a bare face image."""
    h, w = frame.shape[:2]
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    if w > h:  # a face image lying on its side: its top is at the left
        corners = np.roll(corners, -3, axis=0)
    return Quad(corners)


def _quadrilateral(contour: np.ndarray) -> np.ndarray | None:
    """Four corners of a convex blob with rounded corners, or None when it is no quadrilateral."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, closed=True)
    for eps in (0.02, 0.03, 0.04, 0.05):
        approx = cv2.approxPolyDP(hull, eps * perimeter, closed=True)
        if len(approx) == 4:
            break
    else:
        return None
    rough = approx.reshape(4, 2).astype(np.float32)
    return _refine(contour.reshape(-1, 2).astype(np.float32), rough)


def _refine(points: np.ndarray, rough: np.ndarray) -> np.ndarray:
    """Corners as the crossings of lines fitted to each side, clear of the rounded corners."""
    lines = []
    for i in range(4):
        a, b = rough[i], rough[(i + 1) % 4]
        side = b - a
        length = float(np.linalg.norm(side))
        if length < 4:
            return rough
        along = (points - a) @ side / length**2
        normal = np.array([-side[1], side[0]]) / length
        off = np.abs((points - a) @ normal)
        near = points[(along > 0.15) & (along < 0.85) & (off < max(3.0, 0.04 * length))]
        if len(near) < 5:
            return rough
        vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    corners = []
    for i in range(4):
        (p, d), (q, e) = lines[i - 1], lines[i]
        det = d[0] * -e[1] - d[1] * -e[0]
        if abs(det) < 1e-6:
            return rough
        t = ((q - p)[0] * -e[1] - (q - p)[1] * -e[0]) / det
        corners.append(p + t * d)
    refined = np.float32(corners)
    if np.abs(refined - rough).max() > 0.2 * float(np.linalg.norm(rough[1] - rough[0])) + 3:
        return rough
    return refined


def _upright(corners: np.ndarray, *, portrait_only: bool) -> Quad | None:
    """Corners ordered clockwise from the top-left of a portrait card; None if not card-shaped."""
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    ordered = corners[np.argsort(angles)]  # clockwise on screen (y points down)
    sides = np.linalg.norm(np.roll(ordered, -1, axis=0) - ordered, axis=1)
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
