"""What the classifier compares: a straightened card reduced to light-independent ink maps.

A card is described by three maps: ink (how dark), and two colour-opponent maps (red
against green, yellow against blue), each measured relative to the card's own paper so that
a dim, tinted or unevenly lit card gives the same maps as the clean reference face. Two
crops are kept: the whole face at low resolution (pip layout, court art) and the corner
index at higher resolution (rank glyph and suit pip).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

CARD_WIDTH = 80  # pixels of a straightened card; its height follows the design's aspect
FACE_SHRINK = 2  # the face map is kept at half the straightened size
INDEX_BOX = (0.0, 0.0, 0.24, 0.33)  # x0, y0, x1, y1 of the corner index, as card fractions
_RING = (0.025, 0.07)  # the band along the card's edge that is bare paper on every design
_CHROMA_WEIGHT = 1.5  # colour maps count more than ink: red against black settles a suit


@dataclass(frozen=True)
class CardMaps:
    """The two normalised feature vectors of one card in one orientation."""

    face: np.ndarray  # float32, unit norm, zero mean
    index: np.ndarray


def card_size(aspect: float) -> tuple[int, int]:
    """(width, height) of a straightened card of the given height-over-width aspect."""
    return CARD_WIDTH, round(CARD_WIDTH * aspect)


def describe(card: np.ndarray) -> tuple[CardMaps, float]:
    """The maps of a straightened BGR card, and how much it looks like paper (0..1)."""
    flat, paperness = _flatten(card.astype(np.float32))
    maps = _ink_maps(flat)
    return _crop(maps), paperness


def describe_both(card: np.ndarray) -> tuple[list[CardMaps], float]:
    """The maps of the card as seen and turned half round (a face may lie either way up)."""
    flat, paperness = _flatten(card.astype(np.float32))
    maps = _ink_maps(flat)
    return [_crop(maps), _crop(maps[::-1, ::-1])], paperness


def _flatten(card: np.ndarray) -> tuple[np.ndarray, float]:
    """The card divided by its paper's light, fitted as a plane per channel on the edge band."""
    h, w = card.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    inner0 = (
        (xs >= _RING[0] * w)
        & (xs < w - _RING[0] * w)
        & (ys >= _RING[0] * w)
        & (ys < h - _RING[0] * w)
    )
    inner1 = (
        (xs >= _RING[1] * w)
        & (xs < w - _RING[1] * w)
        & (ys >= _RING[1] * w)
        & (ys < h - _RING[1] * w)
    )
    ring = inner0 & ~inner1
    # Robust samples: the bright part of each of eight stretches of the ring.
    samples = []
    for sel in _ring_segments(xs, ys, w, h, ring):
        pixels = card[sel]
        if len(pixels) < 4:
            continue
        bright = pixels.sum(axis=1)
        keep = bright >= np.percentile(bright, 50)
        samples.append((xs[sel][keep].mean(), ys[sel][keep].mean(), *pixels[keep].mean(axis=0)))
    table = np.float32(samples)
    design = np.column_stack([np.ones(len(table)), table[:, 0] / w, table[:, 1] / h])
    coeffs, *_ = np.linalg.lstsq(design, table[:, 2:], rcond=None)
    light = coeffs[0] + (xs / w)[..., None] * coeffs[1] + (ys / h)[..., None] * coeffs[2]
    light = np.maximum(light, 8.0)
    flat = np.clip(card / light, 0.0, 1.3)
    # Paper is bright and neutral: the ring's mean light against its spread and its tint.
    level = float(table[:, 2:].mean())
    tint = float(np.abs(table[:, 2:] - table[:, 2:].mean(axis=1, keepdims=True)).mean())
    spread = float(card[ring].std(axis=0).mean())
    paperness = float(np.clip(level / 160.0, 0, 1) * np.clip(1 - (tint + spread) / 60.0, 0, 1))
    return flat, paperness


def _ring_segments(
    xs: np.ndarray, ys: np.ndarray, w: int, h: int, ring: np.ndarray
) -> list[np.ndarray]:
    left, right = xs < w / 3, xs >= 2 * w / 3
    top, bottom = ys < h / 3, ys >= 2 * h / 3
    middle_x, middle_y = ~left & ~right, ~top & ~bottom
    return [
        ring & top & left,
        ring & top & middle_x,
        ring & top & right,
        ring & middle_y & right,
        ring & bottom & right,
        ring & bottom & middle_x,
        ring & bottom & left,
        ring & middle_y & left,
    ]


def _ink_maps(flat: np.ndarray) -> np.ndarray:
    b, g, r = flat[:, :, 0], flat[:, :, 1], flat[:, :, 2]
    ink = 1.0 - (b + g + r) / 3.0
    red_green = (r - g) * _CHROMA_WEIGHT
    yellow_blue = ((r + g) / 2 - b) * _CHROMA_WEIGHT
    maps = np.dstack([ink, red_green, yellow_blue]).astype(np.float32)
    return cv2.GaussianBlur(maps, (0, 0), 1.0)


def _crop(maps: np.ndarray) -> CardMaps:
    h, w = maps.shape[:2]
    x0, y0, x1, y1 = INDEX_BOX
    index = maps[round(y0 * h) : round(y1 * h), round(x0 * w) : round(x1 * w)]
    face = cv2.resize(maps, (w // FACE_SHRINK, h // FACE_SHRINK), interpolation=cv2.INTER_AREA)
    face = cv2.GaussianBlur(face, (0, 0), 0.8)
    return CardMaps(_unit(face), _unit(index))


def _unit(maps: np.ndarray) -> np.ndarray:
    """Zero mean per map, unit norm overall: a correlation is then a dot product."""
    v = (maps - maps.mean(axis=(0, 1))).reshape(-1).astype(np.float32)
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-6 else v
