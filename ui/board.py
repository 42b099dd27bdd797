"""What the dealer screen shows, as plain data: a fold over the table's decisions.

No Qt here. The worker thread folds each event's decisions into a new `Board` and hands it to
the screen, so a widget only ever paints a finished, immutable picture; the replay view and
`croupier screenshot` fold the same way without any thread.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal

from croupier.calls import CallWords, point_call
from croupier.cards import SIXAIN_SIZE, Card
from croupier.decisions import (
    Alarm,
    CardPlaced,
    Chance,
    CoupDecided,
    CoupRetracted,
    CoupVoided,
    Decision,
    Rejected,
    Result,
    Row,
    Settlement,
    SettlementLine,
)
from croupier.engine import PASS_MARK, Phase, ShoeState
from croupier.events import CardDrawn, NewShoe
from croupier.ledger import Stake
from croupier.table import Event, Table

MAX_ALARMS = 50  # the screen keeps the most recent ones; the journal keeps them all


@dataclass(frozen=True, slots=True)
class Seen:
    """One card on a row as the screen draws it."""

    card: Card
    point: int  # the row's running point once this card is laid
    face_up: bool = False


@dataclass(frozen=True, slots=True)
class Layout:
    """The table's state the screen needs, copied out of the live `Table`."""

    shoe: ShoeState
    bets_open: bool
    stakes: tuple[Stake, ...]
    choices_open: bool
    rulebook: str
    face_up_limit: int
    prison_move: bool
    calls: CallWords  # the house's words for the points
    minimum: Decimal | None
    maximum: Decimal | None
    ended: bool
    awaiting_check: str | None  # an alarm the tailleur answers at the baize

    @classmethod
    def of(cls, table: Table) -> Layout:
        book = table.shoe.rulebook
        return cls(
            shoe=table.shoe.state(),
            bets_open=table.bets_open,
            stakes=tuple(table.ledger.stakes),
            choices_open=table.ledger.choices_open,
            rulebook=book.name,
            face_up_limit=book.face_up_coup_limit,
            prison_move=book.prison_move,
            calls=book.calls,
            minimum=table.ledger.minimum,
            maximum=table.ledger.maximum,
            ended=table.ended,
            awaiting_check=table.awaiting_check,
        )


@dataclass(frozen=True, slots=True)
class Board:
    """Everything on the dealer screen at one moment."""

    layout: Layout
    number: int = 0  # the coup on the rows
    noir: tuple[Seen, ...] = ()
    rouge: tuple[Seen, ...] = ()
    coup: CoupDecided | None = None  # the rows' coup once decided: its calls are shown
    voided: CoupVoided | None = None
    settlement: tuple[SettlementLine, ...] = ()
    premiums: tuple[SettlementLine, ...] = ()
    alarms: tuple[Alarm, ...] = ()  # most recent first
    unread: Alarm | None = None  # a card left the shoe unread: the tailleur must name it
    rejected: str | None = None
    shoe_size: int = SIXAIN_SIZE
    _face_up: frozenset[tuple[int, Row, int]] = field(default=frozenset(), repr=False)

    @property
    def noir_point(self) -> int:
        return self.noir[-1].point if self.noir else 0

    @property
    def rouge_point(self) -> int:
        return self.rouge[-1].point if self.rouge else 0

    @property
    def cards_left(self) -> int:
        shoe = self.layout.shoe
        return max(0, self.shoe_size - shoe.burned - shoe.dealt - shoe.voided - shoe.talon)

    @property
    def cut_passed(self) -> bool:
        return self.layout.shoe.phase in (Phase.STOPPED, Phase.CLOSED)

    @property
    def calls(self) -> tuple[tuple[str, str], ...]:
        """(French, English) calls to announce so far: the noir point as soon as its row is
        complete, then the rouge point and the result once the coup is decided."""
        if self.coup is not None:
            return tuple(zip(self.coup.calls, self.coup.calls_en, strict=True))
        if self.noir_point > PASS_MARK:
            return ((point_call(self.noir_point, words=self.layout.calls),
                     point_call(self.noir_point, english=True)),)
        return ()

    def chance_plan(self) -> tuple[tuple[Chance, ...], tuple[Chance, ...]]:
        """With no stakes entered: the chances to collect, then those to pay in order."""
        coup = self.coup
        if coup is None or coup.result in (Result.APRES, Result.REFAIT):
            return (), ()
        losing = tuple(c for c in (Chance.INVERSE, Chance.NOIR, Chance.ROUGE, Chance.COULEUR)
                       if c not in coup.pay)
        return losing, coup.pay


def initial_board(table: Table, *, shoe_size: int = SIXAIN_SIZE) -> Board:
    """The board of a table as it stands: a fresh one, or one restored from its journal
    in the middle of a coup."""
    return _live_rows(Board(Layout.of(table), shoe_size=shoe_size))


def fold(board: Board, event: Event, decisions: list[Decision], table: Table) -> Board:
    """The board after one event and its decisions, `table` being the state they left."""
    layout = Layout.of(table)
    b = replace(board, layout=layout, rejected=None)
    if isinstance(event, CardDrawn) and not _rejected(decisions):
        b = replace(b, unread=None)  # the card left unread has now been named
    if isinstance(event, NewShoe) and not _rejected(decisions):
        b = replace(b, number=0, noir=(), rouge=(), coup=None, voided=None, settlement=(),
                    premiums=(), _face_up=frozenset())
    alarms = list(b.alarms)
    for decision in decisions:
        if isinstance(decision, Alarm):
            alarms.insert(0, decision)
            if decision.code == "card_unread":
                b = replace(b, unread=decision)
        elif isinstance(decision, Rejected):
            b = replace(b, rejected=decision.reason)
        elif isinstance(decision, CoupDecided):
            b = replace(b, coup=decision, voided=None, number=decision.number, premiums=(),
                        noir=_seen(decision.noir, decision.number, Row.NOIR, b._face_up),
                        rouge=_seen(decision.rouge, decision.number, Row.ROUGE, b._face_up))
        elif isinstance(decision, CoupRetracted):
            if b.coup is not None and b.coup.number == decision.number:
                b = replace(b, coup=None, settlement=())
        elif isinstance(decision, CoupVoided):
            b = replace(b, voided=decision, coup=None, number=decision.number, noir=(),
                        rouge=(), settlement=())
        elif isinstance(decision, Settlement):
            b = _settle(b, decision)
        elif isinstance(decision, CardPlaced):
            b = _placed(b, decision)
    return _live_rows(replace(b, alarms=tuple(alarms[:MAX_ALARMS])))


def _live_rows(b: Board) -> Board:
    """While a coup is dealt the engine's rows are the truth (voids, corrections)."""
    shoe = b.layout.shoe
    if shoe.phase not in (Phase.NOIR, Phase.ROUGE):
        return b
    return replace(b, number=shoe.number, coup=None, voided=None,
                   noir=_seen(shoe.noir, shoe.number, Row.NOIR, b._face_up),
                   rouge=_seen(shoe.rouge, shoe.number, Row.ROUGE, b._face_up))


def _rejected(decisions: list[Decision]) -> bool:
    return len(decisions) == 1 and isinstance(decisions[0], Rejected)


def _placed(b: Board, placed: CardPlaced) -> Board:
    if placed.number != b.number or b.coup is not None or b.voided is not None:
        # The first card of a new coup clears the last coup's picture.
        b = replace(b, number=placed.number, coup=None, voided=None, noir=(), rouge=(),
                    settlement=(), premiums=(), _face_up=frozenset())
    if placed.face_up:
        row = b.noir if placed.row is Row.NOIR else b.rouge
        b = replace(b, _face_up=b._face_up | {(placed.number, placed.row, len(row))})
    return b


def _settle(b: Board, settlement: Settlement) -> Board:
    premiums = tuple(ln for ln in settlement.lines if ln.action.value == "premium")
    rest = tuple(ln for ln in settlement.lines if ln.action.value != "premium")
    # Withdrawals and prison choices answered at once follow the coup's plan: the cards
    # and the plan stay until the next coup's first card.
    return replace(b, premiums=b.premiums + premiums, settlement=b.settlement + rest)


def _seen(cards: tuple[Card, ...], number: int, row: Row,
          face_up: frozenset[tuple[int, Row, int]]) -> tuple[Seen, ...]:
    out: list[Seen] = []
    point = 0
    for i, card in enumerate(cards):
        point += card.points
        out.append(Seen(card, point, (number, row, i) in face_up))
    return tuple(out)
