"""A table: the shoe engine and the stake ledger fed from one event stream."""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier.decisions import (
    BetsChanged,
    CardExposed,
    CardPlaced,
    Corrected,
    CoupDecided,
    CoupRetracted,
    CoupVoided,
    DealStopped,
    Decision,
    EndReason,
    Rejected,
    Settlement,
)
from croupier.engine import Phase, Shoe
from croupier.events import (
    BaizeChecked,
    BurnUnseen,
    CardDrawn,
    CardDropped,
    CardUnread,
    ChoosePrison,
    CloseBets,
    CorrectCard,
    CutCard,
    DeviceAlarm,
    EndSession,
    EndShoe,
    NewShoe,
    PlaceStake,
    ReopenBets,
    SetTable,
    ShoeEmpty,
    ShoeEvent,
    TableEvent,
    VoidCard,
    VoidCoup,
    Withdraw,
    not_an_event,
)
from croupier.ledger import Ledger
from croupier.rulebook import PrisonerFate, Rulebook

if TYPE_CHECKING:  # the snapshot is a screen's: a replay never builds one
    from croupier.view import TableView

Event = ShoeEvent | TableEvent
# Events that leave a card open to correction: nobody has acted on it yet.
_NEUTRAL = (CardUnread, DeviceAlarm, CloseBets, BaizeChecked)


class Table:
    """One table's session; like the shoe, a fold over its log."""

    def __init__(self, rulebook: Rulebook) -> None:
        self.initial_rulebook = rulebook
        self.shoe = Shoe(rulebook)
        self.ledger = Ledger(rulebook)
        self.log: list[Event] = []  # every accepted event, corrections included
        self.ended = False
        self._effective: list[Event] = []  # the events as corrected, what the state folds
        self._bets_closed = False
        self._decided_by_last = False  # the last card drawn decided a coup
        self._unchecked: str | None = None  # an alarm asking to check the baize, unanswered

    @property
    def bets_open(self) -> bool:
        """From "messieurs, les cinq cartes" (the burn done) or the end of the last coup to
        "rien ne va plus" or the next coup's first card (Venezia, The Cards)."""
        return self._between_coups and self.ledger.refused is None

    @property
    def _between_coups(self) -> bool:
        """Past the burn and before rien ne va plus or the next coup's first card."""
        burned = self.shoe.phase is Phase.READY or (
            self.shoe.phase is Phase.BURN and self.shoe.rulebook.burn_cards == 0)
        return not self.ended and not self._bets_closed and burned

    @property
    def awaiting_check(self) -> str | None:
        """The alarm that asked the tailleur to check the rows against the baize, until
        `BaizeChecked` answers it; "rien ne va plus" waits for it."""
        return self._unchecked

    @property
    def shoe_open(self) -> bool:
        """The session goes on and its shoe is not closed: the end of a script closes it."""
        return not self.ended and self.shoe.phase is not Phase.CLOSED

    def view(self) -> TableView:
        """The table as a screen shows it now."""
        from croupier.view import TableFacts, view

        book, ledger, shoe = self.shoe.rulebook, self.ledger, self.shoe.state()
        return view(shoe, TableFacts(
            rulebook=book.name,
            face_up_limit=book.face_up_coup_limit,
            copies_per_card=book.copies_per_card,
            prison_move=book.prison_move,
            calls_words=book.calls,
            bets_open=self.bets_open,
            choices_open=ledger.choices_open,
            stakes=tuple(ledger.stakes),
            minimum=ledger.minimum,
            maximum=ledger.maximum,
            ended=self.ended,
            awaiting_check=self._unchecked,
            can_void=shoe.can_void or self._decided_last(),
        ))

    def apply(self, event: Event) -> list[Decision]:
        """Feed one event; the decisions in order, or a single `Rejected` that changed nothing."""
        if self.ended:
            return [Rejected("the session has ended")]
        if self.ledger.refused is not None and not isinstance(event, SetTable | EndSession):
            return [Rejected(f"the table's set-up was refused ({self.ledger.refused}): "
                             "nothing is accepted until a valid table set-up")]
        if isinstance(event, CorrectCard):
            decisions = self._correct(event)  # rewrites the history it folds
        else:
            decisions = self._apply(event)
            if _rejected(decisions) and isinstance(event, VoidCard) and self._decided_last():
                decisions = self._void_decided()  # rewrites the history it folds
            elif not _rejected(decisions):
                self._effective.append(event)
        if not _rejected(decisions):
            self.log.append(event)
        return decisions

    def _apply(self, event: Event) -> list[Decision]:
        match event:
            case (CardDrawn() | CardDropped() | BurnUnseen() | CutCard() | VoidCard()
                  | ShoeEmpty() | NewShoe() | CardUnread() | VoidCoup() | EndShoe()):
                return self._shoe(event)
            case DeviceAlarm():
                if event.check:
                    self._unchecked = event.text
                return self._shoe(event)
            case PlaceStake():
                return self.ledger.place(event, bets_open=self.bets_open,
                                         number=self.shoe.number + 1)
            case Withdraw():
                return self.ledger.withdraw(event, bets_open=self.bets_open,
                                            number=self.shoe.number + 1)
            case ChoosePrison():
                return self.ledger.choose(event, bets_open=self.bets_open,
                                          number=self.shoe.number)
            case SetTable():
                decisions = self.ledger.set_table(event, shoe_idle=self.shoe.idle,
                                                  bets_open=self._between_coups)
                if not decisions:
                    self.shoe.rulebook = self.ledger.rulebook
                return decisions
            case CloseBets():
                if not self.bets_open:
                    return [Rejected("bets are already closed")]
                if self._unchecked is not None:
                    return [Rejected(f"check the rows against the baize first "
                                     f"({self._unchecked})")]
                self._bets_closed = True
                return [BetsChanged(open=False)]
            case ReopenBets():
                if not self._bets_closed or self.shoe.phase not in (Phase.BURN, Phase.READY):
                    return [Rejected("bets can be reopened only after rien ne va plus and "
                                     "before the coup's first card")]
                self._bets_closed = False
                return [Corrected("reopen_bets", event.who, event.why, "bets reopened"),
                        BetsChanged(open=True)]
            case EndSession():
                decisions = [] if self.shoe.phase is Phase.CLOSED else self._shoe(ShoeEmpty())
                final = self.ledger.end_of_session(self.shoe.number)
                self.ended = True
                return decisions + ([final] if final else [])
            case CorrectCard():
                return [Rejected("a correction is not replayed inside a correction")]
            case BaizeChecked():
                if self._unchecked is None:
                    return [Rejected("no alarm asks for the baize to be checked")]
                checked, self._unchecked = self._unchecked, None
                return [Corrected("baize_checked", event.who, "",
                                  f"rows checked after: {checked}")]
            case _:
                return [Rejected(not_an_event(event, "a table event"))]

    def _decided_last(self) -> bool:
        """Whether the last card drawn decided a coup, and nobody has acted on it since."""
        return self._decided_by_last and not isinstance(self._last_card(), Rejected)

    def _shoe(self, event: ShoeEvent) -> list[Decision]:
        out: list[Decision] = []
        if isinstance(event, CardDrawn | CardDropped):
            self._decided_by_last = False
        voided: CoupVoided | None = None
        stopped = False
        for decision in self.shoe.apply(event):
            out.append(decision)
            match decision:
                case CardPlaced() | CardExposed():
                    self.ledger.close_choices()
                case CoupDecided():
                    out.append(self.ledger.settle(decision))
                    self._bets_closed = False
                    self._decided_by_last = isinstance(event, CardDrawn)
                case CoupVoided():
                    voided = decision
                    self._bets_closed = False
                case DealStopped():
                    stopped = True
                    self._bets_closed = False  # a new shoe opens with "faites vos jeux"
                    settlement = self.ledger.end_of_shoe(
                        decision.number, voided=voided is not None,
                        reshuffle=decision.reason is EndReason.FACE_UP_LIMIT)
                    if settlement:
                        out.append(settlement)
                case _:
                    pass  # the burn, voided cards, alarms and the shoe's end touch no stake
        if voided is not None and not stopped:
            # A coup voided mid-shoe: free stakes go back, prisoners wait for the next coup.
            out.append(self.ledger.clear(voided.number, PrisonerFate.CARRY) or
                       Settlement(voided.number, ()))
        return out

    def _correct(self, event: CorrectCard) -> list[Decision]:
        """The last card was misread: re-deal it as it really was."""
        last = self._last_card()
        if isinstance(last, Rejected):
            return [last]
        if last.card == event.card:
            return [Rejected(f"the last card already is {event.card}")]
        note = Corrected("correct_card", event.who, event.why, f"{last.card} read as {event.card}")
        return self._rewrite_last_card(CardDrawn(event.card, last.face_up), note)

    def _void_decided(self) -> list[Decision]:
        """The card that decided the coup was dropped: void it and re-open the coup."""
        last = self._last_card()
        if isinstance(last, Rejected):
            return [last]
        return self._rewrite_last_card(CardDropped(last.card, last.face_up), None)

    def _last_card(self) -> CardDrawn | Rejected:
        # From the end: a screen asks after every event, and a day's log is long.
        for event in reversed(self._effective):
            if isinstance(event, CardDrawn):
                return event
            if not isinstance(event, _NEUTRAL):
                if any(isinstance(e, CardDrawn) for e in self._effective):
                    return Rejected("only the last card can be changed, before anyone acts on it")
                break
        return Rejected("no card to correct")

    def _rewrite_last_card(self, replacement: ShoeEvent, note: Decision | None) -> list[Decision]:
        """Fold the history again with the last card replaced, and say what changed."""
        at = max(i for i, e in enumerate(self._effective) if isinstance(e, CardDrawn))
        head, later = self._effective[:at], self._effective[at + 1:]
        after, new_tail = self._refold(head, [replacement, *later])
        # Only the card that decided a coup takes back a decision when it changes.
        retracted = [CoupRetracted(self.shoe.number)] if self._decided_by_last else []
        self.shoe, self.ledger = after.shoe, after.ledger
        self._effective, self._bets_closed = after._effective, after._bets_closed
        self._unchecked = after._unchecked
        self._decided_by_last = after._decided_by_last
        return [*([note] if note else []), *retracted, *new_tail]

    def _refold(self, head: list[Event], tail: list[Event]) -> tuple[Table, list[Decision]]:
        table = Table(self.initial_rulebook)
        for e in head:
            table.apply(e)
        return table, [d for e in tail for d in table.apply(e)]


def _rejected(decisions: list[Decision]) -> bool:
    return len(decisions) == 1 and isinstance(decisions[0], Rejected)
