"""The coup engine: a deterministic state machine fed one shoe event at a time.

`Shoe.apply(event)` never raises on input: an event that does not fit the state is answered
by a `Rejected` decision and changes nothing. The state is a fold over the event log, so
`play(shoe.log, rulebook)` rebuilds it, which is what replay, recovery and audit rely on.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from croupier.cards import ALL_CARDS, Card
from croupier.coup import PASS_MARK, Phase, ShoeState, decide, extra_copy, unread, verdict, verdicts
from croupier.cross_checks import ShoeAudit
from croupier.decisions import (
    Alarm,
    CardExposed,
    CardPlaced,
    CardVoided,
    CoupDecided,
    Decision,
    EndReason,
    Rejected,
    Row,
)
from croupier.events import (
    BurnUnseen,
    CardDrawn,
    CardDropped,
    CardUnread,
    CutCard,
    DeviceAlarm,
    EndShoe,
    NewShoe,
    ShoeEmpty,
    ShoeEvent,
    VoidCard,
    VoidCoup,
    not_an_event,
)
from croupier.rulebook import FaceUpPolicy, Rulebook
from croupier.shoe_end import Last, RefusedError, ShoeEnd

__all__ = ["BAIZE_CHECK", "PASS_MARK", "Phase", "Shoe", "ShoeState", "decide", "play"]

BAIZE_CHECK = "baize_check"  # the code of an alarm the tailleur must answer at the baize


# The members a card's way through the engine compares with, read off their enums once:
# in Python 3.11 reading `Phase.NOIR` costs more than the rest of the work on the card.
_BURN, _READY, _NOIR, _ROUGE = Phase.BURN, Phase.READY, Phase.NOIR, Phase.ROUGE
_STOPPED, _CLOSED = Phase.STOPPED, Phase.CLOSED
_ROW_NOIR, _ROW_ROUGE = Row.NOIR, Row.ROUGE
_LAST_BURN, _LAST_NOIR, _LAST_ROUGE = Last.BURN, Last.NOIR, Last.ROUGE


class Shoe(ShoeEnd):
    """One table's shoe, from the burn to the talon, coup after coup."""

    __slots__ = ()  # the state's are ShoeEnd's

    def __init__(self, rulebook: Rulebook) -> None:
        self._audit = ShoeAudit()
        self.rulebook = rulebook
        self.log: list[ShoeEvent] = []  # every event accepted
        self._reset()

    @property
    def rulebook(self) -> Rulebook:
        return self._rulebook

    @rulebook.setter
    def rulebook(self, rulebook: Rulebook) -> None:
        self._rulebook = rulebook
        # Read for every card: kept at hand rather than looked up in the rulebook each time.
        self._copies = rulebook.copies_per_card or sys.maxsize
        self._size = rulebook.copies_per_card * len(ALL_CARDS) or sys.maxsize
        self._burns_face_up = rulebook.face_up_policy is FaceUpPolicy.BURN
        self._verdicts = verdicts(rulebook.calls)

    def _reset(self) -> None:
        self.phase = Phase.BURN
        self.number = 0
        self._burn = []
        self._unseen = 0
        self._seen = [0] * len(ALL_CARDS)
        self._unread = 0
        # A card out that the copies drawn do not count (burned unseen, unread, the talon of
        # a suspended shoe) or one copy too many: until then the copies bound the cards out,
        # which cannot pass the shoe's size, and the audit need not count them card by card.
        self._uncounted = False
        self._audit_due = False  # the event led to more than a card laid on a row
        self._audit.reset()
        self._burned = self._voided = self._talon = 0
        self._dealt = 0
        self._face_up_coups = 0
        self._stop_reason = None
        self._last = None
        self._started = False
        self._clear_coup()

    @property
    def idle(self) -> bool:
        """Nothing drawn yet in this shoe, or the shoe is closed: settings may change."""
        return not self._started or self.phase is Phase.CLOSED

    def state(self) -> ShoeState:
        return ShoeState(self.phase, self.number, tuple(self._burn), tuple(self._noir),
                         tuple(self._rouge), self._noir_point, self._rouge_point,
                         self._up, self._last is not None, self._coup_face_up,
                         self._face_up_coups, self._burned,
                         self._dealt + len(self._noir) + len(self._rouge),
                         self._voided, self._talon, self._stop_reason)

    def apply(self, event: ShoeEvent) -> list[Decision]:
        """Feed one event; the decisions it leads to, in order, or a single `Rejected` that
        changed nothing and leaves the event out of the log."""
        decisions: list[Decision] = []
        self._fold((event,), decisions)
        return decisions

    def _fold(self, events: Iterable[ShoeEvent], decisions: list[Decision]) -> None:
        """`apply` event after event, appending to `decisions`: `play` folds a whole log in
        one call, the cards of a shoe being too many to spend a call on each."""
        log, audit, draw = self.log, self._audit, self._draw
        for event in events:
            try:
                if type(event) is CardDrawn:  # all but a few events of a shoe
                    draw(event.card, event.face_up, False, decisions)
                else:
                    decisions += self._other(event)
                    self._audit_due = True
            except RefusedError as refused:
                decisions.append(Rejected(str(refused)))  # nothing changed before the refusal
                continue
            log.append(event)
            if self._audit_due or self._uncounted:  # more than a card laid, or may be
                self._audit_due = False
                decisions += audit.after(event, self._cards_out(), self._size)

    def _other(self, event: ShoeEvent) -> list[Decision]:
        """Any event but a card drawn, which `_fold` takes the short way."""
        match event:
            case CardDropped() | CardDrawn():
                decisions: list[Decision] = []
                self._draw(event.card, event.face_up, type(event) is CardDropped, decisions)
                return decisions
            case CutCard():
                return self._cut()
            case BurnUnseen():
                return self._burn_unseen()
            case VoidCard():
                return self._void()
            case ShoeEmpty():
                return self._close()
            case NewShoe():
                closing = self._started and self.phase is not Phase.CLOSED
                decisions = self._close() if closing else []
                self._reset()
                return decisions
            case CardUnread():
                self._unread += 1
                self._uncounted = True
                return [unread(event)]
            case DeviceAlarm():
                code = BAIZE_CHECK if event.check else "device"
                return [Alarm(code, f"{event.source}: {event.text}")]
            case VoidCoup():
                return self._chef_void(event)
            case EndShoe():
                return self._chef_end(event)
            case _:
                raise RefusedError(not_an_event(event, "a shoe event"))

    # -- cards -------------------------------------------------------------------------

    def _draw(self, card: Card, face_up: bool, dropped: bool,
              decisions: list[Decision]) -> None:
        phase = self.phase
        if phase is _CLOSED:
            raise RefusedError(f"card {card} after the shoe was closed: start a new shoe first")
        if phase is _STOPPED:
            self._talon_card(card, decisions)
            return
        copies, index = self._seen, card.index
        seen = copies[index] = copies[index] + 1
        if seen > self._copies:
            decisions.append(extra_copy(card, seen, self._copies))
            self._uncounted = True
        if face_up or dropped or (phase is not _NOIR and phase is not _ROUGE):
            if not self._draw_unusual(card, face_up, dropped, decisions):
                return
            phase = self.phase
        # the common card: laid on the row being dealt
        if phase is _NOIR:
            self._noir.append(card)
            point = self._noir_point = self._noir_point + card.points
            self._last = _LAST_NOIR
            decisions.append(CardPlaced(self.number, _ROW_NOIR, card, point, face_up))
            if point > PASS_MARK:
                self.phase = _ROUGE
        else:
            self._rouge.append(card)
            point = self._rouge_point = self._rouge_point + card.points
            self._last = _LAST_ROUGE
            decisions.append(CardPlaced(self.number, _ROW_ROUGE, card, point, face_up))
            if point > PASS_MARK:
                self._decide(decisions)

    def _draw_unusual(self, card: Card, face_up: bool, dropped: bool,
                      decisions: list[Decision]) -> bool:
        """A card of the burn, the first of a coup, face up or dropped: whether it is still
        to be laid on the row being dealt."""
        phase = self.phase
        if phase is _BURN:
            self._started = True  # every later phase comes after a first event
            if len(self._burn) + self._unseen < self._rulebook.burn_cards:
                self._burn_card(card, face_up, dropped, decisions)
                return False
            decisions.append(self._end_burn())  # a rulebook that burns no card
            phase = _READY
        if phase is _READY:
            self.number += 1
            self.phase = phase = _NOIR
        if face_up:
            self._coup_face_up += 1
            if self._burns_face_up:
                self._burned += 1
                self._exposed += (card,)
                self._last = None
                decisions.append(CardExposed(self.number, card))
                return False
        if dropped:
            self._voided += 1
            self._coup_voided += (card,)
            self._last = None
            decisions.append(CardVoided(card))
            return False
        if face_up:  # where it will lie
            row, cards = (_ROW_NOIR, self._noir) if phase is _NOIR else (_ROW_ROUGE, self._rouge)
            self._up += ((row, len(cards)),)
        return True

    def _talon_card(self, card: Card, decisions: list[Decision]) -> None:
        self._talon += 1
        self._last = None
        if self._stop_reason is EndReason.FACE_UP_LIMIT:
            self._uncounted = True
            return  # a suspended shoe's cards go back to be reshuffled, never drawn
        seen = self._seen[card.index] = self._seen[card.index] + 1
        if seen > self._copies:
            decisions.append(extra_copy(card, seen, self._copies))
            self._uncounted = True

    def _burn_card(self, card: Card, face_up: bool, dropped: bool,
                   decisions: list[Decision]) -> None:
        burn_it = face_up and self._burns_face_up
        if dropped and not burn_it:
            self._voided += 1
            self._last = None
            decisions.append(CardVoided(card))
            return
        self._burned += 1
        if burn_it:
            self._exposed += (card,)  # burned, but not one of the five
            self._last = None
            return
        self._burn.append(card)
        self._last = _LAST_BURN
        if len(self._burn) + self._unseen == self._rulebook.burn_cards:
            decisions.append(self._end_burn())

    def _burn_unseen(self) -> list[Decision]:
        if self.phase is not Phase.BURN:
            raise RefusedError("a card burned unseen belongs to the burn, which is over")
        self._started = True
        self._uncounted = True
        self._burned += 1
        self._unseen += 1
        self._last = None
        if len(self._burn) + self._unseen == self._rulebook.burn_cards:
            return [self._end_burn()]
        return []

    def _decide(self, decisions: list[Decision]) -> None:
        noir, rouge = tuple(self._noir), tuple(self._rouge)
        noir_point, rouge_point = self._noir_point, self._rouge_point
        key = (noir_point, rouge_point, noir[0].black)
        found = self._verdicts.get(key)
        if found is None:
            found = self._verdicts[key] = verdict(noir, noir_point, rouge_point,
                                                  self._rulebook.calls)
        result, couleur, pay, calls, calls_en = found
        face_up = self._coup_face_up
        decisions.append(
            CoupDecided(self.number, noir, rouge, noir_point, rouge_point, result, couleur,
                        calls, calls_en, pay, face_up, self._exposed, self._coup_voided))
        self._dealt += len(noir) + len(rouge)
        self._clear_coup()
        self._last = None  # the coup is decided: its cards can no longer be voided
        self.phase = _READY
        if self._audit.in_doubt:
            self._audit.decided(self.number)
            self._audit_due = True
        if face_up:
            self._face_up_coups += 1
            limit = self._rulebook.face_up_coup_limit
            if limit and self._face_up_coups >= limit:
                decisions.append(self._stop(EndReason.FACE_UP_LIMIT))


def play(events: Iterable[ShoeEvent], rulebook: Rulebook) -> list[Decision]:
    """Fold the events through a fresh shoe and return every decision, in order."""
    decisions: list[Decision] = []
    Shoe(rulebook)._fold(events, decisions)
    return decisions
