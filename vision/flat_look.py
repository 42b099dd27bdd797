"""A last look at a card still declined where fitting it to its guess's face placed it
(`vision.aligned`): its light evened out, what lies over it left aside, and compared whole
with every face of the design.

The classifier and the finer looks compare ink as the camera sees it. A chip's shadow or
the next card's greys a part of a card, which then reads as ink spread thin over it, and a
chip over a corner is ink where the face has paper: a card so seen fits its own face below
any bar (0.55 to 0.75, on the tuning designs), though its pips are all there, and where
they lie says its rank. Here the paper under the card is found around each pixel (the
brightest nearby: pips are small), and the card's ink measured against it; the paper
found is coloured, or much darker than the card's, under a chip, the baize or a
neighbour's back, and there the card is not compared. The card is then correlated with
every face, either way up, at its best shift of a few pixels, over the pixels left: named
its guess when that fits best, clearly ahead of every other rank, and ahead of the other
faces of its rank. (Its suit's pip is a few pixels and differs little from its twin's:
that margin is the smaller.)
"""

from __future__ import annotations

import cv2
import numpy as np

from croupier.cards import ALL_CARDS
from vision.aligned import aligned
from vision.classifier import CONFIDENCE_BAR, Reading
from vision.design import Design
from vision.features import INDEX_BOX
from vision.fine import fine_size, in_view
from vision.quad import Quad, rectify, surround

# Chosen on the tuning designs laid at speed (the built-in design and deck_maker 101 to 120
# and 125; the bench's seeds and 20 000, 40 000, 50 000, 60 000, 72 000: 880 coups), by
# looking so at each card named right there, fitted to its suit twin's face or a
# neighbouring rank's and guessed that (22 218 wrong guesses the fit placed): no wrong
# guess led every other rank by 0.05 while leading the other faces of its rank by 0.02 (the
# closest: a 3C guessed 2C, its middle pip washed out by glare, 0.037 and 0.041 ahead; the
# built-in design's 2D guessed 2H, 0.175 and 0.017). Of the 15 cards declined there,
# guessed right and placed, 12 are so ahead, 11 of them fitting `FLAT_FIT` or more: 850
# coups read exactly (842), and on the held-out seeds 330 of 352 (324), none named wrong.
# Those wrong guesses all had their pips; glare washing a middle pip white does not, and
# there the rank below led by more (review32: of 3s named right on tuning frames, glared
# 0.75 to 0.85 over their middle, 8 of 60 named 2s, and 2 of 48 fives 4s). Their corner
# index still says their rank: with `_index_agrees` none is (tuning 850 coups read
# exactly, held-out 328, test designs 318, where without it 852, 330, 318; asking the
# index to fit its guess better than every other face, not only every other rank's, 849).
RANK_AHEAD, SUIT_AHEAD = 0.05, 0.02
# How well the guess must fit, at the least: less, too little of the card is seen for its
# pips to say much. (On the tuning coups no bar up to this names a wrong guess; it leaves
# one card declined, a 2D fitting 0.696.)
FLAT_FIT = 0.7
_SHIFT = 2  # pixels either way at the fine size: the fit has placed the card already
# Pixels at the fine size within which the paper under a pip is found: more than a pip's
# width, less than a chip's.
_PAPER_REACH = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (25, 25))
_PAPER_BLUR = 4.0
# Paper this coloured (its channels' spread over its brightest), or this much darker than
# the card's paper at its brightest, lies under no card: not compared.
_COLOURED, _SHADED = 0.25, 0.45
_BRIGHTEST = 90  # percentile of the paper found: the card's own paper in the light
_INK_BLUR = 1.0  # pixels: as the fine faces (`vision.fine.ink`)
_LEAST = 400  # compared pixels: fewer say too little of a card's pips
_INDEX_LEAST = 100  # compared pixels of the corner index (some 400 in all): fewer say too little


def flat_checked(frame: np.ndarray, quad: Quad, visible: float, reading: Reading,
                 design: Design) -> Reading:
    """`reading` of a card declined at `quad`, of which the left `visible` share is in view:
    named its guess when, where fitting it to its guess's face places it (`vision.aligned`),
    its light evened out, its guess fits it well and clearly best (`RANK_AHEAD`,
    `SUIT_AHEAD`, `FLAT_FIT`), and its corner index fitting it no worse than any other
    rank's; otherwise as it was."""
    guess = reading.guess
    if reading.card is not None or guess is None:
        return reading
    named = ALL_CARDS.index(guess)
    outline = aligned(frame, quad, visible, named, design)
    if outline is None:
        return reading
    fits = flat_fits(frame, outline, visible, design)
    if fits is None or not _ahead(fits[0], named) or not _index_agrees(fits[1], named):
        return reading
    return Reading(guess, guess, CONFIDENCE_BAR, reading.score, reading.split)


def _index_agrees(fits: np.ndarray | None, named: int) -> bool:
    """Whether the corner index of the card (`fits`: each face's there, None where too little
    of it is seen) fits the face of card `named` at least as well as any other rank's.
    Glare that washes a pip white leaves a card's pips those of a lower rank, which then
    leads the whole card (a 3 read as a 2), while its index, in a corner, still says 3."""
    return fits is not None and float(fits[named]) >= float(fits[~_of_rank(named)].max())


def _ahead(fits: np.ndarray, named: int) -> bool:
    """Whether the face of card `named` fits well, clearly better than every other rank's
    and better than the other faces of its rank (`fits`: each face's)."""
    ranks = _of_rank(named)
    own = float(fits[named])
    others = np.delete(fits, named)
    same = np.delete(ranks, named)
    return (
        own >= FLAT_FIT
        and own - float(others[~same].max()) >= RANK_AHEAD
        and own - float(others[same].max()) >= SUIT_AHEAD
    )


def _of_rank(named: int) -> np.ndarray:
    """Which of the 52 cards are of card `named`'s rank, itself included: (52,) bool."""
    return np.array([card.rank is ALL_CARDS[named].rank for card in ALL_CARDS])


def flat_fits(frame: np.ndarray, outline: Quad, visible: float,
              design: Design) -> tuple[np.ndarray, np.ndarray | None] | None:
    """How well each face of `design` fits the card at `outline`, of which the left `visible`
    share is in view, its light evened out and what covers it left aside (`_evened`), either
    way up and at its best shift, on every second pixel either way: over the whole card
    (52,), None where too few pixels are seen; and over its corner index alone (52,), None
    where too little of it is seen."""
    size = fine_size(design.aspect)
    dark, seen = _evened(frame, outline, size)
    seen[:, _SHIFT + max(int(in_view(visible) * size[0]), 0) :] = 0.0
    whole = _correlated(dark, seen, design, _LEAST)
    if whole is None:
        return None
    x0, y0, x1, y1 = INDEX_BOX
    width, height = size
    corner = np.zeros_like(seen)
    rows = np.s_[_SHIFT + round(y0 * height) : _SHIFT + round(y1 * height)]
    columns = np.s_[_SHIFT + round(x0 * width) : _SHIFT + round(x1 * width)]
    corner[rows, columns] = seen[rows, columns]
    return whole, _correlated(dark, corner, design, _INDEX_LEAST)


def _correlated(dark: np.ndarray, seen: np.ndarray, design: Design,
                least: int) -> np.ndarray | None:
    """Each face's correlation with the ink `dark` over the pixels `seen` (0 or 1), either way
    up and at its best shift, on every second pixel either way: (52,); None where fewer than
    `least` pixels are seen at some shift."""
    height, width = design.fine.shape[1:]
    steps = range(-_SHIFT, _SHIFT + 1)
    cuts = [np.s_[_SHIFT + dy : _SHIFT + dy + height : 2, _SHIFT + dx : _SHIFT + dx + width : 2]
            for dy in steps for dx in steps]
    kept = np.stack([seen[at].ravel() for at in cuts], axis=1)  # (pixels, shifts)
    ink = np.stack([(seen[at] * dark[at]).ravel() for at in cuts], axis=1)
    count = kept.sum(axis=0)
    if count.min() < least:
        return None
    faces, squares = design.sparse_fine  # (2 * 52, pixels): upright, then turned
    ink_sums = ink.sum(axis=0)
    face_sums = faces @ kept
    covariance = faces @ ink - face_sums * ink_sums / count
    ink_spread = (ink * ink).sum(axis=0) - ink_sums * ink_sums / count  # seen is 0 or 1
    face_spread = squares @ kept - face_sums * face_sums / count
    # A spread near nothing (the pixels seen all but blank on a face) makes no likeness: a
    # correlation is at most 1.
    fits = np.clip(covariance / np.sqrt(np.maximum(face_spread * ink_spread, 1e-9)), -1.0, 1.0)
    shifted = fits.max(axis=1)  # each face at its best shift, upright then turned
    best: np.ndarray = np.maximum(shifted[: len(ALL_CARDS)], shifted[len(ALL_CARDS) :])
    return best


def _evened(frame: np.ndarray, outline: Quad,
            size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The card at `outline`, straightened to `size` with a border `_SHIFT` wide: its ink
    against the paper found under each pixel (0 on paper, float32), and where that paper
    lies under no card (coloured or shaded far darker than the card's brightest paper: a
    chip, the baize, a neighbour's back), 0, elsewhere 1 (float32)."""
    width, height = size
    bordered = (width + 2 * _SHIFT, height + 2 * _SHIFT)
    colour = rectify(frame, surround(outline, _SHIFT, size), bordered).astype(np.float32)
    paper = cv2.GaussianBlur(cv2.dilate(colour, _PAPER_REACH), (0, 0), _PAPER_BLUR)
    grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    light = cv2.cvtColor(paper, cv2.COLOR_BGR2GRAY)
    brightest = paper.max(axis=2)
    coloured = (brightest - paper.min(axis=2)) / np.maximum(brightest, 1.0)
    under = (coloured < _COLOURED) & (light > _SHADED * np.percentile(light, _BRIGHTEST))
    dark = cv2.GaussianBlur(1.0 - grey / np.maximum(light, 1.0), (0, 0), _INK_BLUR)
    return dark, under.astype(np.float32)
