"""Where a card and its suit twin differ (`vision.fine.parted`), made once a pair."""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.fine import _patches, parted
from vision.twins import SUIT_TWIN


def test_a_twin_is_parted_as_if_built_from_its_own_face_first(design: Any) -> None:
    """The twin's arrays, taken from its pair's with the faces' columns swapped, are those
    built from the twin itself, to the bit, either way up."""
    made = parted(design.fine)
    for named in range(len(design.fine)):
        faces = design.fine[[named, int(SUIT_TWIN[named])]].astype(np.float32)
        built = [_patches(turned) for turned in (faces, faces[:, ::-1, ::-1])]
        for ways, alone in zip(made[named], built, strict=True):
            for got, want in zip(ways, alone, strict=True):
                assert got.dtype == want.dtype
                assert got.shape == want.shape
                assert got.tobytes() == want.tobytes()
