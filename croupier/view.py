"""What a screen shows of a table at one moment, as the table itself says it.

A screen folds decisions for what happened (a coup decided, a settlement, an alarm) and takes
this snapshot for what stands now: the rows with their running points, the stakes on the
layout, the phase and the actions the table would accept. Nothing outside `croupier/` needs
the engine's internals, and no screen re-derives a rule.
"""

from __future__ import annotations

import enum
from decimal import Decimal
from typing import assert_never

from croupier.calls import CallWords, point_call
from croupier.cards import SIXAIN_SIZE, Card
from croupier.decisions import (
    PAY_ORDER,
    Action,
    Chance,
    CoupDecided,
    Result,
    Row,
    SettlementLine,
)
from croupier.engine import PASS_MARK, Phase, ShoeState
from croupier.stakes import Stake
from croupier.value import Value


class Allowed(enum.Enum):
    """What the tailleur may do now; a button for anything else would only be refused."""

    CLOSE_BETS = "close_bets"  # rien ne va plus
    STAKE = "stake"  # place or withdraw
    CHOOSE_PRISON = "choose_prison"
    CHECK_BAIZE = "check_baize"
    VOID_CARD = "void_card"
    COUNT_TALON = "count_talon"
    NEW_SHOE = "new_shoe"


class Laid(Value):
    """One card on a row: the row's running point once it is laid, and whether it came out
    face up."""

    card: Card
    point: int
    face_up: bool = False


def row_point(row: tuple[Laid, ...]) -> int:
    """A row's point so far: its last card's running point."""
    return row[-1].point if row else 0


class StakeTotals(Value):
    """The layout's sums, for the tailleur to check against the chips on the baize."""

    free: Decimal = Decimal(0)
    in_prison: Decimal = Decimal(0)
    insured: Decimal = Decimal(0)
    premiums: Decimal = Decimal(0)  # insurance owed for the coup to come


class TableView(Value):
    """A table as a screen draws it; see `view`."""

    rulebook: str
    phase: Phase
    number: int  # the coup on the rows, or the last one dealt
    betting_on: int  # the coup the stakes on the layout are for
    noir: tuple[Laid, ...]
    rouge: tuple[Laid, ...]
    calls: tuple[tuple[str, str], ...]  # (house words, English) announced so far this coup
    burn: int  # cards of the burn so far
    dealt: int
    voided: int
    talon: int
    cards_left: int
    face_up_coups: int
    face_up_limit: int  # 0: none
    cut_passed: bool
    closed: bool
    ended: bool
    bets_open: bool
    choices_open: bool
    prison_move: bool
    stakes: tuple[Stake, ...]
    totals: StakeTotals
    minimum: Decimal | None
    maximum: Decimal | None
    awaiting_check: str | None  # the alarm the tailleur answers at the baize
    allowed: frozenset[Allowed]

    @property
    def noir_point(self) -> int:
        return row_point(self.noir)

    @property
    def rouge_point(self) -> int:
        return row_point(self.rouge)

    @property
    def prisoners(self) -> tuple[Stake, ...]:
        """Prisoners whose owners may still share, keep or move them."""
        return tuple(s for s in self.stakes if s.choosable) if self.choices_open else ()


class TableFacts(Value):
    """What `croupier.table.Table` hands `view`: its own state beside the shoe's."""

    rulebook: str
    face_up_limit: int
    copies_per_card: int
    prison_move: bool
    calls_words: CallWords
    bets_open: bool
    choices_open: bool
    stakes: tuple[Stake, ...]
    minimum: Decimal | None
    maximum: Decimal | None
    ended: bool
    awaiting_check: str | None
    can_void: bool  # the last card drawn may still be voided


def view(shoe: ShoeState, facts: TableFacts) -> TableView:
    """The snapshot of a table whose shoe stands at `shoe`."""
    phase = shoe.phase
    between = phase in (Phase.BURN, Phase.READY) and not facts.ended
    size = 52 * facts.copies_per_card if facts.copies_per_card else SIXAIN_SIZE
    burn = len(shoe.burn) if phase is Phase.BURN else shoe.burned
    return TableView(
        rulebook=facts.rulebook,
        phase=phase,
        number=shoe.number,
        betting_on=shoe.number + 1 if between else shoe.number,
        noir=_laid(shoe.noir, Row.NOIR, shoe.face_up),
        rouge=_laid(shoe.rouge, Row.ROUGE, shoe.face_up),
        calls=_calls(shoe, facts.calls_words),
        burn=burn,
        dealt=shoe.dealt,
        voided=shoe.voided,
        talon=shoe.talon,
        cards_left=max(0, size - shoe.burned - shoe.dealt - shoe.voided - shoe.talon),
        face_up_coups=shoe.face_up_coups,
        face_up_limit=facts.face_up_limit,
        cut_passed=phase in (Phase.STOPPED, Phase.CLOSED),
        closed=phase is Phase.CLOSED,
        ended=facts.ended,
        bets_open=facts.bets_open,
        choices_open=facts.choices_open,
        prison_move=facts.prison_move,
        stakes=facts.stakes,
        totals=_totals(facts.stakes),
        minimum=facts.minimum,
        maximum=facts.maximum,
        awaiting_check=facts.awaiting_check,
        allowed=_allowed(phase, facts),
    )


def losing_chances(coup: CoupDecided) -> tuple[Chance, ...]:
    """The chances collected on a decided coup, in the order they are collected; none on an
    après or a refait, whose stakes are halved or imprisoned instead."""
    if coup.result in (Result.APRES, Result.REFAIT):
        return ()
    return tuple(c for c in PAY_ORDER if c not in coup.pay)


def _laid(cards: tuple[Card, ...], row: Row,
          face_up: tuple[tuple[Row, int], ...]) -> tuple[Laid, ...]:
    out: list[Laid] = []
    point = 0
    for i, card in enumerate(cards):
        point += card.points
        out.append(Laid(card, point, (row, i) in face_up))
    return tuple(out)


def _calls(shoe: ShoeState, words: CallWords) -> tuple[tuple[str, str], ...]:
    """The noir point is announced as soon as its row is complete; the rest once decided,
    which the coup's own decision says."""
    if shoe.phase is Phase.ROUGE and shoe.noir_point > PASS_MARK:
        return ((point_call(shoe.noir_point, words=words),
                 point_call(shoe.noir_point, english=True)),)
    return ()


def _totals(stakes: tuple[Stake, ...]) -> StakeTotals:
    free = sum((s.amount for s in stakes if not s.in_prison), Decimal(0))
    prison = sum((s.amount for s in stakes if s.in_prison), Decimal(0))
    insured = sum((s.insured for s in stakes), Decimal(0))
    premiums = sum((s.premium for s in stakes), Decimal(0))
    return StakeTotals(free, prison, insured, premiums)


def _allowed(phase: Phase, facts: TableFacts) -> frozenset[Allowed]:
    allowed: set[Allowed] = set()
    if facts.ended:
        return frozenset()
    if facts.bets_open:
        allowed.add(Allowed.STAKE)
        if facts.awaiting_check is None:
            allowed.add(Allowed.CLOSE_BETS)
    if facts.choices_open and any(s.choosable for s in facts.stakes):
        allowed.add(Allowed.CHOOSE_PRISON)
    if facts.awaiting_check is not None:
        allowed.add(Allowed.CHECK_BAIZE)
    if facts.can_void:
        allowed.add(Allowed.VOID_CARD)
    if phase is Phase.STOPPED:
        allowed.add(Allowed.COUNT_TALON)
    if phase in (Phase.STOPPED, Phase.CLOSED):
        allowed.add(Allowed.NEW_SHOE)
    return frozenset(allowed)


class PlanTotals(Value):
    """What a plan moves across the table: chips taken in, paid out and handed back."""

    collected: Decimal = Decimal(0)
    paid: Decimal = Decimal(0)
    returned: Decimal = Decimal(0)


def plan_totals(lines: tuple[SettlementLine, ...]) -> PlanTotals:
    collected = paid = returned = Decimal(0)
    for line in lines:
        moved = line.amount if line.amount is not None else line.stake
        match line.action:
            case Action.COLLECT:
                collected += line.stake
            case Action.PREMIUM:
                collected += moved
            case Action.PAY:
                paid += moved
            case Action.SHARE | Action.RETURN | Action.FREE:
                returned += moved
            case Action.PRISON | Action.MOVE | Action.STAND:
                pass  # the chips stay on the layout
            case _ as unreachable:
                assert_never(unreachable)
    return PlanTotals(collected, paid, returned)
