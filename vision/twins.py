"""Suit twins: the card of the same rank in the other suit of its colour (KS and KC, 9H
and 9D). Partly hidden under the next card, a card and its twin differ only in a few small
pips, and the look around an outline has named one for the other."""

from __future__ import annotations

from typing import Final

import numpy as np

from croupier.cards import ALL_CARDS

# Each card's twin, by the order of a design's references (that of `ALL_CARDS`).
SUIT_TWIN: Final = np.array([
    next(
        k
        for k, other in enumerate(ALL_CARDS)
        if other.rank is card.rank and other.suit is not card.suit and other.colour is card.colour
    )
    for card in ALL_CARDS
])

# Below this confidence a card whose index alone fits its twin best is not named. Chosen on
# the tuning designs laid at speed (ten seed sets, 720 coups): it declined three of four
# twins named there and four cards named right; higher, right readings fall fast (at 1.0,
# fourteen) and no more twins are caught.
TWIN_SURE: Final = 0.7


def twin_doubted(index_fits: np.ndarray, top: int, confidence: float) -> bool:
    """Whether the card `top`, named with `confidence`, is in doubt for its index alone
    (`index_fits`, per reference) fitting its suit twin best."""
    return confidence < TWIN_SURE and int(np.argmax(index_fits)) == int(SUIT_TWIN[top])
