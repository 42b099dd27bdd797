"""A declined card read again at an outline found by fitting it, at the fine size, to the face
it was guessed to be.

An outline placed from a row's edges may be off by more than the looks search: moved a few
pixels, turned a degree or three, or a few hundredths too wide or too tall (a row's cards
are sized from its height, which a turned card stretches). The look around an outline moves
it and tries it a little smaller, larger and turned, but never stretched one way alone, and
the finer looks (`vision.twin_look`, `vision.rival_look`) move it by a few pixels only: the
pips away from the outline's middle then lie off every face's, and neither the card nor its
rivals fit it well. Here the card is fitted to its guess's face by an affine map (enhanced
correlation, `cv2.findTransformECC`) over its share in view, and read again where that
places it: every reference is compared there alike, by the classifier's own bars and, still
unsure, by the finer looks beside its closest rivals and its suit twin; the card is named
only as its guess, and at the classifier's own bars, not the stricter one a look further
from the outline asks (`card_reads._NEAR_SURE`): what says these bars suffice here is the
trial below, in which every guess was wrong on purpose (its suit twin among them, so a card
the twin look declined may be named here when its twin, compared where the fit places it,
no longer fits clearly better). The guess only places the card: the pips and index a card
shares with its rivals do most of that. On the tuning designs laid at speed (the built-in
design and deck_maker 101 to 120 and 125; the bench's seeds and 40 000, 50 000, 60 000,
72 000: 880 coups), each of the cards named right there, declined and guessed its suit twin
or a neighbouring rank (25 174 guesses), was named nothing here. Of the 94 cards declined
there, 34 are named here, all right, and 824 coups read exactly (793): 19 named by the
classifier where they were placed, 15 after the finer looks there.
"""

from __future__ import annotations

import cv2
import numpy as np

from croupier.cards import ALL_CARDS
from vision.classifier import Reading, classify_placed
from vision.design import Design
from vision.fine import fine_size, in_view, straightened
from vision.quad import Quad
from vision.rival_look import rival_checked
from vision.twin_look import twin_checked

# Pixels of the fine card straightened around it: the fit moves the card within them.
BORDER = 12
# The most a fit may move, turn (degrees) and stretch (a share, either way, of width or
# height) the card from its outline: further, it has fitted something else (a neighbour,
# the baize). The cards named here on the tuning coups were fitted within 7.2 pixels, 3.5
# degrees and 0.117; of the 14 of those declined there fitted further, 12 were guessed wrong.
_MOST_MOVE, _MOST_TURN, _MOST_STRETCH = 8.0, 4.0, 0.12
# The fit's steps at most: a card's fit converges within 30 (some 2 ms of CPU a card).
_ITERATIONS, _EPSILON = 30, 1e-4
_UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)


def realigned(frame: np.ndarray, quad: Quad, visible: float, reading: Reading,
              design: Design) -> Reading:
    """`reading` of a card declined at `quad` (of which the left `visible` share is in
    view), read again where fitting it to its guess's face places it: named there when
    the classifier, or after it the finer looks (`vision.rival_look`, `vision.twin_look`),
    name its guess; otherwise as it was."""
    if reading.card is not None or reading.guess is None:
        return reading
    outline = aligned(frame, quad, visible, ALL_CARDS.index(reading.guess), design)
    if outline is None:
        return reading
    again = classify_placed(frame, [outline], design, visible, resized=False)
    if again.guess != reading.guess:
        return reading
    if again.card is None:
        again = rival_checked(frame, outline, visible, again, design)
    checked = twin_checked(frame, outline, visible, again, design)
    return checked if checked.card == reading.guess else reading


def aligned(frame: np.ndarray, quad: Quad, visible: float, named: int,
            design: Design) -> Quad | None:
    """The outline where the card outlined near `quad`, of which the left `visible` share
    is in view, fits the fine face of card `named` best under an affine map; None where
    the fit fails or strays further than a card's outline can be off."""
    size = fine_size(design.aspect)
    card = straightened(frame, quad, size, BORDER)
    if card is None:
        return None
    seen = np.zeros(card.shape, np.uint8)
    seen[:, : BORDER + round(in_view(visible) * size[0])] = 1
    start = np.array([[1, 0, BORDER], [0, 1, BORDER]], np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, _ITERATIONS, _EPSILON)
    face = design.fine[named].astype(np.float32)
    try:
        _, warp = cv2.findTransformECC(face, card, start, cv2.MOTION_AFFINE, criteria, seen, 1)
    except cv2.error:  # the fit diverged: the card is too unlike the face to place by it
        return None
    if not plausible(warp):
        return None
    # The face's corners, in the card straightened with its border, back in the frame.
    scale = np.array(size, np.float32)
    corners = (_UNIT * scale) @ warp[:, :2].T + warp[:, 2] - BORDER
    to_frame = cv2.getPerspectiveTransform(_UNIT, quad.corners.astype(np.float32))
    units = (corners / scale).astype(np.float32)
    return Quad(cv2.perspectiveTransform(units[:, None], to_frame).reshape(4, 2))


def plausible(warp: np.ndarray) -> bool:
    """Whether an affine fit (2x3, from the face to the card straightened with its
    `BORDER`) moves, turns and stretches the card no further than an outline is off."""
    linear = warp[:, :2]
    stretch = np.hypot(linear[0], linear[1])  # of the face's width and height
    turn = np.degrees(np.arctan2(linear[1, 0], linear[0, 0]))
    # The turn is its width's: its height may lean further (a card turned in a row and
    # outlined from the row's edges is sheared). Held to the same 4 degrees, two coups
    # fewer were read on the tuning designs (840, not 842), none named wrong either way.
    # A mirrored card is no card.
    return bool(
        np.all(np.abs(warp[:, 2] - BORDER) <= _MOST_MOVE)
        and abs(turn) <= _MOST_TURN
        and np.all(np.abs(stretch - 1.0) <= _MOST_STRETCH)
        and np.linalg.det(linear) > 0
    )
