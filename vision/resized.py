"""Outlines tried around those a card fits best in when it is not named surely there: a
little smaller and larger, and turned a little."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.quad import Quad

_RESIZED = 3  # outlines tried at other sizes
_TURN = 1.5  # degrees: a placed card's turn is taken from its row's edges
_SCALE = 0.06  # a row's cards are sized from its height, which turned cards stretch


def resized_outlines(quads: Sequence[Quad], fits: np.ndarray) -> list[Quad]:
    """Sizes tried around the outlines a card fits best in (`fits`, as
    `vision.classifier._fits_each` gives them), and turns around the best one: the others
    are off more than a size or a turn can mend."""
    order = np.argsort(fits[0].max(axis=(0, 1)))[::-1][:_RESIZED]
    variants = [v for k in order for v in _variants(quads[int(k)])]
    return variants + _turned(quads[int(order[0])])


def _variants(quad: Quad) -> list[Quad]:
    """The outline a little smaller and a little larger (by half the step and by the whole
    of it), from its top-left corner."""
    corners = quad.corners
    origin = corners[0]
    return [
        Quad(((corners - origin) * scale + origin).astype(np.float32))
        for scale in (1 - _SCALE, 1 - _SCALE / 2, 1 + _SCALE / 2, 1 + _SCALE)
    ]


def _turned(quad: Quad) -> list[Quad]:
    """The outline turned a little either way about its top-left corner."""
    corners = quad.corners
    origin = corners[0]
    turned = []
    for turn in np.deg2rad([-_TURN, _TURN]):
        c, s = np.cos(turn), np.sin(turn)
        rotation = np.array([[c, -s], [s, c]], np.float32)
        turned.append(Quad(((corners - origin) @ rotation.T + origin).astype(np.float32)))
    return turned
