"""A second, finer look at a card named beside its suit twin (KS and KC, 9H and 9D).

The classifier's maps see a card 80 pixels wide, where a suit pip spans a few pixels and a
spade and a club differ by one or two: on a slightly blurred card its twin can fit as well,
or better, on every map. Here the card is straightened larger and compared with the two
faces where they differ (the suit pips, the index's pip) and just around, pip by pip, on
the pips wholly in view.
A card its twin fits clearly better there is not named.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from croupier.cards import ALL_CARDS, Card
from vision.classifier import CONFIDENCE_BAR, Reading, declined
from vision.design import Design
from vision.fine import Parted, fine_size, in_view, shift_offsets, straightened
from vision.quad import Quad, grow

_LEAST = 40  # compared pixels: fewer say nothing
# How much better the twin must fit there for the card not to be named, and how well it
# must fit for that to count: below, the look sees neither face (an outline astray, a
# court card's busy pips) and which fits less badly is chance. Where the twin fits very
# well, it fitting a little better already says the card is the twin. Chosen on the
# tuning designs laid at speed (the built-in design and deck_maker 101 to 120 and 125;
# the bench's seeds and 40 000, 50 000, 60 000, 72 000: 880 coups): the six twins named
# wrong fitted 0.021 (at 0.90), 0.034, 0.049, 0.056, 0.059 and 0.068 better, all of them
# at 0.89 or more, and all six are declined; of the 8,637 cards named right, none is:
# three were fitted better by more than 0.03, by twins fitting below 0.7, and of those
# whose twin fitted 0.85 or more none was fitted better by more than 0.009.
TWIN_BETTER, TWIN_SEEN = 0.03, 0.7
TWIN_CLEAR, TWIN_CLEAR_BETTER = 0.85, 0.015
# How much better a card declined for its twin alone must fit there than its twin to be
# named. Chosen on the same coups: of the 166 so declined, the one whose guess was its
# twin fitted better by 0.014; of the 165 whose guess was right, 140 by 0.015 or more,
# 138 by this, 127 by 0.03.
TWIN_WORSE = 0.02


def twin_checked(frame: np.ndarray, quad: Quad, visible: float, reading: Reading,
                 design: Design, *, found: Quad | None = None) -> Reading:
    """`reading` of the card outlined by `quad`, of which the left `visible` share is in
    view, declined when its suit twin fits clearly better where the two differ; and a card
    declined only for its twin (`Reading.untwinned`) named when it fits clearly better
    there than its twin. The two are compared where the card is seen best (`_twin_fits`)."""
    if reading.card is not None:
        fits = _twin_fits(frame, looked_at(quad, found, design), visible, reading.card, design)
        return declined(reading) if _twin_better(fits) else reading
    if reading.guess is None or not looked_closer(reading):
        return reading
    # Few cards are declined for their twin alone: each is looked at where it was outlined
    # as well (eleven more named right on the coups the bars were chosen on).
    outlines = looked_at(quad, found, design, outlined=found is not None)
    fits = _twin_fits(frame, outlines, visible, reading.guess, design)
    if fits[0] - fits[1] < TWIN_WORSE:
        return reading
    return replace(reading, card=reading.guess, confidence=reading.untwinned, untwinned=0.0)


def _twin_better(fits: np.ndarray) -> bool:
    """Whether the twin fits the card clearly better than the card named (`fits`: theirs)."""
    own, twin = float(fits[0]), float(fits[1])
    better = TWIN_CLEAR_BETTER if twin >= TWIN_CLEAR else TWIN_BETTER
    return twin >= TWIN_SEEN and twin - own > better


def looked_closer(reading: Reading) -> bool:
    """Whether `twin_checked` looks at the card beside its suit twin: a card named, or one
    declined only for its twin (where it was `found` matters to nothing else)."""
    return reading.card is not None or (
        reading.guess is not None and reading.untwinned >= CONFIDENCE_BAR
    )


def looked_at(quad: Quad, found: Quad | None, design: Design, *,
              outlined: bool = False) -> list[Quad]:
    """The outlines a card is compared with its twin at: where the look around its outlines
    `found` it (`vision.found`: the outline it was placed at, `quad`, may be further off
    than this look's few pixels of play), or `quad` when it was not looked around, and
    `quad` too when `outlined`; and on a design framed near its edges, which may be
    outlined inside the frame, `quad` grown to its edges (not where it was found, which
    may lie on them already)."""
    outlines = [quad] if found is None else [found, quad] if outlined else [found]
    if design.inset != (0.0, 0.0):
        outlines.append(grow(quad, design.inset))
    return outlines


def _twin_fits(frame: np.ndarray, outlines: list[Quad], visible: float, card: Card,
               design: Design) -> np.ndarray:
    """How well `card` and its suit twin fit where they differ, at the one of `outlines`
    where either fits best, (2,): taken each at its own best outline, the twin may gain
    from an outline astray that the card loses on, or the other way."""
    named = ALL_CARDS.index(card)
    seen = in_view(visible)
    size = fine_size(design.aspect)
    ways = design.fine_parted[named]
    each = [_fits(frame, q, seen, ways, size) for q in outlines]
    best: np.ndarray = max(each, key=lambda fits: float(fits.max()))
    return best


def _fits(frame: np.ndarray, quad: Quad, seen: float, ways: list[Parted],
          size: tuple[int, int]) -> np.ndarray:
    """How well the card named and its twin fit the card where they differ, on its left
    `seen` share: their best correlation over small shifts and either way up, (2,)."""
    width, _ = size
    best = np.full(2, -1.0)
    straight = straightened(frame, quad, size)
    if straight is None:
        return best
    card = straight.ravel()
    moves = shift_offsets(width)
    for at, ends, stops, joined in ways:
        kept = int(ends.searchsorted(seen * width))  # the patches wholly in view
        if kept == 0 or stops[kept - 1] < _LEAST:
            continue
        n = int(stops[kept - 1])
        moved = np.take(card, moves + at[:n])  # (shifts, n): `take` gathers faster
        best = np.maximum(best, _patchwise(moved, joined[:n], np.diff(stops[:kept], prepend=0)))
    return best


def _patchwise(moved: np.ndarray, joined: np.ndarray, count: np.ndarray) -> np.ndarray:
    """How well each face fits the card (`moved`, each shift's pixels) at its best shift:
    the correlation within each of the first `len(count)` patches (`vision.fine.Parted`),
    weighted by its pixels, (2,). Patch by patch, because light on a card is not even: a
    glare that pales a few pips makes them, to one correlation over the whole card, more
    like the paler twin."""
    patches, kept = joined.shape[1] // 3, len(count)
    sums = (moved @ joined).reshape(len(moved), 3, patches)[:, :, :kept]
    squares = (moved * moved) @ joined[:, :kept]
    own = np.sqrt(np.maximum(squares - sums[:, 0] * sums[:, 0] / count.astype(np.float32), 1e-6))
    # The faces are centred in each patch: the card's sum against them is its covariance.
    fits = (sums[:, 1:] / own[:, None, :]) @ (count / count.sum()).astype(np.float32)
    best: np.ndarray = fits.max(axis=0)
    return best
