"""Cards read where they were outlined, all at once: each product over the references is
made once for all of them, since reading the references costs more than comparing them
with a card. One card alone (`vision read` of a single card) is read the same way."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.classifier import CONFIDENCE_BAR, WHOLE, Reading, columns_in_view, hypothesis, ramp
from vision.design import FACE_WEIGHT, Design, cut_face
from vision.features import describe, describe_both
from vision.quad import Quad, grow, rectify

# A card to read: the frame it lies in, its outline, and the share of its width in view.
Outlined = tuple[np.ndarray, Quad, float]

# A hypothesis scoring within this of the chosen one's score is a comparable fit; if it
# names another card with this much confidence, the card is declined.
_COMPARABLE = 0.06
_CONTRADICTION = 0.1


def classify_each(cards: Sequence[Outlined], design: Design) -> list[Reading]:
    """Each of `cards`, of which the left share given is in view (the next card of a row
    may lie over its right side).

    For a design whose outline the card finder draws inside the edges (a frame printed
    near the edge), a card not named whole is read again inside its outline grown back to
    the edges, and the surer of the two readings is kept.
    """
    readings: list[Reading] = [Reading(None, None, 0.0)] * len(cards)
    whole = [k for k, (_, _, visible) in enumerate(cards) if visible >= WHOLE]
    straight = straight_each([rectify(*cards[k][:2], design.size) for k in whole], design)
    for k, reading in zip(whole, straight, strict=True):
        readings[k] = reading
    if design.inset != (0.0, 0.0):
        again = [k for k, reading in zip(whole, straight, strict=True) if reading.card is None]
        grown = straight_each(
            [rectify(cards[k][0], grow(cards[k][1], design.inset), design.size) for k in again],
            design,
        )
        for k, reading in zip(again, grown, strict=True):
            readings[k] = max(readings[k], reading, key=lambda r: (r.confidence, r.score))
    hidden = [k for k, (_, _, visible) in enumerate(cards) if visible < WHOLE]
    each = _hidden_each(
        [(rectify(*cards[k][:2], design.size), cards[k][2]) for k in hidden], design
    )
    for k, reading in zip(hidden, each, strict=True):
        readings[k] = reading
    return readings


def straight_each(cards: Sequence[np.ndarray], design: Design) -> list[Reading]:
    """Each card already straightened to `design.size`.

    Each way up and each blur level is a hypothesis about how a card is seen; the most
    confident one names the card, unless a hypothesis that fits about as well names
    another card with some confidence: then the card is declined.
    """
    if not cards:
        return []
    described = [describe_both(card) for card in cards]
    scores = design.scores([view for views, _ in described for view in views])
    readings = []
    for k, (views, paperness) in enumerate(described):
        paper = _paper(paperness, design)
        hypotheses = [
            hypothesis(level_scores, design.gram[level], design, paper)
            for view in scores[k * len(views) : (k + 1) * len(views)]
            for level, level_scores in enumerate(view)
        ]
        readings.append(_decide(hypotheses))
    return readings


def _hidden_each(cards: Sequence[tuple[np.ndarray, float]], design: Design) -> list[Reading]:
    """Each straightened card whose right side beyond the share given is hidden: only what
    is seen is compared, the card taken as lying upright (a row is laid so). Cards with the
    same share in view are compared with the same cut of the references."""
    if not cards:
        return []
    described = [describe(card) for card, _ in cards]
    columns = [columns_in_view(visible, design) for _, visible in cards]
    readings: list[Reading] = [Reading(None, None, 0.0)] * len(cards)
    index = design.index @ np.stack([seen.index for seen, _ in described], axis=1)
    for share in set(columns):
        members = [k for k, c in enumerate(columns) if c == share]
        face, gram = design.masked(share)
        observed = [cut_face(described[k][0].face, share, design.size) for k in members]
        products = face @ np.stack(observed, axis=1)
        for j, k in enumerate(members):
            paper = _paper(described[k][1], design)
            hypotheses = [
                hypothesis(
                    FACE_WEIGHT * products[level, :, j] + (1 - FACE_WEIGHT) * index[level, :, k],
                    gram[level],
                    design,
                    paper,
                )
                for level in range(face.shape[0])
            ]
            readings[k] = _decide(hypotheses)
    return readings


def _decide(hypotheses: list[Reading]) -> Reading:
    """The most confident hypothesis, declined when a comparable one names another card,
    or when another card fits better."""
    chosen = max(hypotheses, key=lambda h: (h.confidence, h.score))
    rivals = [
        h.confidence
        for h in hypotheses
        if h.guess != chosen.guess and h.score >= chosen.score - _COMPARABLE
    ]
    contradiction = max(rivals, default=0.0)
    # Another card fitting better under some hypothesis, however unsure it is there, is a
    # contradiction too: the surest reading must also be the best fit.
    if any(h.guess != chosen.guess and h.score > chosen.score for h in hypotheses):
        contradiction = max(contradiction, _CONTRADICTION)
    if contradiction >= _CONTRADICTION:
        doubt = min(chosen.confidence, CONFIDENCE_BAR) * (1.0 - contradiction)
        chosen = Reading(None, chosen.guess, round(doubt, 3), chosen.score, 0.0)
    return chosen


def _paper(paperness: float, design: Design) -> float:
    """How much a card is paper as the design's faces are (1 when the design sets no bar)."""
    return ramp(paperness, 0.0, design.paper_bar) if design.paper_bar else 1.0
