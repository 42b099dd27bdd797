"""The cards of a frame read where they were outlined (`vision.classifier.classify` of each),
all at once: each product over the references is made once for all of them, since reading
the references costs more than comparing them with a card."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.classifier import (
    _COMPARABLE,
    _WHOLE,
    Reading,
    _columns,
    _decide,
    _hypothesis,
    _ramp,
)
from vision.design import FACE_WEIGHT, Design, cut_face
from vision.features import describe, describe_both
from vision.quad import Quad, grow, rectify

# A card to read: the frame it lies in, its outline, and the share of its width in view.
Outlined = tuple[np.ndarray, Quad, float]


def classify_each(cards: Sequence[Outlined], design: Design) -> list[Reading]:
    """`classify` of each of `cards`, with the same readings."""
    readings: list[Reading] = [Reading(None, None, 0.0)] * len(cards)
    whole = [k for k, (_, _, visible) in enumerate(cards) if visible >= _WHOLE]
    straight = _straight_each([rectify(*cards[k][:2], design.size) for k in whole], design)
    for k, reading in zip(whole, straight, strict=True):
        readings[k] = reading
    if design.inset != (0.0, 0.0):
        again = [k for k, reading in zip(whole, straight, strict=True) if reading.card is None]
        grown = _straight_each(
            [rectify(cards[k][0], grow(cards[k][1], design.inset), design.size) for k in again],
            design,
        )
        for k, reading in zip(again, grown, strict=True):
            readings[k] = max(readings[k], reading, key=lambda r: (r.confidence, r.score))
    hidden = [k for k, (_, _, visible) in enumerate(cards) if visible < _WHOLE]
    each = _hidden_each(
        [(rectify(*cards[k][:2], design.size), cards[k][2]) for k in hidden], design
    )
    for k, reading in zip(hidden, each, strict=True):
        readings[k] = reading
    return readings


def _straight_each(cards: Sequence[np.ndarray], design: Design) -> list[Reading]:
    """`classify_straight` of each straightened card."""
    if not cards:
        return []
    described = [describe_both(card) for card in cards]
    scores = design.scores([view for views, _ in described for view in views])
    readings = []
    for k, (views, paperness) in enumerate(described):
        paper = _ramp(paperness, 0.0, design.paper_bar) if design.paper_bar else 1.0
        hypotheses = [
            _hypothesis(level_scores, design.gram[level], design, paper)
            for view in scores[k * len(views) : (k + 1) * len(views)]
            for level, level_scores in enumerate(view)
        ]
        readings.append(_decide(hypotheses, _COMPARABLE))
    return readings


def _hidden_each(cards: Sequence[tuple[np.ndarray, float]], design: Design) -> list[Reading]:
    """`classify_hidden` of each straightened card and the share of it in view. Cards with
    the same share in view are compared with the same cut of the references."""
    if not cards:
        return []
    described = [describe(card) for card, _ in cards]
    columns = [_columns(visible, design) for _, visible in cards]
    readings: list[Reading] = [Reading(None, None, 0.0)] * len(cards)
    index = design.index @ np.stack([seen.index for seen, _ in described], axis=1)
    for share in set(columns):
        members = [k for k, c in enumerate(columns) if c == share]
        face, gram = design.masked(share)
        observed = [cut_face(described[k][0].face, share, design.size) for k in members]
        products = face @ np.stack(observed, axis=1)
        for j, k in enumerate(members):
            paperness = described[k][1]
            paper = _ramp(paperness, 0.0, design.paper_bar) if design.paper_bar else 1.0
            hypotheses = [
                _hypothesis(
                    FACE_WEIGHT * products[level, :, j] + (1 - FACE_WEIGHT) * index[level, :, k],
                    gram[level],
                    design,
                    paper,
                )
                for level in range(face.shape[0])
            ]
            readings[k] = _decide(hypotheses, _COMPARABLE)
    return readings
