"""Reading the cards a layout's rows were parted into: each where it was outlined, looked
for around its outline, further when not named there, and again beside its suit twin."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from croupier.cards import ALL_CARDS
from vision.aligned import realigned
from vision.classifier import (
    CONFIDENCE_BAR,
    Around,
    Reading,
    classify_around_each,
    classify_placed_each,
    declined,
    on_one_core,
)
from vision.design import Design
from vision.first_reads import classify_each
from vision.flat_look import flat_checked
from vision.found import found_at
from vision.look import Looks
from vision.quad import Quad, along_top_edge, from_left_edge, grow, widened
from vision.rival_look import rival_checked, rival_looked
from vision.rows import RowCard
from vision.twin_look import looked_closer, twin_checked
from vision.twins import SUIT_TWIN

# A card read where it was outlined, before looking around it, is named at once only when
# this sure (an outline placed a little off may pass an ace of spades for one of clubs;
# glare over the middle pip of a three of spades the finder outlined passed it for the
# two, at 0.65); less sure, it is looked for further.
_FIRST_SURE = 0.75
# A card looked for around its own outline alone is named only when this sure: on the
# tuning designs, cards named there wrongly were 0.61 and 0.67 sure, right ones up to 1.
_NEAR_SURE = 0.9
# A card seen larger than this many times the classifier's size is shrunk once, with this
# share of its size around it (every outline tried lies within it).
_SHRINK_FROM, _AROUND = 1.2, 0.25
_WIDTH_STEP = 0.08  # of a card's width: how far its outline's right side may be off
# The sides (top, right, bottom, left) a framed card's outline drawn by the finder is also
# grown on: its top or left side may lie on the card's edge already, where the frame stood
# out less against the baize (the light falls unevenly).
_PART_GROWN = ((False, True, True, True), (True, True, True, False), (False, True, True, False))
_HIDDEN_MORE = 0.1  # of a card's width
# A look around a card's outline fitting it this much worse than the outline itself has
# strayed off the card. Chosen on the tuning designs laid at speed (twelve seed sets, 864
# coups): the 17 cards it lets stand were all of framed designs (105, 106), and none is
# named wrong there at 0.05 or 0.1.
_ASTRAY = 0.1


@on_one_core
def read_card(frame: np.ndarray, spot: RowCard, design: Design) -> Reading:
    """What the classifier makes of a card found on the baize (`read_cards`)."""
    return read_cards(frame, [spot], design)[0]


@on_one_core
def read_cards(frame: np.ndarray, spots: Sequence[RowCard], design: Design) -> list[Reading]:
    """What the classifier makes of each card found on the baize.

    Each is read where it was outlined, and looked for around its outline too (and around
    the outline grown to the edges of a design framed near them: the finder may outline
    the paper inside the frame): an outline placed from a row's edges may be a few pixels
    off, and the finder may be misled by glare or a chip. Named surely where it was
    outlined (`_FIRST_SURE`), it stands when the look around does not gainsay it
    (`_stands`) nor leaves it torn between it and its suit twin (the cards named are
    looked for around together: the products over the references are made once for all);
    otherwise it is looked for further
    (`_look_further`). A card named is looked at again, finer, beside its suit twin
    (`vision.twin_look`), where the look around its outlines found it; and a card declined as
    unsure beside its closest rivals first (`vision.rival_look`). A card still declined, in
    a frame whose cards are mostly named, is looked at last with its light evened out and
    what covers it left aside (`vision.flat_look`).
    """
    near = [_near(frame, spot, design) for spot in spots]
    firsts = classify_each([(piece, spot.quad, spot.visible) for piece, spot in near], design)
    looks: list[Looks] = [{} for _ in spots]
    named = [
        k for k, reading in enumerate(firsts)
        if reading.card is not None and reading.confidence >= _FIRST_SURE
    ]
    # A second look, around the outline: it must guess the same card and name no other.
    arounds = classify_around_each(
        [Around(near[k][0], _outlines(near[k][1], design), near[k][1].visible, looks[k])
         for k in named],
        design,
    )
    readings = list(firsts)
    tied: set[int] = set()
    for k, around in zip(named, arounds, strict=True):
        reading = firsts[k]
        if not _stands(reading, around):
            if _twin_guessed(reading, around):
                tied.add(k)
            else:
                readings[k] = declined(reading)
        elif _twin_tied(reading, around):
            tied.add(k)
    # The others are looked for further, all together at each step.
    rest = [k for k in range(len(spots)) if k not in named or k in tied]
    further = _look_further([(*near[k], looks[k], firsts[k]) for k in rest], design)
    for k, reading in zip(rest, further, strict=True):
        readings[k] = reading
    closer = [
        _closer(frame, spot, looks[k], reading, design)
        for k, (spot, reading) in enumerate(zip(spots, readings, strict=True))
    ]
    # The last look (`vision.flat_look`) compares pips where they lie, which any design's
    # cards share: it is asked only in a frame whose cards, named mostly already, say they
    # are of the design given (the built-in design, reading another design's coups, names
    # none of their cards without it, and two a coup with it, were it asked there).
    if 2 * sum(reading.card is not None for reading in closer) <= len(closer):
        return closer
    return [
        _flat(frame, spot, looks[k], reading, design)
        for k, (spot, reading) in enumerate(zip(spots, closer, strict=True))
    ]


def _flat(frame: np.ndarray, spot: RowCard, looks: Looks, reading: Reading,
          design: Design) -> Reading:
    """`reading` after the last look (`vision.flat_look`) where the look around the card's
    outlines found it, if it is declined with a guess."""
    if reading.card is not None or reading.guess is None:
        return reading
    found = _found(spot, looks, reading, design)
    return flat_checked(frame, found or spot.quad, spot.visible, reading, design)


def _closer(frame: np.ndarray, spot: RowCard, looks: Looks, reading: Reading,
            design: Design) -> Reading:
    """`reading` after the finer looks where the look around its outlines found the card:
    beside its closest rivals (`vision.rival_look`), then beside its suit twin; still
    declined, it is read again where fitting it to its guess's face places it
    (`vision.aligned`)."""
    if not (looked_closer(reading) or rival_looked(reading)):
        return reading
    found = _found(spot, looks, reading, design)
    reading = rival_checked(frame, spot.quad, spot.visible, reading, design, found=found)
    if not looked_closer(reading):
        return reading
    reading = twin_checked(frame, spot.quad, spot.visible, reading, design, found=found)
    return realigned(frame, found or spot.quad, spot.visible, reading, design)


def _stands(first: Reading, around: Sequence[Reading]) -> bool:
    """Whether a card named where it was outlined stands by the look around its outline: it
    guesses the card and names no other; or it names none, fitting clearly worse than the
    outline itself (`_ASTRAY`), so that what it guesses says nothing against the card."""
    seen = {r.card for r in around if r.card is not None}
    if seen <= {first.card} and first.card in {r.guess for r in around}:
        return True
    return not seen and max(r.score for r in around) < first.score - _ASTRAY


def _twin_tied(first: Reading, around: Sequence[Reading]) -> bool:
    """Whether a card named where it was outlined fits better around its outline, yet
    unsure there for its suit twin alone: in a design whose twins differ only in a few small
    pips (court cards alike but for them), how sure it was where it was outlined measures
    the outline's misplacement more than its suit (a JC of design 108, seed 64 800, was so
    named the JS, 0.92 sure)."""
    return first.card not in {r.card for r in around} and any(
        r.guess == first.card and r.untwinned >= CONFIDENCE_BAR and r.score > first.score
        for r in around
    )


def _twin_guessed(first: Reading, around: Sequence[Reading]) -> bool:
    """Whether the look around a card named surely where it was outlined names nothing and
    guesses only its suit twin: on designs whose court cards differ only in their small
    pips, a look a few pixels off the card sees the pips no better than the outline did,
    and the look beside the twin (`vision.twin_look`) settles it, as for a card tied with
    its twin (`_twin_tied`). Five court cards named right at their outlines were so
    declined on the tuning coups (design 106, seed 78 307: a KC guessed the KS around it)."""
    twin = ALL_CARDS[int(SUIT_TWIN[ALL_CARDS.index(first.card)])] if first.card else None
    return all(r.card is None and r.guess == twin for r in around)


def _grown(spot: RowCard, design: Design) -> list[Quad]:
    """The card's outline grown to the edges of a design framed near them, if it is one."""
    return [grow(spot.quad, design.inset)] if design.inset != (0.0, 0.0) else []


def _outlines(spot: RowCard, design: Design, *, grown: bool = False) -> list[Quad]:
    """The outlines a card named where it was outlined is looked for around (`grown`: a
    card not named there), before any is rebuilt."""
    return [spot.quad, *_grown(spot, design)] if grown or not spot.placed else [spot.quad]


def _look_further(cards: Sequence[_Pending], design: Design) -> list[Reading]:
    """Cards not named where they were outlined (each in its frame, with what was seen
    around its outlines, and its first reading): each looked for around its outlines, and
    named there when sure; otherwise around all its outlines at once, rebuilt from its left
    edge as well, and named only where it fits best by the margin any card must show, and
    does not name another less surely than where it was outlined. The cards are looked for
    together at each step, the products over the references made once for all."""
    readings: list[Reading] = [Reading(None, None, 0.0)] * len(cards)
    # The next card, turned, may hide more of a card at one corner than its share in view
    # measured along its top and bottom edges says: a hidden card is tried at less.
    pending = list(range(len(cards)))
    for less in (0.0, _HIDDEN_MORE):
        pending = [k for k in pending if not less or cards[k][1].visible < 1.0]
        shares = [cards[k][1].visible - less for k in pending]
        # Looked for around where it was outlined first, and named there when sure: each
        # outline more costs as much as the first. (Named there less surely, a card may
        # still be another, which another outline shows to fit better.)
        near = classify_placed_each(
            [_around(cards[k], share, design) for k, share in zip(pending, shares, strict=True)],
            design,
            resized=False,
        )
        unsure = [j for j, reading in enumerate(near) if reading.confidence < _NEAR_SURE]
        for k, reading in zip(pending, near, strict=True):
            readings[k] = reading
        full = classify_placed_each(
            [_around(cards[pending[j]], shares[j], design, rebuilt=True) for j in unsure], design
        )
        for j, reading in zip(unsure, full, strict=True):
            readings[pending[j]] = _agreed(cards[pending[j]][3], reading)
        pending = [
            pending[j] for j, reading in zip(unsure, full, strict=True) if reading.card is None
        ]
    return readings


# A card not named where it was outlined: its frame, the card, what was seen around its
# outlines, and its first reading.
_Pending = tuple[np.ndarray, RowCard, Looks, Reading]


def _agreed(first: Reading, reading: Reading) -> Reading:
    """`reading`, declined when it names a card another than the one named, more surely,
    where the card was outlined: it may be either."""
    agrees = first.card in (None, reading.card) or reading.confidence > first.confidence
    return reading if reading.card is None or agrees else declined(reading)


def _around(
    card: _Pending,
    visible: float,
    design: Design,
    *,
    rebuilt: bool = False,
) -> Around:
    """A card not named where it was outlined, to look for around its outlines there, or
    around all of them at once, rebuilt from its left edge as well."""
    frame, spot, looks, _ = card
    outlines = _outlines(spot, design, grown=True)
    if spot.also is not None:  # the finder's outline of a card under the next, widened
        outlines.append(spot.also)
    if rebuilt:
        outlines += _rebuilt(spot, design)
    return Around(frame, outlines, visible, looks)


def _rebuilt(spot: RowCard, design: Design) -> list[Quad]:
    """The outline's right side is the least sure: it lies under the next card or beside
    it, and the finder may take the neighbour's edge for it. The left edge, which a row
    never hides, gives the card again at the design's proportions: square to it, or along
    the card's own top edge (the camera's view shears a little); and the right side is
    tried a little nearer and further."""
    grown = _grown(spot, design)
    rebuilt = [from_left_edge(q, design.aspect) for q in [spot.quad, *grown]]
    rebuilt.append(along_top_edge(spot.quad, design.aspect))
    rebuilt += [widened(spot.quad, 1 + step) for step in (-_WIDTH_STEP, _WIDTH_STEP)]
    if grown and not spot.placed:
        rebuilt += [grow(spot.quad, design.inset, sides) for sides in _PART_GROWN]
    return rebuilt


def _found(spot: RowCard, looks: Looks, reading: Reading, design: Design) -> Quad | None:
    """Where the look around a card's outlines found the card it names or guesses, in the
    frame (`vision.found`); None when it was not looked around."""
    card = reading.card or reading.guess
    where = found_at(looks, card, spot.visible, design) if card is not None else None
    if where is None:
        return None
    box = _piece(spot, design)
    if box is None:
        return where
    origin, factor = box
    return Quad((where.corners * factor + origin).astype(np.float32))


def _piece(spot: RowCard, design: Design) -> tuple[np.ndarray, float] | None:
    """Where the part of the frame a card is read in begins, and how much it is shrunk
    there (`_near`); None when the card is read in the frame itself."""
    factor = min(spot.quad.width / design.size[0], spot.quad.height / design.size[1])
    if factor <= _SHRINK_FROM:
        return None
    reach = _AROUND * max(spot.quad.width, spot.quad.height)
    origin = np.maximum(np.floor(spot.quad.corners.min(axis=0) - reach), 0)
    return origin.astype(np.float32), factor


def _near(frame: np.ndarray, spot: RowCard, design: Design) -> tuple[np.ndarray, RowCard]:
    """The part of the frame around a card, shrunk once to about the size the classifier
    compares cards at, and the card in it: the many outlines tried around a card are then
    each cut from one small image, where each would shrink its own piece of the frame."""
    box = _piece(spot, design)
    if box is None:
        return frame, spot
    origin, factor = box
    corners = spot.quad.corners
    reach = _AROUND * max(spot.quad.width, spot.quad.height)
    x0, y0 = origin.astype(int)
    x1, y1 = np.ceil(corners.max(axis=0) + reach).astype(int) + 1
    piece = frame[y0:y1, x0:x1]
    small = _shrunk(piece, 1 / factor)

    def moved(quad: Quad) -> Quad:
        return Quad(((quad.corners - origin) / factor).astype(np.float32))

    also = moved(spot.also) if spot.also is not None else None
    return small, RowCard(moved(spot.quad), spot.visible, spot.placed, also)


_WHOLE_RATIO = 1e-6


def _shrunk(image: np.ndarray, scale: float) -> np.ndarray:
    """`image` resized by `scale` (< 1), each pixel the mean of what it covers. An 8-bit
    image is shrunk in floating point and rounded: the same pixels as OpenCV's 8-bit path
    gives, in two thirds of its time; but for a whole number of pixels into one, which
    that path sums in integers and rounds its own way (and fast)."""
    whole = abs(1 / scale - round(1 / scale)) < _WHOLE_RATIO
    if image.dtype != np.uint8 or whole:
        return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    wide = cv2.resize(
        image.astype(np.float32), None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA
    )
    return np.rint(wide).astype(np.uint8)
