"""Regulation shoes for demos, simulators, property tests and benchmarks."""

from __future__ import annotations

import random

from croupier.cards import ALL_CARDS, DECKS_IN_SIXAIN
from croupier.events import CardDrawn, CutCard, ShoeEvent
from croupier.rulebook import Rulebook, load_rulebook


def regulation_shoe(rng: random.Random, face_up_rate: float = 0.0,
                    rulebook: Rulebook | None = None) -> list[ShoeEvent]:
    """A shuffled sixain with the cut card before the rulebook's talon (default: the default
    rulebook's, five cards as Art. 56 has it)."""
    talon = (load_rulebook() if rulebook is None else rulebook).talon_cards
    cards = list(ALL_CARDS) * DECKS_IN_SIXAIN
    rng.shuffle(cards)
    events: list[ShoeEvent] = [
        CardDrawn(card, face_up_rate > 0 and rng.random() < face_up_rate) for card in cards
    ]
    events.insert(len(events) - talon, CutCard())
    return events
