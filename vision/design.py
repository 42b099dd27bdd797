"""A card design as the classifier knows it: the maps of its 52 faces, built once and cached."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from croupier.cards import ALL_CARDS
from vision.errors import DeckError, ImageError
from vision.features import BLUR_LEVELS, FACE_SHRINK, CardMaps, card_size, centred, describe
from vision.fine import Parted, fine_faces, fine_size, pair_parted, parted, swapped
from vision.images import read_picture
from vision.quad import lengths_of, rectify, whole_frame

BUILTIN = Path(__file__).parent / "designs" / "heruka-2color"
_IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff", ".gif")
_CACHE_VERSION = b"vision-design-11"  # bump when the maps or their checks change
FACE_WEIGHT = 0.5
_PAPER_BAR, _NO_PAPER = 0.3, 0.02
# Faces whose paper inside a printed frame is measured at calibration; the paper inside a
# frame covers at least this share of the face; an inset below this share is none.
_INSET_PROBES = ("2S", "3H", "4D", "5C", "6S", "7H", "8D", "9C", "TS")
_INNER_PAPER = 0.4
# A frame's paper covers at least `_INNER_PAPER` of the face, so it lies less than this far
# in on each side; a card is never this many times as high as it is wide.
_MAX_INSET, _MAX_ASPECT = (1 - _INNER_PAPER) / 2, 4.0
_INSET_SIGNIFICANT = 0.015  # of the whole face in a match score; the rest is the corner index


@dataclass(frozen=True)
class Design:
    """The reference maps of one design, row i for `cards[i]`."""

    cards: tuple[str, ...]
    aspect: float  # height over width of the faces
    paper: float  # how much the least paper-like face looks like bare card stock (0..1)
    inset: tuple[float, float]  # where the card finder outlines a face, inside its edges
    face: np.ndarray  # (blur levels, 52, face features) float32
    index: np.ndarray  # (blur levels, 52, index features) float32
    fine: np.ndarray  # (52, height, width) uint8: the faces for a finer look (vision.fine)

    @property
    def size(self) -> tuple[int, int]:
        return card_size(self.aspect)

    def scores(self, views: Sequence[CardMaps]) -> np.ndarray:
        """How well each of `views` matches each reference at each blur level: (views,
        levels, 52). The views are compared together: the references are read once."""
        face = self.face @ np.stack([v.face for v in views], axis=1)
        index = self.index @ np.stack([v.index for v in views], axis=1)
        scores: np.ndarray = FACE_WEIGHT * face + (1 - FACE_WEIGHT) * index
        return scores.transpose(2, 0, 1)

    @property
    def paper_bar(self) -> float:
        """How paper-like a card of this design looks at the least (0 when its faces show
        no bare stock, as a design printed to its edges): a bar for telling cards from
        other things."""
        bar = min(_PAPER_BAR, 0.5 * self.paper)
        return bar if bar > _NO_PAPER else 0.0

    def masked(self, columns: int) -> tuple[np.ndarray, np.ndarray]:
        """The face references cut to their left `columns` columns of the face map (an even
        number: for a card the next one partly hides), and the likeness of each pair on
        that score."""
        cut = self._masked.get(columns)
        if cut is None:  # a width the preparation did not foresee: no frame may fail on it
            cut = self._masked[columns] = self._cut(columns)
        return cut

    def _cut(self, columns: int) -> tuple[np.ndarray, np.ndarray]:
        face = cut_face(self.face, columns, self.size)
        return face, FACE_WEIGHT * _pairs(face) + (1 - FACE_WEIGHT) * self.index_gram

    @cached_property
    def _masked(self) -> dict[int, tuple[np.ndarray, np.ndarray]]:
        """Every cut `masked` is asked for, made together: any even width short of the
        whole map, whatever share of a card is read whole."""
        return {columns: self._cut(columns) for columns in range(2, self.size[0] // FACE_SHRINK, 2)}

    def prepare(self) -> Design:
        """This design with all it derives for reading made now, at calibration, so that
        no frame pays for it: the cuts of the references, the likeness of each pair and
        where suit twins differ (some 45 ms of CPU a design, 19 ms of it the last:
        medians over six designs, on a loaded machine)."""
        for derived in ("_masked", "gram", "fine_parted"):
            getattr(self, derived)  # touched here so that no frame is the first to make it
        return self

    @cached_property
    def fine_parted(self) -> list[list[Parted]]:
        """Where each card's fine face and its suit twin's differ (`vision.fine.parted`):
        made once a design, asked for every card of a frame."""
        return parted(self.fine)

    def parted_with(self, named: int, other: int) -> list[Parted]:
        """Where the fine faces of cards `named` and `other` differ (`vision.fine.pair_parted`):
        made the first time a frame asks for the pair, and kept. Few pairs are ever asked
        for (a card declined, beside its closest rivals), where making all 1 326 would cost
        every design seconds of preparation."""
        ways = self._parted_pairs.get((named, other))
        if ways is None:
            back = self._parted_pairs.get((other, named))
            ways = pair_parted(self.fine, named, other) if back is None else [
                swapped(way) for way in back
            ]
            self._parted_pairs[named, other] = ways
        return ways

    @cached_property
    def sparse_fine(self) -> tuple[np.ndarray, np.ndarray]:
        """Every second pixel either way of each fine face, upright and then turned, (2 *
        52, pixels) float32, and their squares: for `vision.flat_look`, made the first
        time a frame asks (few cards are ever looked at so)."""
        fine = self.fine.astype(np.float32)
        faces = np.concatenate([fine, fine[:, ::-1, ::-1]])[:, ::2, ::2].reshape(2 * len(fine), -1)
        return faces, faces * faces

    @cached_property
    def _parted_pairs(self) -> dict[tuple[int, int], list[Parted]]:
        return {}

    @cached_property
    def index_gram(self) -> np.ndarray:
        """How alike each pair of index references is at each blur level."""
        return _pairs(self.index)

    @cached_property
    def gram(self) -> np.ndarray:
        """How alike each pair of references is at each blur level, on the same score."""
        gram: np.ndarray = FACE_WEIGHT * _pairs(self.face) + (1 - FACE_WEIGHT) * self.index_gram
        return gram


def _pairs(maps: np.ndarray) -> np.ndarray:
    """The dot product of each pair of references at each level: (levels, 52, 52). A matrix
    product, not `einsum`, which does not use BLAS: it is built for the design and for
    every cut of it when the design is prepared."""
    pairs: np.ndarray = maps @ maps.transpose(0, 2, 1)
    return pairs


def cut_face(face: np.ndarray, columns: int, size: tuple[int, int]) -> np.ndarray:
    """Face maps (..., features) cut to their left `columns` columns, zero mean per map and
    unit norm again."""
    width, height = size
    shape = (*face.shape[:-1], height // FACE_SHRINK, width // FACE_SHRINK, 3)
    cut = face.reshape(shape)[..., :columns, :]
    cut = centred(cut)
    flat = cut.reshape(*face.shape[:-1], -1)
    norm = lengths_of(flat)[..., None]
    units: np.ndarray = (flat / np.maximum(norm, 1e-6)).astype(np.float32, copy=False)
    return units


def builtin_design() -> Design:
    """The design the package ships with (heruka-2color, MIT, see its LICENSE)."""
    return load_design(BUILTIN)


def load_design(deck: str | Path) -> Design:
    """The design whose 52 faces are in `deck`, from the cache when it was built before."""
    files = face_files(Path(deck))
    digest = hashlib.sha256(_CACHE_VERSION)
    for name in sorted(files):
        digest.update(name.encode())
        digest.update(files[name].read_bytes())
    cache = _cache_dir() / f"{digest.hexdigest()[:32]}.npz"
    design = _read_cache(cache)
    if design is None:
        design = build_design(files)
        _write_cache(cache, design)
    return design.prepare()


_MIN_FACE_SIDE = 40
_FACE_ASPECTS = (1.2, 1.8)  # poker 1.40, bridge 1.56, tarot-sized decks about 1.7


def build_design(files: dict[str, Path]) -> Design:
    """Maps of every face; the aspect is the median over the faces."""
    faces = {}
    for name, path in files.items():
        try:
            faces[name] = read_picture(path).pixels
        except ImageError as err:
            raise DeckError(str(err)) from err
        height, width = faces[name].shape[:2]
        short, long = sorted((height, width))
        if short < _MIN_FACE_SIDE or not _FACE_ASPECTS[0] <= long / short <= _FACE_ASPECTS[1]:
            raise DeckError(f"{path}: a {width}×{height} image is not a card face (a card is "
                            f"at least {_MIN_FACE_SIDE} pixels across, its sides in a ratio of "
                            f"{_FACE_ASPECTS[0]} to {_FACE_ASPECTS[1]})")
    aspects = [max(img.shape[:2]) / min(img.shape[:2]) for img in faces.values()]
    aspect = float(np.median(aspects))
    size = card_size(aspect)
    names = tuple(str(card) for card in ALL_CARDS)
    straight = [rectify(faces[n], whole_frame(faces[n]), size) for n in names]
    levels = [[describe(card, blur)[0] for card in straight] for blur in BLUR_LEVELS]
    face = np.stack([np.stack([m.face for m in level]) for level in levels])
    index = np.stack([np.stack([m.index for m in level]) for level in levels])
    paper = min(describe(card)[1] for card in straight)
    fine = fine_faces([rectify(faces[n], whole_frame(faces[n]), fine_size(aspect)) for n in names])
    return Design(names, aspect, paper, _outline_inset(faces), face, index, fine)


def _outline_inset(faces: dict[str, np.ndarray]) -> tuple[float, float]:
    """Where the paper inside a frame printed near the edge ends, as shares of the width
    and the height; nothing for a white-edged design.

    Seen small, such a card loses the thin margin outside its frame, and the card finder
    outlines the paper inside the frame: the classifier then grows the outline back.
    Measured on the number cards, whose middle is bare paper on any design.
    """
    insets = []
    for name in _INSET_PROBES:
        face = faces[name]
        h, w = face.shape[:2]
        darkest = face.min(axis=2)
        _, paper = cv2.threshold(darkest, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        count, _, stats, _ = cv2.connectedComponentsWithStats(paper)
        inner = [
            (x, y, x + cw, y + ch)
            for x, y, cw, ch, area in stats[1:count]
            if x > 0 and y > 0 and x + cw < w and y + ch < h and area > _INNER_PAPER * w * h
        ]
        if not inner:
            insets.append((0.0, 0.0))
            continue
        x0, y0, x1, y1 = max(inner, key=lambda box: (box[2] - box[0]) * (box[3] - box[1]))
        insets.append(((x0 + w - x1) / (2 * w), (y0 + h - y1) / (2 * h)))
    dx, dy = (float(v) for v in np.median(insets, axis=0))
    return (dx, dy) if max(dx, dy) > _INSET_SIGNIFICANT else (0.0, 0.0)


def face_files(deck: Path) -> dict[str, Path]:
    """The 52 face images of a deck folder by card name; `DeckError` when one is missing."""
    if not deck.is_dir():
        raise DeckError(f"{deck}: not a folder of card faces")
    found: dict[str, Path] = {}
    for path in sorted(deck.iterdir()):
        if path.suffix.lower() in _IMAGE_TYPES:
            found.setdefault(path.stem.upper().replace("10", "T", 1), path)
    missing = [str(card) for card in ALL_CARDS if str(card) not in found]
    if missing:
        raise DeckError(f"{deck}: no face image for {', '.join(missing)}")
    return {str(card): found[str(card)] for card in ALL_CARDS}


def _cache_dir() -> Path:
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "croupier" / "vision"


def _read_cache(path: Path) -> Design | None:
    """The cached design, or None when there is none or it cannot be trusted."""
    try:
        with np.load(path, allow_pickle=False) as data:
            design = Design(
                tuple(str(c) for c in data["cards"]),
                float(data["aspect"]),
                float(data["paper"]),
                (float(data["inset"][0]), float(data["inset"][1])),
                data["face"].astype(np.float32),
                data["index"].astype(np.float32),
                _ink_maps(data["fine"]),
            )
    except Exception:  # a damaged file fails in many ways (zip, pickle, shape): rebuild
        return None
    expected = tuple(str(card) for card in ALL_CARDS)
    if (
        design.cards != expected
        or design.face.shape[:2] != (len(BLUR_LEVELS), len(expected))
        or design.index.shape[:2] != design.face.shape[:2]
        or not np.isfinite(design.face).all()
        or not np.isfinite(design.index).all()
        or not 0.0 < design.aspect < _MAX_ASPECT
        or not 0.0 <= design.paper <= 1.0
        or not all(0.0 <= share < _MAX_INSET for share in design.inset)
        or design.fine.shape != (len(expected), *fine_size(design.aspect)[::-1])
    ):
        return None
    # the maps a card of this aspect is described into: any other width cannot be compared
    width, height = card_size(design.aspect)
    blank = describe(np.zeros((height, width, 3), np.uint8))[0]
    if (design.face.shape[2:], design.index.shape[2:]) != (blank.face.shape, blank.index.shape):
        return None
    return design


def _ink_maps(fine: np.ndarray) -> np.ndarray:
    """The cached fine faces, as made (uint8): any other type was not made here."""
    if fine.dtype != np.uint8:
        raise DeckError(f"fine faces of type {fine.dtype}")
    return fine


def _write_cache(path: Path, design: Design) -> None:
    """Best effort: a read-only or full disk only costs a rebuild next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez(
            partial,
            cards=np.array(design.cards),
            aspect=np.float64(design.aspect),
            paper=np.float64(design.paper),
            inset=np.array(design.inset, np.float64),
            face=design.face,
            index=design.index,
            fine=design.fine,
        )
        partial.replace(path)
    except OSError:
        pass
