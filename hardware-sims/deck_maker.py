"""Generating card designs the classifier has never seen, to test calibration with `--deck`.

The faces are drawn from primitives (Hershey glyphs for the ranks, polygons and circles for
the suits), in a style chosen by a seed: font, ink colours (two- or four-colour), card
proportions, index size and court art all vary. `python -m hardware_sims.deck_maker OUT
--seed N` writes the 52 PNG faces to a folder.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from hardware_sims.scene_render import CARD_NAMES

_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
)
# Where the pips of a number card sit, as (column, row) on a 3 × 7 grid.
_PIPS = {
    "A": [(1, 3)],
    "2": [(1, 0), (1, 6)],
    "3": [(1, 0), (1, 3), (1, 6)],
    "4": [(0, 0), (2, 0), (0, 6), (2, 6)],
    "5": [(0, 0), (2, 0), (1, 3), (0, 6), (2, 6)],
    "6": [(0, 0), (2, 0), (0, 3), (2, 3), (0, 6), (2, 6)],
    "7": [(0, 0), (2, 0), (1, 1.5), (0, 3), (2, 3), (0, 6), (2, 6)],
    "8": [(0, 0), (2, 0), (1, 1.5), (0, 3), (2, 3), (1, 4.5), (0, 6), (2, 6)],
    "9": [(0, 0), (2, 0), (0, 2), (2, 2), (1, 3), (0, 4), (2, 4), (0, 6), (2, 6)],
    "T": [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2), (0, 4), (2, 4), (1, 5), (0, 6), (2, 6)],
}


@dataclass(frozen=True)
class Style:
    width: int
    height: int
    font: int
    inks: dict[str, tuple[int, int, int]]  # BGR per suit letter
    index_scale: float
    court_colours: tuple[tuple[int, int, int], ...]
    border: tuple[int, int, int] | None  # a frame printed along the edge, or none


def style_for(seed: int) -> Style:
    """A design style drawn from `seed`."""
    rng = np.random.default_rng(seed)
    width = 240
    height = int(width * rng.choice([1.4, 1.45, 1.55]))
    black = (int(rng.integers(0, 40)),) * 3
    red = (int(rng.integers(0, 40)), int(rng.integers(0, 40)), int(rng.integers(180, 230)))
    four_colour = bool(rng.integers(0, 2))
    inks = {
        "S": black,
        "H": red,
        "D": (200, 90, 0) if four_colour else red,
        "C": (30, 140, 30) if four_colour else black,
    }
    courts = tuple(tuple(int(v) for v in rng.integers(0, 256, 3)) for _ in range(3))
    font, scale = int(rng.choice(_FONTS)), float(rng.uniform(1.1, 1.5))
    border = tuple(int(v) for v in rng.integers(0, 200, 3)) if rng.random() < 0.35 else None
    return Style(width, height, font, inks, scale, courts, border)  # type: ignore[arg-type]


def draw_suit(
    image: np.ndarray,
    suit: str,
    centre: tuple[float, float],
    size: float,
    ink: tuple[int, int, int],
) -> None:
    """A suit symbol of height `size` centred at `centre`."""
    x, y = centre
    s = size / 2
    if suit == "D":
        pts = np.array([[x, y - s], [x + 0.7 * s, y], [x, y + s], [x - 0.7 * s, y]])
        cv2.fillPoly(image, [np.round(pts * 16).astype(np.int32)], ink, cv2.LINE_AA, shift=4)
        return
    if suit == "H":
        _lobes(image, x, y - 0.3 * s, s, ink)
        pts = np.array([[x - 0.98 * s, y - 0.2 * s], [x + 0.98 * s, y - 0.2 * s], [x, y + s]])
        cv2.fillPoly(image, [np.round(pts * 16).astype(np.int32)], ink, cv2.LINE_AA, shift=4)
        return
    if suit == "S":
        _lobes(image, x, y + 0.15 * s, s, ink)
        pts = np.array([[x - 0.98 * s, y + 0.25 * s], [x + 0.98 * s, y + 0.25 * s], [x, y - s]])
        cv2.fillPoly(image, [np.round(pts * 16).astype(np.int32)], ink, cv2.LINE_AA, shift=4)
    else:
        r = 0.34 * s
        for cx, cy in ((x, y - 0.5 * s), (x - 0.5 * s, y + 0.1 * s), (x + 0.5 * s, y + 0.1 * s)):
            cv2.circle(
                image, (round(cx * 16), round(cy * 16)), round(r * 16), ink, -1, cv2.LINE_AA, 4
            )
    stem = np.array([[x, y], [x + 0.35 * s, y + s], [x - 0.35 * s, y + s]])
    cv2.fillPoly(image, [np.round(stem * 16).astype(np.int32)], ink, cv2.LINE_AA, shift=4)


def _lobes(image: np.ndarray, x: float, y: float, s: float, ink: tuple[int, int, int]) -> None:
    r = 0.5 * s
    for cx in (x - 0.48 * s, x + 0.48 * s):
        cv2.circle(image, (round(cx * 16), round(y * 16)), round(r * 16), ink, -1, cv2.LINE_AA, 4)


def draw_face(name: str, style: Style) -> np.ndarray:
    """One BGRA face of the design."""
    w, h = style.width, style.height
    rank, suit = name[0], name[1]
    ink = style.inks[suit]
    face = np.full((h, w, 3), 250, np.uint8)
    half = face[: h // 2 + 1].copy()
    _index(half, rank, suit, style, ink)
    # Draw the top half's index, then the whole card turns half round onto itself.
    face[: h // 2 + 1] = half
    face = np.minimum(face, face[::-1, ::-1])
    if rank in _PIPS:
        left, right, top, bottom = 0.3 * w, 0.7 * w, 0.18 * h, 0.82 * h
        size = 0.11 * h if rank != "A" else 0.3 * h
        for col, row in _PIPS[rank]:
            cx = left + (right - left) * col / 2
            cy = top + (bottom - top) * row / 6
            draw_suit(face, suit, (cx, cy), size, ink)
    else:
        _court(face, rank, suit, style, ink)
    if style.border is not None:
        inset, thick = round(0.035 * w), max(2, round(0.03 * w))
        cv2.rectangle(face, (inset, inset), (w - 1 - inset, h - 1 - inset), style.border, thick)
    cv2.rectangle(face, (1, 1), (w - 2, h - 2), (90, 90, 90), 1, cv2.LINE_AA)
    alpha = np.zeros((h, w), np.uint8)
    radius = w // 16
    cv2.rectangle(alpha, (radius, 0), (w - radius, h), 255, -1)
    cv2.rectangle(alpha, (0, radius), (w, h - radius), 255, -1)
    for cx, cy in (
        (radius, radius),
        (w - radius - 1, radius),
        (radius, h - radius - 1),
        (w - radius - 1, h - radius - 1),
    ):
        cv2.circle(alpha, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    return np.dstack([face, alpha])


def _index(half: np.ndarray, rank: str, suit: str, style: Style, ink: tuple[int, int, int]) -> None:
    text = "10" if rank == "T" else rank
    scale = style.index_scale * (0.8 if rank == "T" else 1.0)
    (tw, th), _ = cv2.getTextSize(text, style.font, scale, 2)
    x = max(4, 26 - tw // 2)
    cv2.putText(half, text, (x, 14 + th), style.font, scale, ink, 3, cv2.LINE_AA)
    draw_suit(half, suit, (26, 28 + th + 14), 22, ink)


def _court(face: np.ndarray, rank: str, suit: str, style: Style, ink: tuple[int, int, int]) -> None:
    h, w = face.shape[:2]
    x0, y0, x1, y1 = int(0.22 * w), int(0.12 * h), int(0.78 * w), int(0.88 * h)
    band = "JQK".index(rank)
    colour = style.court_colours[band]
    cv2.rectangle(face, (x0, y0), (x1, y1), colour, -1)
    cv2.rectangle(face, (x0, y0), (x1, y1), ink, 3)
    for k in range(band + 2):
        y = y0 + (k + 1) * (y1 - y0) // (band + 3)
        cv2.line(face, (x0, y), (x1, y), style.court_colours[(band + 1) % 3], 4)
    (tw, th), _ = cv2.getTextSize(rank, style.font, 3.0, 6)
    cv2.putText(
        face,
        rank,
        ((w - tw) // 2, (h + th) // 2),
        style.font,
        3.0,
        (250, 250, 250),
        10,
        cv2.LINE_AA,
    )
    cv2.putText(face, rank, ((w - tw) // 2, (h + th) // 2), style.font, 3.0, ink, 5, cv2.LINE_AA)
    draw_suit(face, suit, (x0 + 22, y0 + 24), 30, ink)
    draw_suit(face, suit, (x1 - 22, y1 - 24), 30, ink)


def make_deck(seed: int) -> dict[str, np.ndarray]:
    """The 52 BGRA faces of the design of `seed`."""
    style = style_for(seed)
    return {name: draw_face(name, style) for name in CARD_NAMES}


def write_deck(folder: Path, seed: int) -> None:
    """Write the design's faces as `AS.png` … `KC.png` into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, face in make_deck(seed).items():
        cv2.imwrite(str(folder / f"{name}.png"), face)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware_sims.deck_maker", description=__doc__)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    write_deck(args.folder, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
