"""Playing a shoe through the engine for its tests (no tests here): a shoe written as cards,
its coups, and the five cards of a burn."""

from __future__ import annotations

from croupier.cards import Card
from croupier.decisions import CoupDecided, Decision
from croupier.engine import play
from croupier.events import ShoeEmpty
from croupier.fixtures import parse_shoe
from croupier.rulebook import load_rulebook

BURN = "2C 3C 4C 5C 6C "


def run(text: str, rules: str = "venezia", *, close: bool = True) -> list[Decision]:
    events = parse_shoe(text)
    return play([*events, ShoeEmpty()] if close else events, load_rulebook(rules))


def coups(decisions: list[Decision]) -> list[CoupDecided]:
    return [d for d in decisions if isinstance(d, CoupDecided)]


def only_coup(text: str, rules: str = "venezia") -> CoupDecided:
    (coup,) = coups(run(BURN + text, rules))
    return coup


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())
