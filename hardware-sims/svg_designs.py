"""Test designs the card reader is never tuned on: openly licensed SVG decks, re-coloured and
re-framed.

Two decks are kept in `svg_decks/` (gzipped SVG, each with its licence): Adrian Kennard's
(CC0, through the npm package @letele/playing-cards) and Chris Aguilar's (LGPL-3.0, through
@younestouati/playing-cards-standard-deck). Each test design is one of them rasterised, then
changed as a casino's own deck differs from a stock one: the inks (two- or four-colour
suits), a dark frame printed near the edge, larger corner indexes, thinner or heavier
strokes. `svg_decks/DESIGNS.md` says which designs are for tuning and which for testing.

`python -m hardware_sims.svg_designs OUT [NAME...]` writes the 52 faces of each named test
design (all of them by default) to `OUT/NAME/`. Rasterising needs the PyPI package
`resvg-py`; without it `SvgUnavailableError` says so.
"""

from __future__ import annotations

import argparse
import gzip
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from hardware_sims.scene_render import CARD_NAMES

DECKS = Path(__file__).parent / "svg_decks"
FACE_WIDTH = 240  # pixels across a rasterised face

BGR = tuple[int, int, int]


class SvgUnavailableError(RuntimeError):
    """The SVG rasteriser (resvg-py) is not installed."""


@dataclass(frozen=True)
class Variant:
    """How a test design differs from the stock deck it is drawn from."""

    deck: str  # folder in svg_decks/
    inks: dict[str, BGR]  # the colour each suit's ink is printed in
    frame: BGR | None = None  # a dark frame line near the edge, on every face
    frame_inset: float = 0.035  # of the width, from the edge to the frame's middle
    index_scale: float = 1.0  # the corner indexes, enlarged in place
    weight: int = 0  # strokes: < 0 thinner, > 0 heavier, in pixels at FACE_WIDTH
    courts_framed: bool = False  # the frame on the court cards only


_BLACK, _RED = (20, 20, 20), (30, 20, 200)
_TWO = {"S": _BLACK, "C": _BLACK, "H": _RED, "D": _RED}
_FOUR = {"S": _BLACK, "C": (40, 130, 20), "H": _RED, "D": (190, 90, 10)}

# None of these is used to tune the reader (see svg_decks/DESIGNS.md).
TEST_DESIGNS: dict[str, Variant] = {
    "kennard-framed": Variant("kennard-cc0", _TWO, frame=(60, 30, 20), frame_inset=0.03),
    "kennard-four-heavy": Variant("kennard-cc0", _FOUR, weight=2),
    "kennard-big-thin": Variant(
        "kennard-cc0", {"S": (60, 20, 10), "C": (60, 20, 10), "H": (20, 0, 150), "D": (20, 0, 150)},
        index_scale=1.35, weight=-1,
    ),
    "aguilar-plain": Variant("aguilar-lgpl", _TWO),
    "aguilar-four-framed-courts": Variant(
        "aguilar-lgpl", _FOUR, frame=(30, 30, 30), frame_inset=0.03, courts_framed=True
    ),
    "aguilar-big-heavy": Variant(
        "aguilar-lgpl", {"S": (0, 0, 0), "C": (0, 0, 0), "H": (0, 60, 230), "D": (0, 60, 230)},
        index_scale=1.3, weight=2,
    ),
    "aguilar-four-thin-framed": Variant(
        "aguilar-lgpl",
        {"S": (10, 10, 10), "C": (90, 100, 0), "H": (40, 0, 180), "D": (160, 40, 120)},
        frame=(90, 40, 10), frame_inset=0.025, weight=-1,
    ),
}


def rasterise(deck: str, width: int = FACE_WIDTH) -> dict[str, np.ndarray]:
    """The 52 stock faces of a deck in svg_decks/, as BGRA images `width` pixels across."""
    try:
        import resvg_py
    except ImportError as err:
        raise SvgUnavailableError("rasterising SVG faces needs the package resvg-py") from err
    faces = {}
    for name in CARD_NAMES:
        path = DECKS / deck / f"{name}.svgz"
        svg = gzip.decompress(path.read_bytes()).decode()
        png = bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width))
        image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
        if image is None or image.ndim != 3 or image.shape[2] != 4:
            raise ValueError(f"{path}: the rasteriser gave no RGBA image")
        faces[name] = image
    return faces


def make_design(variant: Variant, width: int = FACE_WIDTH) -> dict[str, np.ndarray]:
    """The 52 BGRA faces of a test design."""
    return {
        name: _restyle(face, name, variant) for name, face in rasterise(variant.deck, width).items()
    }


def write_design(name: str, folder: Path) -> Path:
    """Write the faces of the test design `name` as `AS.png` … `KC.png` into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    for card, face in make_design(TEST_DESIGNS[name]).items():
        cv2.imwrite(str(folder / f"{card}.png"), face)
    return folder


def _restyle(face: np.ndarray, name: str, variant: Variant) -> np.ndarray:
    bgr = face[:, :, :3].astype(np.float32)
    alpha = face[:, :, 3]
    # Paper shows white where the stock face is transparent inside its outline.
    bgr = np.where(alpha[..., None] > 0, bgr, 255.0)
    bgr = _reink(bgr, variant.inks[name[1]], red_suit=name[1] in "HD")
    if variant.weight:
        reach = max(1, round(abs(variant.weight) * bgr.shape[1] / FACE_WIDTH))
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
        # Ink is dark: a minimum filter spreads it (heavier); a maximum filter eats it, half
        # mixed in so that hairlines thin out instead of vanishing.
        if variant.weight > 0:
            bgr = cv2.erode(bgr, kernel)
        else:
            bgr = 0.5 * bgr + 0.5 * cv2.dilate(bgr, kernel)
    if variant.index_scale != 1.0:
        bgr = _enlarge_indexes(bgr, variant.index_scale)
    if variant.frame is not None and (not variant.courts_framed or name[0] in "JQK"):
        h, w = bgr.shape[:2]
        inset = round(variant.frame_inset * w)
        thick = max(2, round(0.02 * w))
        cv2.rectangle(bgr, (inset, inset), (w - 1 - inset, h - 1 - inset), variant.frame, thick)
    return np.dstack([np.clip(bgr, 0, 255).astype(np.uint8), alpha])


def _reink(bgr: np.ndarray, ink: BGR, *, red_suit: bool) -> np.ndarray:
    """The suit's ink (red on hearts and diamonds, black on spades and clubs) in `ink`.

    Only the suit's own ink moves: the colours of the court art stay as printed.
    """
    b, g, r = bgr[..., 0], bgr[..., 1], bgr[..., 2]
    if red_suit:
        # How much of the stock red a pixel is: red high, green and blue low.
        share = np.clip((r - np.maximum(g, b) - 60) / 120, 0, 1)
    else:
        share = np.clip((200 - bgr.max(axis=2)) / 160, 0, 1) * (np.ptp(bgr, axis=2) < 40)
    share = share[..., None]
    paper = np.float32([255, 255, 255])
    # The pixel's ink strength, kept, in the new colour.
    strength = share * (1.0 - bgr.min(axis=2, keepdims=True) / 255.0 if not red_suit else 1.0)
    inked = paper - np.clip(strength, 0, 1) * (paper - np.float32(ink))
    return bgr * (1 - share) + inked * share


def _enlarge_indexes(bgr: np.ndarray, scale: float) -> np.ndarray:
    """The corner index (top left, and bottom right turned half round) drawn `scale` larger."""
    h, w = bgr.shape[:2]
    iw, ih = round(0.17 * w), round(0.25 * h)
    patch = bgr[:ih, :iw].copy()
    big = cv2.resize(patch, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    bh, bw = min(big.shape[0], h // 2), min(big.shape[1], w // 2)
    out = bgr.copy()
    out[:bh, :bw] = np.minimum(big[:bh, :bw], 255)
    out[h - bh :, w - bw :] = out[:bh, :bw][::-1, ::-1]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hardware_sims.svg_designs", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("folder", type=Path)
    parser.add_argument("names", nargs="*", metavar="NAME", help=", ".join(TEST_DESIGNS))
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in TEST_DESIGNS]
    if unknown:
        parser.error(f"no test design {unknown[0]!r} (there are {', '.join(TEST_DESIGNS)})")
    try:
        for name in args.names or TEST_DESIGNS:
            print(write_design(name, args.folder / name))
    except (SvgUnavailableError, OSError, ValueError) as err:
        print(f"svg_designs: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
