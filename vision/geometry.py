"""Finding card outlines on the baize and straightening them into upright faces."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# Blobs are looked for in a frame shrunk to this width at most; each card's edges are then
# found again in the full frame, to a fraction of a pixel.
_DETECT_WIDTH = 720
# A card is paper: its darkest channel stays high where green (or any saturated) baize has
# one channel low. The paper threshold sits at least this far above the baize's level.
_PAPER_MARGIN = 45.0
_MIN_CARD_SHARE = 0.004  # of the frame's area: smaller blobs are chips, glare or noise
_MAX_CARD_SHARE = 0.9
_SEAM_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5))
_OPEN_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
_CLOSE_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
_SEAM_DEPTH = 25  # grey levels a seam lies below the paper on both sides of it
_TYPICAL_ASPECT = 1.42  # of a playing card: how many cards a row run together holds
# Edges are looked for this far (frame pixels) either side of where the blob put them.
_SNAP_RANGE = 6.0
_SNAP_STEP = 0.5
_SNAP_ACROSS = np.arange(-_SNAP_RANGE, _SNAP_RANGE + _SNAP_STEP, _SNAP_STEP, dtype=np.float32)
_SNAP_ALONG = np.linspace(0.12, 0.88, 16, dtype=np.float32)
_SNAP_MIN_DROP = 6.0  # grey levels per sample step: weaker is no edge
_ASPECT_RANGE = (1.15, 1.75)  # long side over short side of a playing card
# A card's outline is a quadrilateral its blob fills: a hand or a pile is none.
_MIN_HULL_FILL, _MAX_HULL_FILL = 0.95, 1.08
_MIN_FILL = 0.45


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


_MIN_FRAME_SIDE = 16  # pixels, once scaled for detection


def find_cards(
    frame: np.ndarray, *, portrait_only: bool = False, cut_rows: bool = True
) -> list[Quad]:
    """Every card-shaped paper blob in the frame, as corners ordered upright.

    `portrait_only` keeps cards whose long side is closer to vertical, as cards lie in the
    rows of a layout; two portrait cards touching side by side would otherwise pass for
    one card turned on its side. A blob shaped like a row of cards that does not break up
    is cut into equal cards, unless `cut_rows` is off: then it gives none.
    """
    scale = min(1.0, _DETECT_WIDTH / frame.shape[1])
    if min(frame.shape[0] * scale, frame.shape[1] * scale) < _MIN_FRAME_SIDE:
        return []  # a sliver of a picture: no card fits in it
    small = (
        frame
        if scale == 1.0
        else cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    )
    darkest = _darkest(small)
    level = _paper_level(darkest)
    area = small.shape[0] * small.shape[1]
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


def paper_blobs(frame: np.ndarray) -> list[np.ndarray]:
    """The outlines (frame pixels) of the blobs of paper large enough to hold a card."""
    scale = min(1.0, _DETECT_WIDTH / frame.shape[1])
    if min(frame.shape[0] * scale, frame.shape[1] * scale) < _MIN_FRAME_SIDE:
        return []
    small = (
        frame
        if scale == 1.0
        else cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    )
    darkest = _darkest(small)
    _, mask = cv2.threshold(darkest, _paper_level(darkest), 255, cv2.THRESH_BINARY)
    # Ink printed to the edge (an index, a frame, court art) bites into the paper: closed
    # up, each card is whole, and cards that touch or overlap are one blob.
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _CLOSE_KERNEL)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _OPEN_KERNEL)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    area = small.shape[0] * small.shape[1]
    return [
        (c / scale).astype(np.int32)
        for c in contours
        if _MIN_CARD_SHARE * area <= cv2.contourArea(c) <= _MAX_CARD_SHARE * area
    ]


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
            found.append((corners + np.float32([x0, y0])) * scale)
    return found


def _darkest(frame: np.ndarray) -> np.ndarray:
    """The darkest channel, lightly smoothed: high on paper, low on any saturated baize."""
    b, g, r = cv2.split(frame)
    return cv2.GaussianBlur(cv2.min(cv2.min(b, g), r), (3, 3), 0)


def _paper_level(darkest: np.ndarray) -> float:
    """The darkest-channel level above which a pixel is paper."""
    # Baize fills most of a table frame; its level is a low percentile of the darkest channel.
    baize = float(np.percentile(darkest[::4, ::4], 25))
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


def snap(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Corners moved onto the card's true edges, found to a fraction of a pixel in `frame`.

    Across each side the brightness is sampled; the edge is where it drops from paper to
    baize: the outermost strong drop, since a frame line printed near the edge drops too,
    then rises again. A side with no clear edge (two cards edge to edge) keeps its place.
    """
    ends = np.roll(corners, -1, axis=0)
    sides = ends - corners  # (4, 2)
    along = sides / np.maximum(np.linalg.norm(sides, axis=1, keepdims=True), 1e-6)
    normal = np.stack([-along[:, 1], along[:, 0]], axis=1)
    outward = np.sign(np.sum(normal * ((corners + ends) / 2 - corners.mean(axis=0)), axis=1))
    normal *= np.where(outward < 0, -1.0, 1.0)[:, None].astype(np.float32)
    base = corners[:, None, :] + _SNAP_ALONG[None, :, None] * sides[:, None, :]  # (4, n, 2)
    points = base[:, :, None, :] + _SNAP_ACROSS[None, None, :, None] * normal[:, None, None, :]
    n, s = len(_SNAP_ALONG), len(_SNAP_ACROSS)
    flat = points.reshape(4 * n, s, 2).astype(np.float32)
    samples = cv2.remap(
        frame, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    profile = samples.min(axis=2) if samples.ndim == 3 else samples
    profile = cv2.GaussianBlur(profile.astype(np.float32), (0, 0), sigmaX=1.0, sigmaY=0.01)
    drop = profile[:, :-1] - profile[:, 1:]  # (4n, s-1), positive where it darkens outward
    strong = drop >= np.maximum(0.5 * drop.max(axis=1, keepdims=True), _SNAP_MIN_DROP)
    found = strong.any(axis=1)
    last = (s - 2) - np.argmax(strong[:, ::-1], axis=1)
    # The peak of that drop: the largest step within a pixel or two of where it starts.
    window = np.clip(last[:, None] + np.arange(-4, 5)[None, :], 0, s - 2)
    rows = np.arange(4 * n)[:, None]
    k = window[rows[:, 0], np.argmax(drop[rows, window], axis=1)]
    r = np.arange(4 * n)
    left, mid, right = drop[r, np.maximum(k - 1, 0)], drop[r, k], drop[r, np.minimum(k + 1, s - 2)]
    curve = left - 2 * mid + right
    offset = np.where(curve < 0, 0.5 * (left - right) / np.where(curve < 0, curve, -1.0), 0.0)
    across = _SNAP_ACROSS[0] + (k + 0.5 + np.clip(offset, -0.5, 0.5)) * _SNAP_STEP
    edges = base.reshape(4 * n, 2) + across[:, None] * np.repeat(normal, n, axis=0)
    lines = []
    for i in range(4):
        keep = found[i * n : (i + 1) * n]
        if keep.sum() < n // 2:
            lines.append((corners[i], along[i]))
            continue
        fit = cv2.fitLine(edges[i * n : (i + 1) * n][keep], cv2.DIST_HUBER, 0, 0.01, 0.01)
        vx, vy, x0, y0 = fit.ravel()
        lines.append((np.float32([x0, y0]), np.float32([vx, vy])))
    snapped = _crossings(lines)
    if snapped is None or np.abs(snapped - corners).max() > _SNAP_RANGE * 2.5:
        return corners
    return snapped


def _crossings(lines: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray | None:
    """Where each line meets the one before it, or None for parallel lines."""
    corners = []
    for i in range(4):
        (p, d), (q, e) = lines[i - 1], lines[i]
        det = d[0] * -e[1] - d[1] * -e[0]
        if abs(det) < 1e-6:
            return None
        t = ((q - p)[0] * -e[1] - (q - p)[1] * -e[0]) / det
        corners.append(p + t * d)
    return np.float32(corners)


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
    width = (np.linalg.norm(top) + np.linalg.norm(bottom)) / 2
    height = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2
    count = round(width / height * _TYPICAL_ASPECT)
    if count < 2:
        return [corners]
    if not cut:
        return []
    pieces = []
    for k in range(count):
        a, b = k / count, (k + 1) / count
        piece = np.float32([c[0] + a * top, c[0] + b * top, c[3] + b * bottom, c[3] + a * bottom])
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
            grown = np.zeros_like(canvas)
            cv2.drawContours(grown, [part], -1, 255, -1)
            grown = cv2.dilate(grown, kernel) & canvas
            outline, _ = cv2.findContours(grown, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            piece = _card_corners(max(outline, key=cv2.contourArea))
            if piece is not None:
                cut = _split_row(piece, cut=cut_rows) if portrait_only else [piece]
                found += [c + np.float32([x - pad, y - pad]) for c in cut]
        # The erosion that parts the most cards wins: a small one may leave two joined.
        if len(found) > len(best):
            best = found
    return best if len(best) > len(whole) else whole


def _one_card(corners: np.ndarray, *, portrait_only: bool) -> bool:
    """Whether a quadrilateral has a card's proportions (and stands upright, if asked)."""
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    a, b = sides[0] + sides[2], sides[1] + sides[3]  # two opposite pairs
    if not _ASPECT_RANGE[0] <= max(a, b) / max(min(a, b), 1e-6) <= _ASPECT_RANGE[1]:
        return False
    if not portrait_only:
        return True
    long_side = corners[1] - corners[0] if a > b else corners[2] - corners[1]
    return abs(long_side[1]) > abs(long_side[0])


def _card_corners(contour: np.ndarray) -> np.ndarray | None:
    """The corners of a blob that is one card, or a row of cards edge to edge.

    Its outline must be a quadrilateral (the convex hull fills it) and the blob must fill
    most of it (an index printed near the edge may bite a notch into it, a hand more).
    """
    corners = _quadrilateral(contour)
    if corners is None:
        return None
    quad_area = max(cv2.contourArea(corners), 1.0)
    hull_fill = cv2.contourArea(cv2.convexHull(contour)) / quad_area
    fill = cv2.contourArea(contour) / quad_area
    if not (_MIN_HULL_FILL <= hull_fill <= _MAX_HULL_FILL and fill >= _MIN_FILL):
        return None
    return corners


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


def grow(quad: Quad, inset: tuple[float, float]) -> Quad:
    """The card whose outline, `inset` (shares of width, height) inside its edges, is `quad`."""
    dx, dy = inset
    inner = np.float32([[dx, dy], [1 - dx, dy], [1 - dx, 1 - dy], [dx, 1 - dy]])
    to_frame = cv2.getPerspectiveTransform(inner, quad.corners.astype(np.float32))
    unit = np.float32([[[0, 0]], [[1, 0]], [[1, 1]], [[0, 1]]])
    return Quad(cv2.perspectiveTransform(unit, to_frame).reshape(4, 2))


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
    # The sides are fitted to the hull's outline, not the blob's: an index printed close to
    # the edge may bite a notch into the blob, never into its hull.
    outline = _along(hull.reshape(-1, 2).astype(np.float32))
    corners = approx.reshape(4, 2).astype(np.float32)
    for _ in range(2):  # the first fit may start from corners cut off by the rounding
        corners = _refine(outline, corners)
    return corners


def _along(polygon: np.ndarray) -> np.ndarray:
    """Points about a pixel apart along a closed polygon."""
    ends = np.roll(polygon, -1, axis=0)
    steps = np.maximum(np.linalg.norm(ends - polygon, axis=1).astype(int), 1)
    t = np.concatenate([np.arange(n, dtype=np.float32) / n for n in steps])
    start = np.repeat(polygon, steps, axis=0)
    return start + (np.repeat(ends, steps, axis=0) - start) * t[:, None]


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
        near = points[(along > 0.15) & (along < 0.85) & (off < max(4.0, 0.1 * length))]
        if len(near) < 5:
            return rough
        vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.float32([x0, y0]), np.float32([vx, vy])))
    refined = _crossings(lines)
    if (
        refined is None
        or np.abs(refined - rough).max() > 0.2 * float(np.linalg.norm(rough[1] - rough[0])) + 3
    ):
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
