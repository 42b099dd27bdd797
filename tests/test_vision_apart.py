"""When a card's index or face alone fitting another card best declines it outright."""

from __future__ import annotations

import numpy as np

from croupier.cards import ALL_CARDS, Card
from vision.classifier import Reading, _apart
from vision.twins import SUIT_TWIN


def _fits(best: int) -> np.ndarray:
    fits = np.full(len(ALL_CARDS), 0.5)
    fits[best] = 0.9
    return fits


def test_only_a_card_clearly_apart_leaning_to_no_twin_is_left_to_its_confidence() -> None:
    top = ALL_CARDS.index(Card.parse("3C"))
    other, twin = ALL_CARDS.index(Card.parse("2C")), int(SUIT_TWIN[top])
    apart = Reading(None, ALL_CARDS[top], 0.4, 0.85, 0.3)
    close = Reading(None, ALL_CARDS[top], 0.4, 0.85, 0.1)
    assert _apart(apart, _fits(other), _fits(top), top)
    assert not _apart(close, _fits(other), _fits(top), top)
    assert not _apart(apart, _fits(twin), _fits(top), top)
    assert not _apart(apart, _fits(top), _fits(twin), top)
