"""A finer look at a card declined as unsure beside its closest rivals (`Reading.rivals`):
the cards other than its suit twin that fit it nearly as well on the classifier's maps.

There a card is 80 pixels wide, and a rank's pips, or its index's glyph, may part it from
another rank of its suit by a few pixels: a blurred 3 of clubs fits the 2 nearly as well, a
5 the 6, an 8 the 3. As beside its twin (`vision.twin_look`), the card is straightened
larger and compared with its guess's face and each rival's where the two differ. A guess
that fits clearly better there than every rival is left to the look beside its twin, as
sure as it would be were they not cards (`Reading.unrivalled`).

Not patch by patch, as beside a twin: where two ranks differ, one face most often has a
pip and the other bare paper, which has no shape to correlate with; correlated over all the
pixels where they differ at once, the paper a card shows where the guess has a pip counts
against the guess.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from croupier.cards import ALL_CARDS, Rank
from vision.classifier import CONFIDENCE_BAR, MIN_SCORE, Reading
from vision.design import Design
from vision.fine import SHIFT, Parted, fine_size, in_view, shift_offsets, straightened
from vision.quad import Quad
from vision.twin_look import looked_at

# How much better the guess must fit than each rival where the two differ (`lead`), and how
# evenly both faces' ink must be seen there for the lead to count (the lesser face's over
# the greater's): where little but a pip of one face is in view (a card under the next),
# the other face is bare paper there, and a shadow or a neighbour's edge correlates with
# the pip by chance. Chosen on the tuning designs laid at speed (the built-in design and
# deck_maker 101 to 120 and 125; the bench's seeds and 40 000, 50 000, 60 000, 72 000: 880
# coups), by comparing every pip card named right there with each other pip card of its
# colour but its twin as if that were the guess (118 600 wrong guesses): seen evenly to
# 0.02 or more, none of its suit led the card laid (the closest trailing by 0.027, an 8C
# guessed 5C, half hidden), and of the other suit none by more than 0.042 (an 8S guessed
# 9C, a quarter hidden); seen less evenly, 2S cards under the next were led by up to 0.37 by
# the 5S to 8S. (Whole and sharp, ranks far apart, as a 4 and a 9, are seen 0.15 evenly or
# more.) Court cards' pictures gave wrong leads up to 0.28 (a JC guessed KC): they are not
# looked at. Of the 34 cards declined there that the look was asked about (all guessed
# right), 22 lead every rival by this (24 by 0.075, 25 by 0.05).
RIVAL_WORSE, BALANCED = 0.1, 0.05
_LEAST = 40  # compared pixels: fewer say nothing
_COURTS = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING})


def rival_checked(frame: np.ndarray, quad: Quad, visible: float, reading: Reading,
                  design: Design, *, found: Quad | None = None) -> Reading:
    """`reading` of the card outlined by `quad` (or `found` around it, `vision.found`), of
    which the left `visible` share is in view, made as sure, for the look beside its suit
    twin, as it would be with its rivals aside, when its guess fits clearly better than
    each of them where the two differ (`lead`); otherwise as it was."""
    if reading.guess is None or not rival_looked(reading):
        return reading
    named = ALL_CARDS.index(reading.guess)
    outlines = looked_at(quad, found, design, outlined=found is not None)
    for rival in reading.rivals:
        if lead(frame, outlines, visible, (named, ALL_CARDS.index(rival)), design) < RIVAL_WORSE:
            return reading
    return replace(reading, untwinned=reading.unrivalled, rivals=(), unrivalled=0.0)


def rival_looked(reading: Reading) -> bool:
    """Whether `rival_checked` looks at the card beside its rivals: one declined as unsure
    that would be sure enough with them aside, a pip card among pip cards (`RIVAL_WORSE`),
    fitting its reference as well as a card named at once must. The look compares two
    faces of the design, blind to whether the card is of the design at all: the built-in
    design, reading a coup of another, fitted its 3S 0.79 and the look named it
    (tests/test_vision_calibration.py); the cards it names on the tuning designs fit 0.815
    and more (all but one 0.875 and more)."""
    return (
        reading.card is None
        and reading.guess is not None
        and bool(reading.rivals)
        and reading.unrivalled >= CONFIDENCE_BAR
        and reading.score >= MIN_SCORE
        and all(card.rank not in _COURTS for card in (reading.guess, *reading.rivals))
    )



def lead(frame: np.ndarray, outlines: list[Quad], visible: float, pair: tuple[int, int],
         design: Design) -> float:
    """How much better the first of `pair` (cards, by index) fits than the second where the
    two differ, at the one of `outlines` where either fits best (`compared`); 0 where too
    little of either is in view to say (`BALANCED`)."""
    ahead, balance = compared(frame, outlines, visible, pair, design)
    return ahead if balance >= BALANCED else 0.0


def compared(frame: np.ndarray, outlines: list[Quad], visible: float, pair: tuple[int, int],
             design: Design) -> tuple[float, float]:
    """How much better the first of `pair` fits than the second where the two differ, at
    the one of `outlines` where either fits best: the lesser of its leads either way up, 0
    where too little is in view; and how evenly the two faces' ink is seen there, the less
    even way up (`_fits`). Not each face at its best way up, as beside a twin: two ranks'
    pips may lie apart (a 7's middle pip sits in its upper half, an 8 has one in each), and
    compared the wrong way up, the card's own pip lies where only the other face has one.
    Which way up the card lies is not known here: the guess must lead either way."""
    size = fine_size(design.aspect)
    seen = in_view(visible) * size[0]
    ways = design.parted_with(*pair)
    upright = design.fine[list(pair)].astype(np.float32)
    best, most, balance = 0.0, -np.inf, 0.0
    for quad in outlines:
        card = straightened(frame, quad, size)
        fits = [] if card is None else [
            _fits(card, way, faces, seen)
            for way, faces in zip(ways, (upright, upright[:, ::-1, ::-1]), strict=True)
        ]
        both = [f for f in fits if f is not None]
        if len(both) == len(ways) and max(float(f[0].max()) for f in both) > most:
            most = max(float(f[0].max()) for f in both)
            best = min(float(f[0][0] - f[0][1]) for f in both)
            balance = min(f[1] for f in both)
    return best, balance


def _fits(card: np.ndarray, way: Parted, faces: np.ndarray,
          seen: float) -> tuple[np.ndarray, float] | None:
    """How well each of two `faces` (2, height, width) fits the straightened `card` where
    they differ one way up (`way`), on the patches wholly left of column `seen`: their
    correlation over all those pixels, each patch centred on its own (light on a card is
    not even) but all weighed together, each face at its best shift, (2,); and how evenly
    their ink varies there, the lesser's over the greater's. None where too few pixels are
    in view."""
    at, ends, stops, joined = way
    kept = int(ends.searchsorted(seen))
    if kept == 0 or stops[kept - 1] < _LEAST:
        return None
    n = int(stops[kept - 1])
    pixels = at[:n]
    member = joined[:n, :kept]
    rows, columns = np.divmod(pixels, card.shape[1])
    count = np.diff(stops[:kept], prepend=0).astype(np.float32)
    refs, norms = _unit(faces[:, rows - SHIFT, columns - SHIFT], member, count)
    moved, _ = _unit(np.take(card.ravel(), shift_offsets(faces.shape[2]) + pixels), member, count)
    fits: np.ndarray = (moved @ refs.T).max(axis=0)
    return fits, float(norms.min() / max(norms.max(), 1e-6))


def _unit(rows: np.ndarray, member: np.ndarray, count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row centred patch by patch (`member`: which of the patches, `count` pixels
    each, a pixel is of) and of unit length over them all; and its length before."""
    centred = rows - ((rows @ member) / count) @ member.T
    norms = np.linalg.norm(centred, axis=1)
    unit: np.ndarray = centred / np.maximum(norms[:, None], 1e-6)
    return unit, norms
