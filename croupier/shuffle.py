"""Regulation shoes for demos, simulators, property tests and benchmarks."""

from __future__ import annotations

import random

from croupier.cards import ALL_CARDS, DECKS_IN_SIXAIN
from croupier.events import CardDrawn, CutCard, ShoeEvent

TALON = 5


def regulation_shoe(rng: random.Random, face_up_rate: float = 0.0) -> list[ShoeEvent]:
    """A shuffled sixain with the cut card before the last five cards (Art. 56)."""
    cards = list(ALL_CARDS) * DECKS_IN_SIXAIN
    rng.shuffle(cards)
    events: list[ShoeEvent] = [
        CardDrawn(card, face_up_rate > 0 and rng.random() < face_up_rate) for card in cards
    ]
    events.insert(len(events) - TALON, CutCard())
    return events
