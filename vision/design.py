"""A card design as the classifier knows it: the maps of its 52 faces, built once and cached."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from croupier.cards import ALL_CARDS
from vision.errors import DeckError, ImageError
from vision.features import BLUR_LEVELS, CardMaps, card_size, describe
from vision.geometry import rectify, whole_frame
from vision.images import read_picture

BUILTIN = Path(__file__).parent / "designs" / "heruka-2color"
_IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff", ".gif")
_CACHE_VERSION = b"vision-design-3"  # bump when the maps change, so old caches are rebuilt
FACE_WEIGHT = 0.5  # of the whole face in a match score; the rest is the corner index


@dataclass(frozen=True)
class Design:
    """The reference maps of one design, row i for `cards[i]`."""

    cards: tuple[str, ...]
    aspect: float  # height over width of the faces
    face: np.ndarray  # (blur levels, 52, face features) float32
    index: np.ndarray  # (blur levels, 52, index features) float32

    @property
    def size(self) -> tuple[int, int]:
        return card_size(self.aspect)

    def scores(self, maps: CardMaps) -> np.ndarray:
        """How well `maps` match each reference at each blur level: (levels, 52)."""
        return FACE_WEIGHT * (self.face @ maps.face) + (1 - FACE_WEIGHT) * (self.index @ maps.index)

    @cached_property
    def gram(self) -> np.ndarray:
        """How alike each pair of references is at each blur level, on the same score."""
        face = np.einsum("lid,ljd->lij", self.face, self.face)
        index = np.einsum("lid,ljd->lij", self.index, self.index)
        return FACE_WEIGHT * face + (1 - FACE_WEIGHT) * index


def builtin_design() -> Design:
    """The design the package ships with (heruka-2color, MIT, see its LICENSE)."""
    return load_design(BUILTIN)


def load_design(deck: str | Path) -> Design:
    """The design whose 52 faces are in `deck`, from the cache when it was built before."""
    files = _face_files(Path(deck))
    digest = hashlib.sha256(_CACHE_VERSION)
    for name in sorted(files):
        digest.update(name.encode())
        digest.update(files[name].read_bytes())
    cache = _cache_dir() / f"{digest.hexdigest()[:32]}.npz"
    design = _read_cache(cache)
    if design is None:
        design = build_design(files)
        _write_cache(cache, design)
    return design


def build_design(files: dict[str, Path]) -> Design:
    """Maps of every face; the aspect is the median over the faces."""
    faces = {}
    for name, path in files.items():
        try:
            faces[name] = read_picture(path).pixels
        except ImageError as err:
            raise DeckError(str(err)) from err
    aspects = [max(img.shape[:2]) / min(img.shape[:2]) for img in faces.values()]
    aspect = float(np.median(aspects))
    size = card_size(aspect)
    names = tuple(str(card) for card in ALL_CARDS)
    straight = [rectify(faces[n], whole_frame(faces[n]), size) for n in names]
    levels = [[describe(card, blur)[0] for card in straight] for blur in BLUR_LEVELS]
    face = np.stack([np.stack([m.face for m in level]) for level in levels])
    index = np.stack([np.stack([m.index for m in level]) for level in levels])
    return Design(names, aspect, face, index)


def _face_files(deck: Path) -> dict[str, Path]:
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
                data["face"].astype(np.float32),
                data["index"].astype(np.float32),
            )
    except (OSError, ValueError, KeyError, EOFError):
        return None
    except Exception:
        return None
    expected = tuple(str(card) for card in ALL_CARDS)
    if (
        design.cards != expected
        or design.face.ndim != 3
        or design.face.shape[:2] != (len(BLUR_LEVELS), len(expected))
        or design.index.shape[:2] != design.face.shape[:2]
        or not np.isfinite(design.face).all()
        or not np.isfinite(design.index).all()
    ):
        return None
    return design


def _write_cache(path: Path, design: Design) -> None:
    """Best effort: a read-only or full disk only costs a rebuild next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez(
            partial,
            cards=np.array(design.cards),
            aspect=np.float64(design.aspect),
            face=design.face,
            index=design.index,
        )
        partial.replace(path)
    except OSError:
        pass
