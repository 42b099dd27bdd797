"""Naming one straightened card against a design, or declining to."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import ParamSpec, TypeVar

import numpy as np
from threadpoolctl import ThreadpoolController

from croupier.cards import ALL_CARDS, Card
from vision.design import FACE_WEIGHT, Design
from vision.features import FACE_SHRINK
from vision.look import BEST_SHIFTS, Look, Looks, dot, look
from vision.quad import Quad
from vision.resized import resized_outlines
from vision.twins import SUIT_TWIN, twin_doubted

# The bar. A card is named only when (1) it matches its reference well, (2) it sits clearly
# on its side of the midpoint between its reference and every close rival's (the pairwise
# test is 0.5 on the reference itself, 0 half way to the rival), and (3) it is as much
# paper as the design's faces are.
MIN_SCORE, FULL_SCORE = 0.82, 0.92
MIN_SPLIT, FULL_SPLIT = 0.12, 0.3
CONFIDENCE_BAR = 0.5
_RIVALS = 6  # the pairwise test is run against this many next-best cards
WHOLE = 0.97  # a card this much in view is read whole


@dataclass(frozen=True)
class Reading:
    """What the classifier makes of one card: `card` when sure, else only a `guess`."""

    card: Card | None
    guess: Card | None
    confidence: float
    score: float = 0.0
    split: float = 0.0
    # Declined, how sure the guess would be were its suit twin not a card: a closer look at
    # where the two differ may settle it (`vision.twin_look`).
    untwinned: float = 0.0
    # Declined, and unsure even with its twin aside: the next-best cards that keep it so
    # (the closest first), and how sure it would be were they and its twin not cards. A
    # closer look where the guess and each of them differ may settle it (`vision.rival_look`).
    # A card whose index alone or face alone fits another card best has that card among its
    # rivals, and is not sure with its twin aside (`untwinned` 0) until that look.
    rivals: tuple[Card, ...] = ()
    unrivalled: float = 0.0


def classify_placed(
    frame: np.ndarray,
    quads: Sequence[Quad],
    design: Design,
    visible: float = 1.0,
    looks: Looks | None = None,
    *,
    resized: bool = True,
) -> Reading:
    """A card whose outline may be a little off (placed from a row's edges, or drawn where
    a neighbour's edge misled the finder), given as one or more guesses `quads`, of which
    the left `visible` share is in view: it is read where, within reach of any of them, it
    fits its references best; when that does not name it surely, the outlines it fits
    best are tried a little smaller and larger, and the best one turned a little. Each card
    is taken as it fits best, and the card named must beat every rival's best fit by the
    margin asked of any card (unless not `resized`). `looks` holds what was seen around
    outlines of `frame` before."""
    card = Around(frame, quads, visible, {} if looks is None else looks)
    return classify_placed_each([card], design, resized=resized)[0]


@dataclass(frozen=True)
class Around:
    """A card to look for around its outlines: the frame they lie in, the outlines, the
    share of its width in view, and what was seen around outlines of that frame before."""

    frame: np.ndarray
    quads: Sequence[Quad]
    visible: float
    looks: Looks


def classify_around_each(cards: Sequence[Around], design: Design) -> list[list[Reading]]:
    """Each outline of each of `cards` looked for around, as `classify_placed` first does: a
    reading for each outline and none tried at other sizes. Each product over the
    references is made once for all of them (once for all those with the same share in
    view), as reading the references costs more than comparing them."""
    readings = []
    for card, fits in zip(cards, _fits_each(cards, design), strict=True):
        gram = _gram(card.visible, design)
        readings.append([_best_fit(fits[..., k], gram, design) for k in range(len(card.quads))])
    return readings


def classify_placed_each(
    cards: Sequence[Around], design: Design, *, resized: bool = True
) -> list[Reading]:
    """`classify_placed` of several cards at once: each product over the references made
    once for all of them (for all those with the same share in view)."""
    each = _fits_each(cards, design)
    fits = [one.max(axis=-1) for one in each]
    grams = [_gram(card.visible, design) for card in cards]
    readings = [_best_fit(f, gram, design) for f, gram in zip(fits, grams, strict=True)]
    if not resized:
        return readings
    again = [k for k, reading in enumerate(readings) if reading.card is None]
    variants = [
        Around(
            cards[k].frame,
            resized_outlines(cards[k].quads, each[k]),
            cards[k].visible,
            cards[k].looks,
        )
        for k in again
    ]
    for k, more in zip(again, _fits_each(variants, design), strict=True):
        fits[k] = np.maximum(fits[k], more.max(axis=-1))
        readings[k] = _best_fit(fits[k], grams[k], design)
    return readings


def _gram(visible: float, design: Design) -> np.ndarray:
    """The references' likeness to each other over the share of a card in view."""
    return design.gram if visible >= WHOLE else design.masked(columns_in_view(visible, design))[1]


def _best_fit(fits: np.ndarray, gram: np.ndarray, design: Design) -> Reading:
    """The reading of each card's best fit (`_fits_each`), declined unless its index alone and
    its face alone fit that card best too (to within `_AGREE`; a card named may stand when
    its index alone slips to another rank of its suit, `_rank_slip`; a card standing clearly
    apart on its whole score is left to its confidence, `_apart`). Its paper is not weighed:
    the outline lies on paper the size of a card, and its edge band, where paper is
    measured, may take in the baize or a neighbour's ink. A card declined only as unsure,
    whose index and face name it, keeps how sure it is with its suit twin aside
    (`Reading.untwinned`); so does a card whose face alone fits its suit twin best, its
    index naming it: at the classifier's size a club's pips and a spade's differ by a pixel
    or two (on framed designs the face alone most often leaned to the twin, the index
    naming the card laid), and the closer look beside the twin settles it."""
    whole, index, face = fits
    level, _ = np.unravel_index(int(np.argmax(whole)), whole.shape)
    scores = whole.max(axis=0)
    reading = hypothesis(scores, gram[level], design, 1.0)
    top = int(np.argmax(scores))
    index_best, face_best = index.max(axis=0), face.max(axis=0)
    face_off = face_best.max() - face_best[top] > _AGREE
    index_off = index_best.max() - index_best[top] > _AGREE
    # Named, its face agreeing, its index alone slipping to another rank of its suit: the
    # face's pips decide its rank.
    if index_off and reading.card is not None and not face_off:
        index_off = not _rank_slip(index_best, top)
    if (index_off or (face_off and int(np.argmax(face_best)) != SUIT_TWIN[top])) and not _apart(
        reading, index_best, face_best, top
    ):
        leaning = _leaning(index_best if index_off else None, face_best if face_off else None, top)
        if leaning is None:
            return declined(reading)
        return _untwinned(declined(reading), scores, top, gram[level], design, leaning=leaning)
    if face_off:
        return _untwinned(declined(reading), scores, top, gram[level], design)
    # Unsure, and the index alone says its suit twin: the pips that part them may be hidden.
    if twin_doubted(index_best, top, reading.confidence):
        return declined(reading)
    if reading.card is not None:
        return reading
    return _untwinned(reading, scores, top, gram[level], design)


# A card whose whole score sets it this far apart from every rival (`Reading.split`) is not
# declined outright for its index alone or its face alone fitting another rank of its suit
# best: its confidence decides. Chosen on the tuning designs laid at speed (the
# built-in design, deck_maker 101 to 120 and 125; the bench's seeds and 40 000, 50 000,
# 60 000, 72 000: 880 coups): of the 62 cards declined so, 43 guessed right, and every one
# guessed wrong had a split below 0.14; at this bar 11 cards more are named, all right, and
# 742 coups are read exactly (734); any bar from 0 to 0.2 reads the same, 0.25 two fewer.
_CLEAR_SPLIT = 0.2


def _apart(reading: Reading, index_best: np.ndarray, face_best: np.ndarray, top: int) -> bool:
    """Whether the card `top` stands clearly apart from every rival on its whole score
    (`reading`), and neither its index alone nor its face alone fits a card of another suit
    best (`index_best`, `face_best`: their fits, per reference): at the classifier's size a
    rank's glyph is a few pixels, and a blurred or half-hidden index or face may fit
    another rank best where the whole card does not."""
    suit = ALL_CARDS[top].suit
    fitted = (int(np.argmax(best)) for best in (index_best, face_best))
    leans = any(ALL_CARDS[k].suit is not suit for k in fitted)
    return reading.split >= _CLEAR_SPLIT and not leans


def _rank_slip(index_best: np.ndarray, top: int) -> bool:
    """Whether the index alone, fitting another card than `top` best (`index_best`, per
    reference), slips only on the rank: the card it fits best is of `top`'s suit, and it
    fits `top` better than `top`'s suit twin. The rank's glyph is a few pixels of the
    classifier's card, and blurred a 4 passes for a 9; the suit's pip under it still
    tells the card from its twin. (Without these two conditions a 5C of design 105 laid
    at speed, seed 46 507, was named the 5S.)"""
    best = int(np.argmax(index_best))
    twin = int(SUIT_TWIN[top])
    return ALL_CARDS[best].suit is ALL_CARDS[top].suit and index_best[top] > index_best[twin]


# A card declined for its index alone or its face alone fitting another card best is
# looked at finer beside that card and its closest rivals (`_leaning`, `vision.rival_look`),
# on the bars of any card so looked at (`rival_look.RIVAL_WORSE`, `MIN_SCORE`). On the tuning
# designs laid at speed (the built-in design, deck_maker 101 to 120 and 125; the bench's
# seeds and 40 000, 50 000, 60 000, 72 000: 880 coups) 40 cards were declined so, 15 of them
# guessed wrong: 12 fit their guess below MIN_SCORE and are not looked at, a 4C guessed 4S
# had its index alone fit the 4C best, and the 3C guessed 2C twice trails the 3C by 0.092
# and 0.128 there (0.19 below the bar). 6 cards are named, all right, leading by 0.101 to
# 0.36 (793 coups read exactly, 798 now); the held-out seeds read the same.
def _leaning(index_best: np.ndarray | None, face_best: np.ndarray | None,
             top: int) -> tuple[int, ...] | None:
    """The cards other than `top` and its suit twin that its index alone or its face alone
    fits best (`index_best`, `face_best`: their fits, per reference, given where they lean
    away from `top`); None when its index alone fits its twin best: the pips that part the
    two may be hidden, and no closer look is asked to settle it."""
    twin = int(SUIT_TWIN[top])
    fitted = [int(np.argmax(best)) for best in (index_best, face_best) if best is not None]
    if index_best is not None and fitted[0] == twin:
        return None
    return tuple(dict.fromkeys(k for k in fitted if k not in (top, twin)))


def _untwinned(reading: Reading, scores: np.ndarray, top: int, gram: np.ndarray,
               design: Design, *, leaning: tuple[int, ...] = ()) -> Reading:
    """`reading` of the card `top`, not named, with how sure it would be, its suit twin
    aside, on `scores` (changed) and `gram` of the level it was read at; and, not sure so,
    its closest rivals and how sure it would be with them aside too. Cards its index alone
    or its face alone fit best (`leaning`) are rivals it must be looked at beside first,
    sure or not: until that look, it is not as sure as anything with its twin aside."""
    scores[SUIT_TWIN[top]] = -1.0
    sure = _sure(hypothesis(scores, gram, design, 1.0))
    if sure >= CONFIDENCE_BAR and not leaning:
        return replace(reading, untwinned=round(sure, 3))
    gaps = np.maximum(2.0 - 2.0 * gram[top], 1e-6)
    splits = (scores[top] - scores) / gaps
    splits[[top, *leaning]] = np.inf
    closest = [int(k) for k in np.argsort(splits)[:_LOOKED_RIVALS] if splits[k] < FULL_SPLIT]
    closest = [*leaning, *closest]
    scores[closest] = -1.0
    unrivalled = _sure(hypothesis(scores, gram, design, 1.0))
    rivals = tuple(ALL_CARDS[k] for k in closest)
    return replace(reading, untwinned=0.0 if leaning else round(sure, 3), rivals=rivals,
                   unrivalled=round(unrivalled, 3))


# The rivals an unsure card is looked at beside at most (`Reading.rivals`): each look costs
# a straightening at the fine size.
_LOOKED_RIVALS = 2


def _sure(alone: Reading) -> float:
    """How sure a card is, some cards aside (`alone`: its reading among the others), on the
    bars of a card named after a closer look."""
    return min(ramp(alone.score, *_UNTWINNED_SCORE), ramp(alone.split, MIN_SPLIT, FULL_SPLIT))


# A card declined as unsure is named after a closer look beside its suit twin only when,
# the twin aside, it fits its reference from here (0.76 for half sure) and stands as
# clearly apart from every other card as any card named. A lower bar than for a card named
# at once: a card laid at speed, in glare, under the next card's edge, fits less well; the
# split keeps every other card away and the closer look must still find it clearly itself.
# Chosen on the tuning designs laid at speed (the built-in design, deck_maker 101 to 120
# and 125; the bench's seeds and 40 000, 50 000, 60 000, 72 000: 880 coups): from (0.70,
# 0.86) to this, 7 cards more named, all right, 746 coups read exactly (742); none is named
# wrong there down to 0.48 for half sure (755 exact at 0.66), but at 0.70 the built-in
# design reading another design's coup names a card (tests/test_vision_calibration.py):
# a card fitting no reference well may be of a design the reader was not given.
_UNTWINNED_SCORE = (0.68, 0.84)


# The index alone and the face alone fit the card named best, or within this of the best:
# seen partly hidden, a card's face alone may fit another of its rank as well, to a hair.
_AGREE = 0.005


def declined(reading: Reading) -> Reading:
    """`reading` not naming its card: its guess kept, its confidence none."""
    return Reading(None, reading.guess, 0.0, reading.score, reading.split)


def columns_in_view(visible: float, design: Design) -> int:
    """Whole columns of the face map clear of the next card, rounded down to an even number
    so that few cuts of the references are ever made."""
    return max(2, (int(visible * design.size[0] / FACE_SHRINK) - 1) // 2 * 2)


def share_columns(visible: float, design: Design) -> int:
    """`columns_in_view`, or 0 for a card read whole: the cut of the references it is
    compared with."""
    return columns_in_view(visible, design) if visible < WHOLE else 0


def _fits_each(cards: Sequence[Around], design: Design) -> list[np.ndarray]:
    """How well the card inside each outline of each of `cards`, moved by up to `REACH`
    pixels either way, fits each reference at best, per blur level, on the whole score, on
    the index alone and on the face alone: (3, levels, 52, outlines) a card. The outlines
    are compared together, each product over the references made once: it is their
    reading, not the observations, that costs."""
    if not cards:
        return []
    unseen = [
        {q.corners.tobytes(): q for q in card.quads if q.corners.tobytes() not in card.looks}
        for card in cards
    ]
    outlines = [
        (card.frame, q) for card, new in zip(cards, unseen, strict=True) for q in new.values()
    ]
    found = iter(look(outlines, design) if outlines else [])
    for card, new in zip(cards, unseen, strict=True):
        card.looks.update((key, next(found)) for key in new)
    seen = [[card.looks[q.corners.tobytes()] for q in card.quads] for card in cards]
    index_scores = _split(dot(design.index, _stacked(seen, "index")), seen)
    face_scores: list[np.ndarray] = [np.empty(0)] * len(cards)
    # Cards with the same share in view are compared with the same cut of the references.
    shares = {share_columns(c.visible, design) for c in cards}
    for columns in shares:
        members = [
            k for k, c in enumerate(cards)
            if share_columns(c.visible, design) == columns
        ]
        looked = [one for k in members for one in seen[k]]
        references = design.masked(columns)[0] if columns else design.face
        face = np.concatenate([
            one.face_cut(columns, design.size) if columns else one.face for one in looked
        ])
        parts = _split(dot(references, face), [seen[k] for k in members])
        for k, part in zip(members, parts, strict=True):
            face_scores[k] = part
    fits = []
    for index, face, card in zip(index_scores, face_scores, cards, strict=True):
        scores = FACE_WEIGHT * face + (1 - FACE_WEIGHT) * index
        per_outline = (*scores.shape[:2], len(card.quads), BEST_SHIFTS)
        fits.append(np.stack([_best_place(s.reshape(per_outline)) for s in (scores, index, face)]))
    return fits


def _best_place(scores: np.ndarray) -> np.ndarray:
    """The best of each outline's places (the last axis, `BEST_SHIFTS` long), taken place by
    place: numpy reduces a short last axis slowly."""
    best = scores[..., 0]
    for place in range(1, scores.shape[-1]):
        best = np.maximum(best, scores[..., place])
    return best


def _stacked(seen: Sequence[Sequence[Look]], part: str) -> np.ndarray:
    """The index or face features of every look of every card, one after the other."""
    return np.concatenate([getattr(one, part) for looks in seen for one in looks])


def _split(scores: np.ndarray, seen: Sequence[Sequence[Look]]) -> list[np.ndarray]:
    """Scores (..., observations) of `_stacked` looks, back into each card's."""
    ends = np.cumsum([len(looks) * BEST_SHIFTS for looks in seen])[:-1]
    return np.split(scores, ends, axis=-1)


@functools.cache
def _blas() -> ThreadpoolController:
    return ThreadpoolController()


P = ParamSpec("P")
R = TypeVar("R")


def on_one_core(read: Callable[P, R]) -> Callable[P, R]:
    """`read` with the matrix products on one thread: a product this small spread over a
    shared machine's cores costs more than it saves, and the reader's budget is one core.
    (Held for a whole read: setting it costs as much as a small product.)"""

    @functools.wraps(read)
    def held(*args: P.args, **kwargs: P.kwargs) -> R:
        with _blas().limit(limits=1, user_api="blas"):
            return read(*args, **kwargs)

    return held


def hypothesis(scores: np.ndarray, gram: np.ndarray, design: Design, paper: float) -> Reading:
    """The reading of one set of scores against the references at one blur level."""
    order = np.argsort(scores)[::-1]
    top = int(order[0])
    best = float(scores[top])
    rivals = order[1 : 1 + _RIVALS]
    # Where the card falls between its reference and each rival's, along the line joining
    # them: the test a matched filter makes, blind to noise elsewhere on the card.
    gaps = np.maximum(2.0 - 2.0 * gram[top, rivals], 1e-6)
    split = float(np.min((best - scores[rivals]) / gaps))
    confidence = min(ramp(best, MIN_SCORE, FULL_SCORE), ramp(split, MIN_SPLIT, FULL_SPLIT), paper)
    guess = Card.parse(design.cards[top])
    card = guess if confidence >= CONFIDENCE_BAR else None
    return Reading(card, guess, round(confidence, 3), best, split)


def ramp(value: float, low: float, high: float) -> float:
    """0 at or below `low`, 1 at or above `high`, straight between."""
    return min(max((float(value) - low) / (high - low), 0.0), 1.0)
