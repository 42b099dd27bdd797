"""A card's edges to a fraction of a pixel: lines fitted to a blob's outline or to the
brightness across its sides, and the corners where they meet."""

from __future__ import annotations

import functools

import cv2
import numpy as np

from vision.quad import length_of, lengths_of

# Edges are looked for this far (frame pixels) either side of where the blob put them.
_SNAP_RANGE = 6.0
_SNAP_STEP = 0.5
_SNAP_ALONG = np.linspace(0.12, 0.88, 16, dtype=np.float32)
_SNAP_MIN_DROP = 6.0  # grey levels per sample step: weaker is no edge
_NEXT = [1, 2, 3, 0]  # each corner's next, clockwise
_PEAK_WINDOW = np.arange(-4, 5)[None, :]  # sample steps about where a drop starts


def snap(frame: np.ndarray, corners: np.ndarray, reach: float = _SNAP_RANGE) -> np.ndarray:
    """Corners moved onto the card's true edges, found to a fraction of a pixel in `frame`.

    Across each side the brightness is sampled; the edge is where it drops from paper to
    baize: the outermost strong drop, since a frame line printed near the edge drops too,
    then rises again. A side with no clear edge (two cards edge to edge) keeps its place.
    Edges are looked for `reach` pixels either way of where the sides lie.
    """
    across_at = _across(round(reach / _SNAP_STEP) * _SNAP_STEP)
    ends = corners[_NEXT]
    sides = ends - corners  # (4, 2)
    along = sides / np.maximum(lengths_of(sides)[:, None], 1e-6)
    normal = np.stack([-along[:, 1], along[:, 0]], axis=1)
    toward = normal * ((corners + ends) / 2 - corners.mean(axis=0))
    outward = np.sign(toward[:, 0] + toward[:, 1])
    normal *= np.where(outward < 0, -1.0, 1.0)[:, None].astype(np.float32)
    base = corners[:, None, :] + _SNAP_ALONG[None, :, None] * sides[:, None, :]  # (4, n, 2)
    points = base[:, :, None, :] + across_at[None, None, :, None] * normal[:, None, None, :]
    n, s = len(_SNAP_ALONG), len(across_at)
    flat = points.reshape(4 * n, s, 2).astype(np.float32)
    samples = cv2.remap(
        frame, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    # The darkest channel, channel by channel: numpy reduces a short last axis slowly.
    profile = (
        np.minimum(np.minimum(samples[..., 0], samples[..., 1]), samples[..., 2])
        if samples.ndim == 3
        else samples
    )
    profile = cv2.GaussianBlur(profile.astype(np.float32), (0, 0), sigmaX=1.0, sigmaY=0.01)
    drop = profile[:, :-1] - profile[:, 1:]  # (4n, s-1), positive where it darkens outward
    strong = drop >= np.maximum(0.5 * drop.max(axis=1, keepdims=True), _SNAP_MIN_DROP)
    found = strong.any(axis=1)
    last = (s - 2) - np.argmax(strong[:, ::-1], axis=1)
    # The peak of that drop: the largest step within a pixel or two of where it starts.
    window = np.minimum(np.maximum(last[:, None] + _PEAK_WINDOW, 0), s - 2)
    rows = np.arange(4 * n)[:, None]
    k = window[rows[:, 0], np.argmax(drop[rows, window], axis=1)]
    r = np.arange(4 * n)
    left, mid, right = drop[r, np.maximum(k - 1, 0)], drop[r, k], drop[r, np.minimum(k + 1, s - 2)]
    curve = left - 2 * mid + right
    offset = np.where(curve < 0, 0.5 * (left - right) / np.where(curve < 0, curve, -1.0), 0.0)
    across = across_at[0] + (k + 0.5 + np.clip(offset, -0.5, 0.5)) * _SNAP_STEP
    edges = base.reshape(4 * n, 2) + across[:, None] * np.repeat(normal, n, axis=0)
    lines = []
    for i in range(4):
        keep = found[i * n : (i + 1) * n]
        if keep.sum() < n // 2:
            lines.append((corners[i], along[i]))
            continue
        fit = cv2.fitLine(edges[i * n : (i + 1) * n][keep], cv2.DIST_HUBER, 0, 0.01, 0.01)
        vx, vy, x0, y0 = fit.ravel()
        lines.append((np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)))
    snapped = _crossings(lines)
    if snapped is None or np.abs(snapped - corners).max() > reach * 2.5:
        return corners
    return snapped


@functools.cache
def _across(reach: float) -> np.ndarray:
    """Where brightness is sampled across a side: `reach` pixels either way, in steps."""
    return np.arange(-reach, reach + _SNAP_STEP, _SNAP_STEP, dtype=np.float32)


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
    return np.array(corners, np.float32)


def quadrilateral(contour: np.ndarray) -> np.ndarray | None:
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
        refined = _refine(outline, corners)
        if refined is corners:  # kept as they were: a second fit would keep them again
            break
        corners = refined
    return corners


def _along(polygon: np.ndarray) -> np.ndarray:
    """Points about a pixel apart along a closed polygon."""
    ends = np.roll(polygon, -1, axis=0)
    steps = np.maximum(lengths_of(ends - polygon).astype(int), 1)
    # Each point's step along its side over the side's steps, all sides at once.
    each = np.repeat(steps, steps)
    t = (np.arange(len(each)) - np.repeat(np.cumsum(steps) - steps, steps)) / each
    start = np.repeat(polygon, steps, axis=0)
    points: np.ndarray = start + (np.repeat(ends, steps, axis=0) - start) * t[:, None]
    return points


def _refine(points: np.ndarray, rough: np.ndarray) -> np.ndarray:
    """Corners as the crossings of lines fitted to each side, clear of the rounded corners."""
    lines = []
    for i in range(4):
        a, b = rough[i], rough[(i + 1) % 4]
        side = b - a
        length = float(length_of(side))
        if length < 4:
            return rough
        relative = points - a
        along = relative @ side / length**2
        normal = np.array([-side[1], side[0]]) / length
        off = np.abs(relative @ normal)
        near = points[(along > 0.15) & (along < 0.85) & (off < max(4.0, 0.1 * length))]
        if len(near) < 5:
            return rough
        fit = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((fit[2:], fit[:2]))
    refined = _crossings(lines)
    if (
        refined is None
        or np.abs(refined - rough).max() > 0.2 * float(length_of(rough[1] - rough[0])) + 3
    ):
        return rough
    return refined
