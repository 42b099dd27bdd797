"""What the classifier compares: a straightened card reduced to light-independent ink maps.

A card is described by three maps: ink (how dark), and two colour-opponent maps (red
against green, yellow against blue), each measured relative to the card's own paper so that
a dim, tinted or unevenly lit card gives the same maps as the clean reference face. Two
crops are kept: the whole face at low resolution (pip layout, court art) and the corner
index at higher resolution (rank glyph and suit pip).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.quad import length_of

CARD_WIDTH = 80  # pixels of a straightened card; its height follows the design's aspect
FACE_SHRINK = 2  # the face map is kept at half the straightened size
BLUR_LEVELS = (0.0, 1.2, 2.4)
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


def describe(card: np.ndarray, blur: float = 0.0) -> tuple[CardMaps, float]:
    """The maps of a straightened BGR card, and how much it looks like paper (0..1).

    `blur` (pixels) softens the card first: a reference face is described at each of
    `BLUR_LEVELS`, so a camera's blurred card meets a reference as soft as itself.
    """
    flat, paperness = _flatten(card.astype(np.float32))
    if blur > 0:
        flat = cv2.GaussianBlur(flat, (0, 0), blur)
    return _crop(_ink_maps(flat)), paperness


def describe_both(card: np.ndarray) -> tuple[list[CardMaps], float]:
    """The maps of the card as seen and turned half round (a face may lie either way up)."""
    flat, paperness = _flatten(card.astype(np.float32))
    maps = _ink_maps(flat)
    return [_crop(maps), _crop(maps[::-1, ::-1])], paperness


def _flatten(card: np.ndarray) -> tuple[np.ndarray, float]:
    """The card divided by its paper's light, and how much it looks like paper (0..1)."""
    flat, table, values = _light(card, 0)
    # Paper is bright and neutral: the ring's mean light against its spread and its tint.
    level = float(table.mean())
    tint = float(np.abs(table - table.mean(axis=1, keepdims=True)).mean())
    wide = values.astype(np.float64)
    variance = _column_means(wide * wide) - _column_means(wide) ** 2
    spread = float(np.sqrt(np.maximum(variance, 0.0)).mean())
    paperness = float(np.clip(level / 160.0, 0, 1) * np.clip(1 - (tint + spread) / 60.0, 0, 1))
    return flat, paperness


def _light(card: np.ndarray, pad: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The card divided by its paper's light, fitted as a plane per channel on the edge band
    of the card inside a border `pad` pixels wide (the border is lit by the same plane);
    with the samples the plane was fitted to (8, 3) and the band's pixels (n, 3)."""
    h, w = card.shape[:2]
    h, w = h - 2 * pad, w - 2 * pad
    ring = _Ring.of(h, w)
    # The ring's pixels gathered once, stretch after stretch, straight from the bordered
    # card. (Sums over the three channels are matrix products: numpy reduces a short last
    # axis slowly; and `take` gathers rows of a few values a tenth as long as indexing.)
    values = np.take(card.reshape(-1, 3), _bordered(h, w, pad), axis=0)
    # Robust samples: the brighter half of each of eight stretches of the ring, summed
    # together once found.
    bright = values @ np.ones(3, np.float32)
    upper = np.concatenate([
        bright[start:end].argpartition(middle - start)[middle - start :] + start
        for start, middle, end in ring.stretches
    ])
    table = np.add.reduceat(np.take(values, upper, axis=0), ring.starts, axis=0)
    table /= ring.counts
    coeffs = ring.solve @ table
    # The plane is a matrix per pixel over 1, x and y (OpenCV's transform takes half the
    # time of a matrix product three columns wide). Worked in place: a card is described
    # some sixty times a frame.
    flat = cv2.transform(_fractions(h, w, pad), coeffs.T)
    # (A clip bounded both ways takes a third of the time of numpy's maximum with a number,
    # and gives the same.)
    np.clip(flat, 8.0, np.inf, out=flat)
    np.divide(card, flat, out=flat)
    np.clip(flat, 0.0, 1.3, out=flat)
    return flat, table, values


@functools.cache
def _fractions(h: int, w: int, pad: int) -> np.ndarray:
    """1, x and y, as fractions of a card h × w, at each pixel of the card and a border
    `pad` wide: (h + 2 pad, w + 2 pad, 3)."""
    ys, xs = np.mgrid[-pad : h + pad, -pad : w + pad].astype(np.float32)
    return np.dstack([np.ones_like(xs), xs / w, ys / h])


def _column_means(values: np.ndarray) -> np.ndarray:
    """The mean of each column of (n, channels), as a matrix product."""
    means: np.ndarray = np.ones(len(values), values.dtype) @ values / len(values)
    return means


@dataclass(frozen=True)
class Surrounds:
    """The maps of several cards, each straightened with a border `pad` pixels wide all
    round, from which each card's maps can be cut as if its outline lay a few pixels off
    either way."""

    maps: np.ndarray  # (cards, h + 2 pad, w + 2 pad, 3) at the straightened size
    face: np.ndarray  # the same at the face map's size
    pad: int

    def index_windows(
        self, cards: np.ndarray, shifts: np.ndarray, size: tuple[int, int]
    ) -> Windows:
        """The index windows of each card of `cards` (n,) moved by its (dx, dy) of `shifts`
        (n, 2), not yet scaled to unit norm: a search compares many and keeps a few."""
        width, height = size
        x0, y0, x1, y1 = INDEX_BOX
        top, bottom = round(y0 * height), round(y1 * height)
        left, right = round(x0 * width), round(x1 * width)
        p = self.pad
        origin = np.array([p + left, p + top])
        return _windows(_cut(self.maps, cards, shifts + origin, (bottom - top, right - left)))

    def face_windows(
        self, cards: np.ndarray, shifts: np.ndarray, size: tuple[int, int]
    ) -> np.ndarray:
        """The face features (n, features) of each card of `cards` moved by its (dx, dy) of
        `shifts` (even numbers of pixels: the face map is kept at half size)."""
        width, height = size
        fw, fh = width // FACE_SHRINK, height // FACE_SHRINK
        p = self.pad // FACE_SHRINK
        return _units(_cut(self.face, cards, shifts // FACE_SHRINK + p, (fh, fw)))


def _cut(
    maps: np.ndarray, cards: np.ndarray, corners: np.ndarray, shape: tuple[int, int]
) -> np.ndarray:
    """The windows of `shape` = (h, w) of the maps (cards, rows, columns, channels) of
    each of `cards` (n,) whose top-left corners are `corners` (n, 2) as (x, y):
    (n, h, w, channels), gathered at once. (The view of every window is made by hand:
    numpy's `sliding_window_view` costs more than the gathering, some forty times a frame.
    A window's row is one run of memory, all its channels: gathered so, it comes out in the
    order a feature vector takes, with no copy to reorder it.)"""
    count, rows, columns, channels = maps.shape
    h, w = shape
    across, down, along, apart = maps.strides
    view = np.lib.stride_tricks.as_strided(
        maps,
        (count, rows - h + 1, columns - w + 1, h, w * channels),
        (across, down, along, down, apart),
        writeable=False,
    )
    windows: np.ndarray = view[cards, corners[:, 1], corners[:, 0]]
    return windows.reshape(len(cards), h, w, channels)


def describe_surrounds(cards: Sequence[np.ndarray], pad: int) -> Surrounds:
    """The maps of cards straightened alike with a border `pad` (even) pixels wide all
    round."""
    h, w = cards[0].shape[:2]
    maps = np.empty((len(cards), h, w, 3), np.float32)
    face = np.empty((len(cards), h // FACE_SHRINK, w // FACE_SHRINK, 3), np.float32)
    for k, card in enumerate(cards):
        _ink_maps(_light(card.astype(np.float32), pad)[0], out=maps[k])
        shrunk = cv2.resize(
            maps[k], (w // FACE_SHRINK, h // FACE_SHRINK), interpolation=cv2.INTER_AREA
        )
        cv2.GaussianBlur(shrunk, (0, 0), 0.8, dst=face[k])
    return Surrounds(maps, face, pad)


@dataclass(frozen=True)
class Windows:
    """Maps of what the camera sees as feature vectors (n, features), each with the norm
    it has once its maps' means are taken off (n, 1). The mean itself is left in: it adds
    nothing to a dot product with a reference, whose maps are zero mean, and taking it off
    costs more than the product. A product with a vector over its norm is the product
    with its unit vector, to the last bits or so: a search scales the products, and only
    the vectors it keeps."""

    vectors: np.ndarray
    norms: np.ndarray

    def units(self, which: np.ndarray | slice = slice(None)) -> np.ndarray:
        """The vectors `which` scaled to unit norm."""
        scaled = self.vectors[which] / np.maximum(self.norms[which], 1e-6)
        units: np.ndarray = scaled.astype(np.float32, copy=False)
        return units


def _windows(maps: np.ndarray) -> Windows:
    """Maps (n, h, w, channels) as n feature vectors, with their norms."""
    n, h, w, channels = maps.shape
    # Windows cut from larger maps are gathered once here, into rows.
    flat = maps.reshape(n, -1)
    means = np.ones(h * w, maps.dtype) @ flat.reshape(n, h * w, channels) / (h * w)
    square = np.einsum("ij,ij->i", flat, flat) - h * w * np.einsum("ij,ij->i", means, means)
    return Windows(flat, np.sqrt(np.maximum(square, 0.0))[:, None])


def _units(maps: np.ndarray) -> np.ndarray:
    """Maps (n, h, w, channels) as n feature vectors scaled to unit norm (`Windows`)."""
    return _windows(maps).units()


def centred(maps: np.ndarray) -> np.ndarray:
    """Maps (..., h, w, channels) less each map's mean, in a new array. The means are a
    matrix product: numpy reduces the axes before a short last one slowly (a fortieth of
    the speed); and each channel's mean is taken off the channel on its own, for the same
    reason."""
    *lead, h, w, channels = maps.shape
    shifted = np.array(maps, order="C")
    flat = shifted.reshape(*lead, h * w, channels)
    means = np.ones(h * w, maps.dtype) @ flat / (h * w)
    for channel in range(channels):
        flat[..., channel] -= means[..., channel, None]
    return shifted


@functools.cache
def _bordered(h: int, w: int, pad: int) -> np.ndarray:
    """The ring's pixels of a card h × w (`_Ring.order`) as flat indices into the card with
    a border `pad` pixels wide all round."""
    rows, cols = np.divmod(_Ring.of(h, w).order, w)
    at: np.ndarray = (rows + pad) * (w + 2 * pad) + cols + pad
    return at


@dataclass(frozen=True)
class _Ring:
    """The edge band of a card of one size, cut in eight stretches: the flat indices of its
    pixels stretch after stretch, and where each stretch begins (and the last ends)."""

    order: np.ndarray
    bounds: tuple[int, ...]
    solve: np.ndarray  # (3, 8): the plane 1, x, y fitted to the eight stretches' samples
    # Each stretch's start, middle and end; where the brighter half of each begins among
    # those of all, and its length.
    stretches: tuple[tuple[int, int, int], ...]
    starts: np.ndarray
    counts: np.ndarray

    @staticmethod
    @functools.cache
    def of(h: int, w: int) -> _Ring:
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)

        def inside(margin: float) -> np.ndarray:
            m = margin * w
            within: np.ndarray = (xs >= m) & (xs < w - m) & (ys >= m) & (ys < h - m)
            return within

        ring = inside(_RING[0]) & ~inside(_RING[1])
        cols = np.digitize(xs, [w / 3, 2 * w / 3])
        rows = np.digitize(ys, [h / 3, 2 * h / 3])
        cells = [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0)]
        segments = [np.flatnonzero(ring & (rows == r) & (cols == c)) for r, c in cells]
        centres = [[1.0, xs.flat[s].mean() / w, ys.flat[s].mean() / h] for s in segments]
        sizes = np.array([len(s) for s in segments])
        bounds = tuple(int(b) for b in np.cumsum([0, *sizes]))
        middles = np.array(bounds[:-1]) + sizes // 2
        halves = sizes - sizes // 2
        return _Ring(
            np.concatenate(segments),
            bounds,
            np.linalg.pinv(np.array(centres, np.float32)).astype(np.float32),
            tuple(
                (int(b), int(m), int(e))
                for b, m, e in zip(bounds[:-1], middles, bounds[1:], strict=True)
            ),
            np.cumsum([0, *halves[:-1]]),
            halves.astype(np.float32)[:, None],
        )


def _ink_maps(flat: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Ink, red against green and yellow against blue (float32), in one pass over the
    pixels (a matrix per pixel), then softened. Written into `out` when given."""
    return cv2.GaussianBlur(cv2.transform(flat, _OPPONENTS), (0, 0), 1.0, dst=out)


# Rows: ink (one less the mean of the channels), red less green, the mean of red and green
# less blue; the last column is added. The colour rows weigh `_CHROMA_WEIGHT`.
_OPPONENTS = np.array(
    [
        [-1 / 3, -1 / 3, -1 / 3, 1.0],
        [0.0, -_CHROMA_WEIGHT, _CHROMA_WEIGHT, 0.0],
        [-_CHROMA_WEIGHT, _CHROMA_WEIGHT / 2, _CHROMA_WEIGHT / 2, 0.0],
    ],
    np.float32,
)


def _crop(maps: np.ndarray) -> CardMaps:
    h, w = maps.shape[:2]
    x0, y0, x1, y1 = INDEX_BOX
    index = maps[round(y0 * h) : round(y1 * h), round(x0 * w) : round(x1 * w)]
    face = cv2.resize(maps, (w // FACE_SHRINK, h // FACE_SHRINK), interpolation=cv2.INTER_AREA)
    face = cv2.GaussianBlur(face, (0, 0), 0.8)
    return CardMaps(_unit(face), _unit(index))


def _unit(maps: np.ndarray) -> np.ndarray:
    """Zero mean per map, unit norm overall: a correlation is then a dot product."""
    v = centred(maps).reshape(-1).astype(np.float32, copy=False)
    n = float(length_of(v))
    unit: np.ndarray = v / n if n > 1e-6 else v
    return unit
