"""Looking for a card around an outline that may be a few pixels off: where its index fits
its references best, and what is seen there."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

import numpy as np

from vision.design import Design, cut_face
from vision.features import Windows, describe_surrounds
from vision.quad import Quad, rectify, surround

# An outline placed from a row's edges may be off by this many pixels of the straightened
# card either way (a tenth of its width): the card is looked for within it, in steps of
# `_STEP`, first by its index alone, then whole at the three places the index fits best.
# (At the best place alone the look around is a weaker check on a card read where it was
# outlined: it confirmed an ace of hearts read as one of diamonds on a test design.)
REACH, _STEP, BEST_SHIFTS = 8, 2, 3
_SEARCH_LEVEL = 1
_COARSE = np.stack(
    np.meshgrid(*[np.arange(-REACH, REACH + 1, 2 * _STEP)] * 2), axis=-1
).reshape(-1, 2)
_FINE = np.array([(dx, dy) for dx in (-_STEP, 0, _STEP) for dy in (-_STEP, 0, _STEP) if dx or dy])


@dataclass(frozen=True)
class Look:
    """The card inside one outline where its index fits best: its index and face features
    (unit norm) at each of the `BEST_SHIFTS` best places, the outline and those places. It
    does not depend on how much of the card is in view: only the comparison does."""

    index: np.ndarray  # (BEST_SHIFTS, index features)
    face: np.ndarray  # (BEST_SHIFTS, face features)
    outline: Quad
    places: np.ndarray  # (BEST_SHIFTS, 2): (dx, dy) pixels of the straightened card
    # The face features cut to a share of the card in view, by its columns (`face_cut`).
    cuts: dict[int, np.ndarray] = field(default_factory=dict, compare=False, repr=False)

    def face_cut(self, columns: int, size: tuple[int, int]) -> np.ndarray:
        """The face features cut to their left `columns` columns (`vision.design.cut_face`),
        made once a width: a look is compared at the same share again and again (looked
        for further, and where it was found). Each is cut as it is among others."""
        cut = self.cuts.get(columns)
        if cut is None:
            cut = self.cuts[columns] = cut_face(self.face, columns, size)
        return cut


# What was seen around the outlines of one frame, by their corners: a card read again
# (the next card may hide more of it than measured) is not straightened and searched again.
Looks: TypeAlias = dict[bytes, Look]


def look(outlines: Sequence[tuple[np.ndarray, Quad]], design: Design) -> list[Look]:
    """The card inside each outline (each in its own frame) where its index fits best. Its
    index is looked for first, on a coarse grid and then finely around the best place; the
    face is cut where the index fits best."""
    size = design.size
    pad = REACH
    bordered = (size[0] + 2 * pad, size[1] + 2 * pad)
    cards = [rectify(frame, surround(q, pad, size), bordered) for frame, q in outlines]
    quads = [q for _, q in outlines]
    seen = describe_surrounds(cards, pad)
    indices = np.arange(len(quads))
    # The place is looked for at the middle blur level alone; every level is then compared
    # at the best places.
    search = design.index[_SEARCH_LEVEL]
    coarse_windows = seen.index_windows(
        np.repeat(indices, len(_COARSE)), np.tile(_COARSE, (len(quads), 1)), size
    )
    coarse = _scaled(search, coarse_windows)
    coarse = coarse.reshape(len(search), len(quads), len(_COARSE))  # (52, outlines, places)
    coarse_best = coarse.max(axis=0)  # (outlines, places): the best reference at each
    around = _COARSE[np.argmax(coarse_best, axis=1)][:, None, :] + _FINE  # (outlines, 8, 2)
    within = (np.abs(around) <= REACH).all(axis=2)
    fines = [fine[keep] for fine, keep in zip(around, within, strict=True)]
    near_windows = seen.index_windows(
        np.repeat(indices, [len(f) for f in fines]), np.concatenate(fines), size
    )
    near_best = _scaled(search, near_windows).max(axis=0)
    # Each outline's best places, by their windows among the coarse ones and then the near.
    places, chosen = [], []
    start, coarse_count = 0, len(quads) * len(_COARSE)
    for k, fine in enumerate(fines):
        shifts = np.concatenate([_COARSE, fine])
        found = np.concatenate([coarse_best[k], near_best[start : start + len(fine)]])
        best = np.argsort(found)[::-1][:BEST_SHIFTS]
        places.append(shifts[best])
        chosen.append(
            np.where(best < len(_COARSE), k * len(_COARSE), coarse_count + start - len(_COARSE))
            + best
        )
        start += len(fine)
    # The windows were cut already, on the way there: only those kept are scaled.
    kept = np.concatenate(chosen)
    in_near = kept >= coarse_count
    index = np.empty((len(kept), search.shape[1]), np.float32)
    index[~in_near] = coarse_windows.units(kept[~in_near])
    index[in_near] = near_windows.units(kept[in_near] - coarse_count)
    face = seen.face_windows(np.repeat(indices, BEST_SHIFTS), np.concatenate(places), size)
    return [
        Look(index[at : at + BEST_SHIFTS], face[at : at + BEST_SHIFTS], quad, where)
        for at, quad, where in zip(range(0, len(kept), BEST_SHIFTS), quads, places, strict=True)
    ]


def _scaled(references: np.ndarray, windows: Windows) -> np.ndarray:
    """Every reference (52, features) against every window, as against its unit vector."""
    scaled: np.ndarray = dot(references, windows.vectors) / np.maximum(windows.norms, 1e-6).T
    return scaled


def dot(references: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """Every reference (..., features) against every observation (n, features): (..., n)."""
    flat = references.reshape(-1, references.shape[-1])
    product: np.ndarray = flat @ observed.T
    return product.reshape(*references.shape[:-1], len(observed))
