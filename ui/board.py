"""What the dealer screen shows, as plain data: a fold over the table's decisions.

No Qt here. The worker thread folds each event's decisions, with the table's own snapshot
(`croupier.view.TableView`) of what stands after it, into a new `Board` and hands it to the
screen, so a widget only ever paints a finished, immutable picture; the replay view and
`croupier screenshot` fold the same way without any thread. The board never asks the engine
anything else: what happened comes from the decisions, what stands from the snapshot.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, replace

from croupier.cards import Card
from croupier.decisions import (
    Action,
    Alarm,
    CardPlaced,
    CardVoided,
    Chance,
    CoupDecided,
    CoupRetracted,
    CoupVoided,
    Decision,
    Rejected,
    Row,
    Settlement,
    SettlementLine,
)
from croupier.engine import BAIZE_CHECK, Phase
from croupier.events import CardDrawn, NewShoe, TableEvent
from croupier.table import Event
from croupier.view import Laid, TableView, losing_chances, row_point

MAX_ALARMS = 50  # the screen keeps the most recent ones; the journal keeps them all


@dataclass(frozen=True, slots=True)
class Board:
    """Everything on the dealer screen at one moment."""

    view: TableView
    number: int = 0  # the coup on the rows
    noir: tuple[Laid, ...] = ()
    rouge: tuple[Laid, ...] = ()
    coup: CoupDecided | None = None  # the rows' coup once decided: its calls are shown
    voided: CoupVoided | None = None
    settlement: tuple[SettlementLine, ...] = ()  # the plan of the coup on the rows
    layout_lines: tuple[SettlementLine, ...] = ()  # premiums and returns for the next coup
    alarms: tuple[Alarm, ...] = ()  # most recent first: the screen's history of them
    fresh: tuple[Alarm, ...] = ()  # raised by the last event: said once, then in the history
    unread: Alarm | None = None  # a card left the shoe unread: the tailleur must name it
    rejected: str | None = None  # the last refusal, until a table event is accepted
    last_void: Card | None = None  # the card "annuler la carte" took back, until the next
    paid: frozenset[int] = frozenset()  # lines of `settlement` ticked off as done

    @property
    def noir_point(self) -> int:
        return row_point(self.noir)

    @property
    def rouge_point(self) -> int:
        return row_point(self.rouge)

    @property
    def banner(self) -> Alarm | None:
        """The alarm the tailleur must see now: a card to name and rows to check stay until
        answered; any other alarm until the next event."""
        if self.unread is not None:
            return self.unread
        if (check := self.view.awaiting_check) is not None:
            return next((a for a in self.alarms if a.code == BAIZE_CHECK),
                        Alarm(BAIZE_CHECK, check))
        return self.fresh[0] if self.fresh else None

    @property
    def calls(self) -> tuple[tuple[str, str], ...]:
        """(house words, English) to announce so far: the noir point as soon as its row is
        complete, then the rouge point and the result once the coup is decided."""
        if self.coup is not None:
            return tuple(zip(self.coup.calls, self.coup.calls_en, strict=True))
        return self.view.calls

    def chance_plan(self) -> tuple[tuple[Chance, ...], tuple[Chance, ...]]:
        """With no stakes entered: the chances to collect, then those to pay in order."""
        if self.coup is None:
            return (), ()
        return losing_chances(self.coup), self.coup.pay


def initial_board(view: TableView) -> Board:
    """The board of a table as it stands: a fresh one, or one restored from its journal
    in the middle of a coup."""
    return _live_rows(Board(view))


def fold(board: Board, event: Event, decisions: list[Decision], view: TableView, *,
         last: bool = True) -> Board:
    """The board after one event, its decisions, and `view`, the table as they left it.
    `last` False: the event is not the last of a batch applied whole, and `view` is the
    table after the batch; the rows are then the decisions' alone, so that a coup decided
    inside a batch is shown though the batch goes on to deal the next one."""
    if len(decisions) == 1 and isinstance(decisions[0], Rejected):
        # A refusal changed nothing but stays on the screen until something is accepted.
        return replace(board, view=view, rejected=decisions[0].reason)
    b = replace(board, view=view)
    if isinstance(event, TableEvent):
        b = replace(b, rejected=None)  # the tailleur's next accepted tap answers a refusal
    if isinstance(event, CardDrawn):
        b = replace(b, unread=None, last_void=None)  # the card left unread has been named
    if isinstance(event, NewShoe):
        b = replace(b, number=0, noir=(), rouge=(), coup=None, voided=None, settlement=(),
                    layout_lines=(), last_void=None, paid=frozenset())
    alarms = list(b.alarms)
    fresh: list[Alarm] = []
    for decision in decisions:
        match decision:
            case Alarm():
                alarms.insert(0, decision)
                fresh.insert(0, decision)
                if decision.code == "card_unread":
                    b = replace(b, unread=decision)
            case CardPlaced():
                b = _placed(b, decision)
            case CardVoided():
                b = replace(b, last_void=decision.card)
            case CoupDecided():
                b = replace(b, coup=decision, voided=None, number=decision.number,
                            noir=_decided(decision.noir, b.noir),
                            rouge=_decided(decision.rouge, b.rouge))
            case CoupRetracted() if b.coup is not None and b.coup.number == decision.number:
                # The card that decided it is re-dealt by the decisions that follow.
                b = replace(b, coup=None, settlement=(), rouge=b.rouge[:-1], paid=frozenset())
            case CoupVoided():
                b = replace(b, voided=decision, coup=None, number=decision.number, noir=(),
                            rouge=(), settlement=(), paid=frozenset())
            case Settlement():
                b = _settle(b, decision)
            case _:
                pass  # the other decisions show through the snapshot
    b = replace(b, alarms=tuple(alarms[:MAX_ALARMS]), fresh=tuple(fresh))
    return _live_rows(b) if last else b


def _live_rows(b: Board) -> Board:
    """While a coup is dealt the table's rows are the truth (voids, corrections)."""
    view = b.view
    if view.phase not in (Phase.NOIR, Phase.ROUGE):
        return b
    return replace(b, number=view.number, coup=None, voided=None, noir=view.noir,
                   rouge=view.rouge)


def _placed(b: Board, placed: CardPlaced) -> Board:
    if placed.number != b.number or b.coup is not None or b.voided is not None:
        # The first card of a new coup clears the last coup's picture, and the premiums and
        # returns of its betting, done as the stakes were laid.
        b = replace(b, number=placed.number, coup=None, voided=None, noir=(), rouge=(),
                    settlement=(), layout_lines=(), paid=frozenset())
    laid = Laid(placed.card, placed.point, placed.face_up)
    if placed.row is Row.NOIR:
        return replace(b, noir=(*b.noir, laid))
    return replace(b, rouge=(*b.rouge, laid))


def _decided(cards: tuple[Card, ...], seen: tuple[Laid, ...]) -> tuple[Laid, ...]:
    """The decided row, each card face up as it was laid."""
    out: list[Laid] = []
    point = 0
    for i, card in enumerate(cards):
        point += card.points
        up = i < len(seen) and seen[i].card == card and seen[i].face_up
        out.append(Laid(card, point, up))
    return tuple(out)


def _settle(b: Board, settlement: Settlement) -> Board:
    if settlement.number == b.number:
        # The coup's plan, and prison choices answered after it: they follow its plan.
        return replace(b, settlement=b.settlement + settlement.lines)
    # Premiums and withdrawals between coups belong to the coup being bet on.
    lines = tuple(ln for ln in settlement.lines if ln.action is not Action.STAND)
    return replace(b, layout_lines=b.layout_lines + lines)


def tick(board: Board, number: int, line: int, paid: bool) -> Board:
    """The board with line `line` of coup `number`'s plan ticked off (or back); unchanged
    when that plan is no longer on the screen."""
    if number != board.number or not 0 <= line < len(board.settlement):
        return board
    return replace(board, paid=board.paid | {line} if paid else board.paid - {line})


def paid_record(board: Board, line: int, paid: bool) -> dict[str, object]:
    """A tick as the journal keeps it: which plan (its coup, the cards dealt by then and the
    plan's own text, so that another shoe's coup of the same number never matches), which
    line, and whether it is now done."""
    return {"coup": board.number, "dealt": board.view.dealt, "plan": _plan_key(board),
            "line": line, "paid": paid}


def restore_ticks(board: Board, records: Iterable[dict[str, object]]) -> Board:
    """The board with the ticks the journal kept for the plan it shows."""
    key = (board.number, board.view.dealt, _plan_key(board))
    for record in records:
        line, paid = record.get("line"), record.get("paid")
        if (record.get("coup"), record.get("dealt"), record.get("plan")) != key:
            continue
        if isinstance(line, int) and isinstance(paid, bool):
            board = tick(board, board.number, line, paid)
    return board


def _plan_key(board: Board) -> str:
    text = "|".join(repr(line) for line in board.settlement)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
