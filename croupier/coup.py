"""How a coup is dealt and decided (docs/RULES.md §3, §6): the pass mark, the phases of a
shoe, and the result of two complete rows."""

from __future__ import annotations

import enum
from functools import cache

from croupier.calls import CallWords, coup_calls
from croupier.cards import Card, Colour
from croupier.decisions import PAY_ORDER, Alarm, Chance, EndReason, Result, Row
from croupier.events import CardUnread
from croupier.value import Value

PASS_MARK = 30  # a row is complete at the first card that takes it past thirty


class Phase(enum.Enum):
    BURN = "burn"
    READY = "ready"  # between coups: the next card opens a coup
    NOIR = "noir"
    ROUGE = "rouge"
    STOPPED = "stopped"  # no more coups; cards still drawn are the talon
    CLOSED = "closed"


class ShoeState(Value):
    """A snapshot of the engine, for screens and for checking that replay rebuilds it."""

    phase: Phase
    number: int
    burn: tuple[Card, ...]
    noir: tuple[Card, ...]
    rouge: tuple[Card, ...]
    noir_point: int
    rouge_point: int
    face_up: tuple[tuple[Row, int], ...]  # where on the rows the face-up cards lie
    can_void: bool  # the last card drawn is still open to `VoidCard`
    coup_face_up: int
    face_up_coups: int
    burned: int
    dealt: int
    voided: int
    talon: int
    stop_reason: EndReason | None


def decide(noir: tuple[Card, ...], noir_point: int, rouge_point: int) -> tuple[
    Result, Chance | None, tuple[Chance, ...]
]:
    """Result, couleur/inverse and the chances to pay, in paying order (docs/RULES.md §3, §6)."""
    if noir_point == rouge_point:
        return (Result.REFAIT if noir_point == 31 else Result.APRES), None, ()
    result = Result.NOIR if noir_point < rouge_point else Result.ROUGE
    winning_colour = Colour.BLACK if result is Result.NOIR else Colour.RED
    couleur = Chance.COULEUR if noir[0].colour is winning_colour else Chance.INVERSE
    row_chance = Chance.NOIR if result is Result.NOIR else Chance.ROUGE
    return result, couleur, tuple(c for c in PAY_ORDER if c in (couleur, row_chance))


# A coup's result, couleur, chances paid and calls (French, English).
Verdict = tuple[Result, Chance | None, tuple[Chance, ...], tuple[str, ...], tuple[str, ...]]


def verdict(noir: tuple[Card, ...], noir_point: int, rouge_point: int,
            words: CallWords) -> Verdict:
    """`decide` and the calls of a coup, under a house's words."""
    result, couleur, pay = decide(noir, noir_point, rouge_point)
    return (result, couleur, pay, *coup_calls(noir_point, rouge_point, result, couleur, words))


@cache
def verdicts(words: CallWords) -> dict[tuple[int, int, bool], Verdict]:
    """The verdicts of the coups dealt under a house's words, filled as coups come and keyed
    by the two points and whether noir's first card is black: a verdict depends on nothing
    else, so each of the 200 is worked out once."""
    return {}


def extra_copy(card: Card, seen: int, copies: int) -> Alarm:
    """A card seen more often than the shoe's decks hold it."""
    return Alarm("seventh_copy", f"{card} seen {seen} times in a shoe of {copies} decks: "
                 "a foreign or duplicated card", card)


def unread(event: CardUnread) -> Alarm:
    """A card left the shoe unread: the tailleur confirms the reader's guess or names it."""
    guess = f" (best guess {event.guess}, {event.confidence:.0%})" if event.guess else ""
    return Alarm("card_unread", f"{event.source}: a card was not read{guess}; confirm it",
                 event.guess)
