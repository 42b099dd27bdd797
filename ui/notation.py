"""The cards, the chances and the casino's clock as the screens write them: what every
sentence of the chef's journal, the refusals and the alarms is made of."""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import Final

from croupier.cards import Card, Rank, Suit
from croupier.decisions import Chance
from croupier.errors import CardError
from ui.i18n import Lang, chance_name

SUIT_SIGNS: Final = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


def card_text(card: Card) -> str:
    """`TD` → `10♦`: what is printed on the card."""
    return ("10" if card.rank is Rank.TEN else card.rank.value) + SUIT_SIGNS[card.suit]


def local_time(at: str, zone: tzinfo | None) -> str:
    """A journal's UTC stamp as the casino's clock shows it, with its zone: `21:04:07 CET`
    (`zone` None: this computer's zone)."""
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        return at
    if moment.tzinfo is None:
        return at  # not a journal's stamp: shown as it is rather than guessed at
    local = moment.astimezone(zone)
    return local.strftime("%H:%M:%S ") + (local.tzname() or local.strftime("%z"))


def chance_word(name: object, lang: Lang) -> str:
    """A chance named in the engine's words (`noir`) as the sentence says it; one unknown
    here as it is."""
    try:
        return chance_name(Chance(str(name)), lang).lower()
    except ValueError:
        return str(name)


def card_word(name: str) -> str:
    """A card named in the engine's words (`TD`) as printed on it; one unknown as it is."""
    try:
        return card_text(Card.parse(name))
    except CardError:
        return name
