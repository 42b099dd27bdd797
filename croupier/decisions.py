"""What leaves the engine: the decisions a table acts on."""

from __future__ import annotations

import enum
from decimal import Decimal

from croupier.cards import Card
from croupier.value import Value


class Row(enum.Enum):
    NOIR = "noir"
    ROUGE = "rouge"


class Chance(enum.Enum):
    ROUGE = "rouge"
    NOIR = "noir"
    COULEUR = "couleur"
    INVERSE = "inverse"


# Art. 56 (docs/RULES.md §6): after the collections the chances are paid in this order.
PAY_ORDER = (Chance.INVERSE, Chance.NOIR, Chance.ROUGE, Chance.COULEUR)


class Result(enum.Enum):
    NOIR = "noir"
    ROUGE = "rouge"
    APRES = "apres"
    REFAIT = "refait"


class VoidReason(enum.Enum):
    CUT_CARD = "cut_card"
    EXHAUSTED = "exhausted"
    CHEF = "chef"  # voided by the chef de table's correction


class EndReason(enum.Enum):
    CUT_CARD = "cut_card"
    FACE_UP_LIMIT = "face_up_limit"
    EXHAUSTED = "exhausted"
    CHEF = "chef"  # ended by the chef de table's correction


class Burned(Value):
    """The burn is complete (or cut short by the end of the shoe).

    `exposed`: face-up cards burned on top of the five under a rulebook that burns them;
    `unseen`: how many of the five were burned where no reader saw them.
    """

    cards: tuple[Card, ...]
    exposed: tuple[Card, ...] = ()
    unseen: int = 0


class CardPlaced(Value):
    """A card was laid on a row; `point` is that row's running point."""

    number: int
    row: Row
    card: Card
    point: int
    face_up: bool


class CardExposed(Value):
    """A face-up card was burned at once under a rulebook that does not count it."""

    number: int
    card: Card


class CardVoided(Value):
    """The last card drawn is void; the next card takes its place."""

    card: Card


class CoupDecided(Value):
    """Both rows are complete: the points, the result, the calls and what is paid."""

    number: int
    noir: tuple[Card, ...]
    rouge: tuple[Card, ...]
    noir_point: int
    rouge_point: int
    result: Result
    couleur: Chance | None
    calls: tuple[str, ...]
    calls_en: tuple[str, ...]
    pay: tuple[Chance, ...]
    face_up: int
    exposed: tuple[Card, ...]
    voided: tuple[Card, ...]


class CoupVoided(Value):
    """The coup in progress is void: its stakes are returned as they stood."""

    number: int
    reason: VoidReason


class DealStopped(Value):
    """No more coups in this shoe after coup `number`; the cards left are now the talon."""

    reason: EndReason
    number: int


class ShoeEnded(Value):
    """The shoe is closed, its cards reconciled."""

    reason: EndReason
    talon: int
    burned: int
    dealt: int
    voided: int

    @property
    def total(self) -> int:
        return self.burned + self.dealt + self.voided + self.talon


class Alarm(Value):
    """An integrity alarm for the chef de table: `code` is stable, `message` is for people."""

    code: str
    message: str
    card: Card | None = None


class Corrected(Value):
    """The chef de table corrected the game: who, why, and what was changed."""

    action: str
    who: str
    why: str
    detail: str


class CoupRetracted(Value):
    """Coup `number`'s result and settlement no longer stand: a correction re-decides it."""

    number: int


class BetsChanged(Value):
    """Bets were closed (rien ne va plus) or reopened before the coup's first card."""

    open: bool


class Rejected(Value):
    """An event that does not fit the state; it changed nothing."""

    reason: str


class Action(enum.Enum):
    """What the croupier does with one stake (docs/FORMATS.md (session scripts))."""

    COLLECT = "collect"
    PAY = "pay"
    PRISON = "prison"
    FREE = "free"
    SHARE = "share"
    MOVE = "move"
    RETURN = "return"
    STAND = "stand"
    PREMIUM = "premium"


class SettlementLine(Value):
    """One stake's fate. `amount`: what moves (winnings, what is given back, the premium)."""

    seat: int
    chance: Chance
    stake: Decimal
    action: Action
    amount: Decimal | None = None
    level: int | None = None
    to: Chance | None = None


class Settlement(Value):
    """What the croupier does, in the order he must do it, after coup `number`."""

    number: int
    lines: tuple[SettlementLine, ...]


Decision = (
    Burned
    | CardPlaced
    | CardExposed
    | CardVoided
    | CoupDecided
    | CoupVoided
    | DealStopped
    | ShoeEnded
    | Alarm
    | Rejected
    | Settlement
    | Corrected
    | CoupRetracted
    | BetsChanged
)
