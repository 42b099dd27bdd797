"""Where a card looked for around its outlines was found: the outline, moved as the look
moved it, where the card named fits it best. The fine look beside its suit twin
(`vision.twin_look`) compares it there: the outline it was placed at may be further off
than that look's few pixels of play (3 of 120, where the look around moves a card 8 of
80), and there the twins' pips are compared out of place."""

from __future__ import annotations

import cv2
import numpy as np

from croupier.cards import Card
from vision.classifier import share_columns
from vision.design import FACE_WEIGHT, Design
from vision.look import BEST_SHIFTS, Looks
from vision.quad import Quad


def found_at(looks: Looks, card: Card, visible: float, design: Design) -> Quad | None:
    """Of every outline looked around (`looks`, by their corners), moved to each of its best
    places, the one `card` fits best on the whole score, with the left `visible` share of
    it in view; None when nothing was looked around. Every place of every outline is
    compared in one product (the first outline and place met wins a tie): a product per
    outline, some ten a card, cost a card as much as its twin look."""
    if not looks:
        return None
    named = design.cards.index(str(card))
    columns = share_columns(visible, design)
    face = design.masked(columns)[0][:, named] if columns else design.face[:, named]
    index = design.index[:, named]
    seen = list(looks.values())
    observed = np.concatenate([
        one.face_cut(columns, design.size) if columns else one.face for one in seen
    ])
    indices = np.concatenate([one.index for one in seen])
    # (blur levels, outlines x places): the score each level gives each place.
    fits = FACE_WEIGHT * (face @ observed.T) + (1 - FACE_WEIGHT) * (index @ indices.T)
    best = int(np.argmax(fits.max(axis=0)))
    which, place = divmod(best, BEST_SHIFTS)
    return moved(seen[which].outline, seen[which].places[place], design.size)


def moved(quad: Quad, place: np.ndarray, size: tuple[int, int]) -> Quad:
    """`quad` moved by `place` = (dx, dy) pixels of the card straightened to `size` =
    (width, height)."""
    width, height = size
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    to_frame = cv2.getPerspectiveTransform(unit, quad.corners.astype(np.float32))
    shifted = unit + np.array([place[0] / width, place[1] / height], np.float32)
    return Quad(cv2.perspectiveTransform(shifted[:, None], to_frame).reshape(4, 2))
