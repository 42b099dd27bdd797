"""A second, finer look at a card named beside its suit twin (KS and KC, 9H and 9D).

The classifier's maps see a card 80 pixels wide, where a suit pip spans a few pixels and a
spade and a club differ by one or two: on a slightly blurred card its twin can fit as well,
or better, on every map. Here the card is straightened larger and compared with the two
faces where they differ (the suit pips, the index's pip) and just around, pip by pip, on
the pips wholly in view.
A card its twin fits clearly better there is not named, or named its twin when a closer
look still finds the twin fitting very well and clearly better.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from croupier.cards import ALL_CARDS, Card, Rank
from vision.classifier import CONFIDENCE_BAR, Reading, declined
from vision.design import Design
from vision.fine import Parted, fine_size, in_view, shift_offsets, straightened
from vision.quad import Quad, grow
from vision.twins import SUIT_TWIN

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
# How much better a card declined for its twin alone must fit there than its twin, at the
# size either fits best (`_sized_fits`), to be named. Chosen on the same coups: of the 187
# so declined, the one whose guess was its twin fitted 0.041 worse than the twin; of the
# 186 whose guess was right, 183 fitted better, 178 by 0.01 or more, as many by this, 171
# by 0.03. (At their outlines alone, 153 by this, and the twin 0.014 better.)
TWIN_WORSE = 0.02


# How well the twin must fit, and how much better than the card guessed, at the size
# either fits best, for the twin to be named instead: a card named whose twin fits clearly
# better at its outline (`_twin_better`), or one declined. Chosen on the same coups: the
# fourteen such cards whose guess was the twin (six named, eight declined) were fitted
# 0.948 to 0.986 by the twin, 0.041 to 0.163 better than by their guess; of the 299
# cards declined with a guess, none whose guess was right was fitted better by its twin by
# more than 0.012 where the twin fitted above 0.6.
TWIN_NAMED, TWIN_NAMED_BETTER = 0.94, 0.03
# A court card is never named its twin: on many designs the two pictures differ over half
# the card, and an outline astray makes either fit better by chance (a KS of the test
# design aguilar-four-thin-framed, its outline a tenth of its width off, was named the KC,
# the club fitting 0.95 and 0.06 better). Three right on the tuning coups are declined.
_COURTS = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING})


def twin_checked(frame: np.ndarray, quad: Quad, visible: float, reading: Reading,
                 design: Design, *, found: Quad | None = None) -> Reading:
    """`reading` of the card outlined by `quad`, of which the left `visible` share is in
    view, declined when its suit twin fits clearly better where the two differ; and a card
    declined only for its twin (`Reading.untwinned`) named when it fits clearly better
    there than its twin. Any card with a guess is named its twin when, looked at more
    closely, the twin fits very well and clearly better. The two are compared where the
    card is seen best (`_twin_fits`)."""
    guess = reading.card or reading.guess
    if guess is None:
        return reading
    if reading.card is not None:
        at = looked_at(quad, found, design)
        fits = _twin_fits(frame, at, visible, guess, design)
        if not _twin_better(fits) and not _twin_better_sized(fits, frame, at, visible, guess,
                                                             design=design):
            return reading
        reading = declined(reading)
    # Few cards are looked at more closely (one in four coups): each where it was outlined
    # as well (eleven more named right on the coups the bars were chosen on), and at the
    # size it fits best, some thirteen looks an outline.
    outlines = looked_at(quad, found, design, outlined=found is not None)
    if reading.untwinned < CONFIDENCE_BAR and not _twin_ahead(
        _twin_fits(frame, outlines, visible, guess, design)
    ):
        return reading
    fits = _twin_fits(frame, outlines, visible, guess, design, fitting=_sized_fits)
    own, twin = float(fits[0]), float(fits[1])
    if guess.rank not in _COURTS and twin >= TWIN_NAMED and twin - own >= TWIN_NAMED_BETTER:
        # Named on this look alone: its score and split are its guess's.
        named = ALL_CARDS[int(SUIT_TWIN[ALL_CARDS.index(guess)])]
        return Reading(named, named, CONFIDENCE_BAR, reading.score, reading.split)
    if reading.untwinned < CONFIDENCE_BAR or own - twin < TWIN_WORSE:
        return reading
    return replace(reading, card=guess, confidence=reading.untwinned, untwinned=0.0)


def _twin_ahead(fits: np.ndarray) -> bool:
    """Whether the twin fits a card at its outline at least as well as its guess (`fits`:
    theirs): only then may it, declined for another rival than its twin, be named its twin,
    and only then is it looked at more closely. Of the 112 cards so declined on the tuning
    coups, 16 are; all 7 whose guess was the twin, fitted 0.03 to 0.15 better by it."""
    return float(fits[1]) >= float(fits[0])


# How much better a twin fitting very well (`TWIN_CLEAR`) and not worse at a named card's
# outline must fit at the size either fits best for the card not to be named. Chosen on the
# tuning coups: of the 29 cards named whose twin fitted so at their outline, the 22 courts
# and 7 pip cards named right were fitted at most 0.003 better by the twin at that size;
# the two kings of clubs of design 118 named wrong (declined already, `_twin_better`),
# 0.042 and 0.045 better. A king of spades of design 118 on a held-out coup (seed 97 904),
# its twin 0.009 better at its outline, 0.016 at that size, had been named the king of clubs.
TWIN_SIZED_BETTER = 0.01


def _twin_better_sized(fits: np.ndarray, frame: np.ndarray, outlines: list[Quad],
                       visible: float, card: Card, *, design: Design) -> bool:
    """Whether `card`'s twin, fitting very well and not worse at its outline (`fits`:
    theirs there), fits very well and clearly better than it at the size either fits best
    (`_sized_fits`), at the one of `outlines` where either fits best."""
    if float(fits[1]) < TWIN_CLEAR or not _twin_ahead(fits):
        return False
    sized = _twin_fits(frame, outlines, visible, card, design, fitting=_sized_fits)
    own, twin = float(sized[0]), float(sized[1])
    return twin >= TWIN_CLEAR and twin - own > TWIN_SIZED_BETTER


def _twin_better(fits: np.ndarray) -> bool:
    """Whether the twin fits the card clearly better than the card named (`fits`: theirs)."""
    own, twin = float(fits[0]), float(fits[1])
    better = TWIN_CLEAR_BETTER if twin >= TWIN_CLEAR else TWIN_BETTER
    return twin >= TWIN_SEEN and twin - own > better


def looked_closer(reading: Reading) -> bool:
    """Whether `twin_checked` looks at the card beside its suit twin: any card it names or
    guesses (where it was `found` matters to nothing else)."""
    return reading.guess is not None


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
               design: Design, *, fitting: Fitting | None = None) -> np.ndarray:
    """How well `card` and its suit twin fit where they differ (by `fitting`, `_fits`
    unless given), at the one of `outlines` where either fits best, (2,): taken each at
    its own best outline, the twin may gain from an outline astray that the card loses
    on, or the other way."""
    named = ALL_CARDS.index(card)
    seen = in_view(visible)
    size = fine_size(design.aspect)
    ways = design.fine_parted[named]
    each = [(fitting or _fits)(frame, q, seen, ways, size) for q in outlines]
    best: np.ndarray = max(each, key=lambda fits: float(fits.max()))
    return best


Fitting = Callable[[np.ndarray, Quad, float, list[Parted], tuple[int, int]], np.ndarray]
# A step of the search for a card's size (`_sized_fits`), as a share of its width and of its
# height on each side, and the most steps taken from the outline.
SIZE_STEP, SIZE_STEPS = 0.01, 6


def _sized_fits(frame: np.ndarray, quad: Quad, seen: float, ways: list[Parted],
                size: tuple[int, int]) -> np.ndarray:
    """`_fits` at the outline grown or shrunk, in width and in height apart, by whole
    `SIZE_STEP`s to where either face fits best, climbing one step at a time.

    The outline of a card in a row, its right edge under the next card, is often some
    hundredths narrower or wider than the card: the pips away from the outline's middle
    then lie a pixel or two off the faces' further than the pips near it, and no one shift
    fits them all. Compared so, a blurred club fits a spade about as well as a club. Of
    the 186 cards declined for their twin alone on the tuning coups whose guess was right,
    33 were fitted within 0.02 of their twin at their outlines; at the size fitting best,
    9 (most were fitted best with the outline 4 to 8 hundredths wider).
    """
    memo: dict[tuple[int, int], np.ndarray] = {}

    def fitted(steps: tuple[int, int]) -> np.ndarray:
        if steps not in memo:
            grown = grow(quad, (steps[0] * SIZE_STEP, steps[1] * SIZE_STEP))
            memo[steps] = _fits(frame, grown, seen, ways, size)
        return memo[steps]

    at = (0, 0)
    for _ in range(SIZE_STEPS):
        nearby = [(at[0] + dx, at[1] + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        best = max(nearby, key=lambda steps: float(fitted(steps).max()))
        if fitted(best).max() <= fitted(at).max():
            break
        at = best
    return fitted(at)


def _fits(frame: np.ndarray, quad: Quad, seen: float, ways: list[Parted],
          size: tuple[int, int]) -> np.ndarray:
    """How well the card named and its twin fit the card where they differ, on its left
    `seen` share: their best correlation over small shifts and either way up, (2,)."""
    each = [fits for fits in patch_fits(frame, quad, size, seen * size[0], ways)
            if fits is not None]
    best: np.ndarray = np.maximum.reduce([np.full(2, -1.0), *each])
    return best


def patch_fits(frame: np.ndarray, quad: Quad, size: tuple[int, int], seen: float,
               ways: list[Parted]) -> list[np.ndarray | None]:
    """How well each of two faces fits the card outlined by `quad` where they differ, patch
    by patch at its best shift, for each way up (`ways`), on the patches wholly left of
    column `seen`: (2,) a way, None for a way with too few pixels in view (all None where
    the outline cannot be straightened)."""
    straight = straightened(frame, quad, size)
    if straight is None:
        return [None for _ in ways]
    card = straight.ravel()
    moves = shift_offsets(size[0])
    fits: list[np.ndarray | None] = []
    for at, ends, stops, joined in ways:
        kept = int(ends.searchsorted(seen))  # the patches wholly in view
        if kept == 0 or stops[kept - 1] < _LEAST:
            fits.append(None)
            continue
        n = int(stops[kept - 1])
        moved = np.take(card, moves + at[:n])  # (shifts, n): `take` gathers faster
        fits.append(_patchwise(moved, joined[:n], np.diff(stops[:kept], prepend=0)))
    return fits


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
