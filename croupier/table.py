"""A table: the shoe engine and the stake ledger fed from one event stream."""

from __future__ import annotations

from croupier.decisions import (
    CardExposed,
    CardPlaced,
    CoupDecided,
    CoupVoided,
    DealStopped,
    Decision,
    Rejected,
)
from croupier.engine import Phase, Shoe
from croupier.events import (
    ChoosePrison,
    EndSession,
    PlaceStake,
    SetTable,
    ShoeEmpty,
    ShoeEvent,
    TableEvent,
    Withdraw,
)
from croupier.ledger import Ledger
from croupier.rulebook import Rulebook

Event = ShoeEvent | TableEvent


class Table:
    """One table's session; like the shoe, a fold over its log."""

    def __init__(self, rulebook: Rulebook) -> None:
        self.shoe = Shoe(rulebook)
        self.ledger = Ledger(rulebook)
        self.log: list[Event] = []
        self.ended = False

    @property
    def bets_open(self) -> bool:
        """From the end of the last coup to the next coup's first card (Swiss seed)."""
        return not self.ended and self.shoe.phase in (Phase.BURN, Phase.READY)

    def apply(self, event: Event) -> list[Decision]:
        """Feed one event; the decisions in order, or a single `Rejected` that changed nothing."""
        if self.ended:
            return [Rejected("the session has ended")]
        decisions = self._apply(event)
        if not (len(decisions) == 1 and isinstance(decisions[0], Rejected)):
            self.log.append(event)
        return decisions

    def _apply(self, event: Event) -> list[Decision]:
        if isinstance(event, PlaceStake):
            return self.ledger.place(event, bets_open=self.bets_open, number=self.shoe.number + 1)
        if isinstance(event, Withdraw):
            return self.ledger.withdraw(event, bets_open=self.bets_open,
                                        number=self.shoe.number + 1)
        if isinstance(event, ChoosePrison):
            return self.ledger.choose(event, number=self.shoe.number)
        if isinstance(event, SetTable):
            decisions = self.ledger.set_table(event, shoe_idle=self.shoe.idle)
            if not decisions:
                self.shoe.rulebook = self.ledger.rulebook
            return decisions
        if isinstance(event, EndSession):
            decisions = [] if self.shoe.phase is Phase.CLOSED else self._shoe(ShoeEmpty())
            final = self.ledger.end_of_session(self.shoe.number)
            self.ended = True
            return decisions + ([final] if final else [])
        return self._shoe(event)

    def _shoe(self, event: ShoeEvent) -> list[Decision]:
        out: list[Decision] = []
        voided = False
        for decision in self.shoe.apply(event):
            out.append(decision)
            if isinstance(decision, CardPlaced | CardExposed):
                self.ledger.close_choices()
            elif isinstance(decision, CoupDecided):
                out.append(self.ledger.settle(decision))
            elif isinstance(decision, CoupVoided):
                voided = True
            elif isinstance(decision, DealStopped):
                settlement = self.ledger.end_of_shoe(self.shoe.number, voided=voided)
                if settlement:
                    out.append(settlement)
        return out
