"""The built-in design's pip cards as bare faces: what the tests of the finer looks at a
card (beside its suit twin, beside a rank rival) share."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from croupier.cards import ALL_CARDS, Card

PIPS = [c for c in ALL_CARDS if c.rank.value not in "JQK"]


def builtin_face(card: Card) -> np.ndarray:
    from vision.design import BUILTIN, face_files
    from vision.images import read_picture

    return read_picture(face_files(BUILTIN)[str(card)]).pixels


def pip_faces(blur: float) -> Iterator[tuple[Card, np.ndarray, Any]]:
    """Each pip card, its face blurred by `blur` pixels (none at 0), and the face's outline."""
    import cv2

    from vision.quad import whole_frame

    for card in PIPS:
        face = builtin_face(card)
        if blur:
            face = cv2.GaussianBlur(face, (0, 0), blur)
        yield card, face, whole_frame(face)
