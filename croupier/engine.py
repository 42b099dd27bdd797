"""The coup engine: a deterministic state machine fed one shoe event at a time.

`Shoe.apply(event)` never raises on input: an event that does not fit the state is answered
by a `Rejected` decision and changes nothing. The state is a fold over the event log, so
`play(shoe.log, rulebook)` rebuilds it, which is what replay, recovery and audit rely on.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Iterable

from croupier.cards import ALL_CARDS, Card
from croupier.coup import PASS_MARK, Phase, ShoeState, decide, extra_copy, unread, verdict, verdicts
from croupier.cross_checks import ShoeAudit
from croupier.decisions import (
    Alarm,
    Burned,
    CardExposed,
    CardPlaced,
    CardVoided,
    Corrected,
    CoupDecided,
    CoupVoided,
    DealStopped,
    Decision,
    EndReason,
    Rejected,
    Row,
    ShoeEnded,
    VoidReason,
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

__all__ = ["BAIZE_CHECK", "PASS_MARK", "Phase", "Shoe", "ShoeState", "decide", "play"]

BAIZE_CHECK = "baize_check"  # the code of an alarm the tailleur must answer at the baize


class _RefusedError(Exception):
    """An event that does not fit the shoe's state; raised before anything changed."""


class _Last(enum.Enum):
    """Where the last card drawn went, so that it can be voided."""

    BURN = "burn"
    NOIR = "noir"
    ROUGE = "rouge"


# The members a card's way through the engine compares with, read off their enums once:
# in Python 3.11 reading `Phase.NOIR` costs more than the rest of the work on the card.
_BURN, _READY, _NOIR, _ROUGE = Phase.BURN, Phase.READY, Phase.NOIR, Phase.ROUGE
_STOPPED, _CLOSED = Phase.STOPPED, Phase.CLOSED
_ROW_NOIR, _ROW_ROUGE = Row.NOIR, Row.ROUGE
_LAST_BURN, _LAST_NOIR, _LAST_ROUGE = _Last.BURN, _Last.NOIR, _Last.ROUGE


class Shoe:
    """One table's shoe, from the burn to the talon, coup after coup."""

    __slots__ = ("_audit", "_burn", "_burned", "_burns_face_up", "_copies", "_coup_face_up",
                 "_coup_voided", "_dealt", "_exposed", "_face_up_coups", "_last", "_noir",
                 "_noir_point", "_rouge", "_rouge_point", "_rulebook", "_seen", "_started",
                 "_stop_reason", "_talon", "_unseen", "_up", "_verdicts", "_voided", "log",
                 "number", "phase")

    def __init__(self, rulebook: Rulebook) -> None:
        self.rulebook = rulebook
        self.log: list[ShoeEvent] = []  # every event accepted
        self._audit = ShoeAudit(rulebook)  # the shoe's own arithmetic
        self._reset()

    @property
    def rulebook(self) -> Rulebook:
        return self._rulebook

    @rulebook.setter
    def rulebook(self, rulebook: Rulebook) -> None:
        self._rulebook = rulebook
        # Read for every card: kept at hand rather than looked up in the rulebook each time.
        self._copies = rulebook.copies_per_card or sys.maxsize
        self._burns_face_up = rulebook.face_up_policy is FaceUpPolicy.BURN
        self._verdicts = verdicts(rulebook.calls)

    def _reset(self) -> None:
        self.phase = Phase.BURN
        self.number = 0
        self._burn: list[Card] = []
        self._unseen = 0  # burned where no reader saw them
        self._seen = [0] * len(ALL_CARDS)  # copies drawn, by card index
        self._burned = self._voided = self._talon = 0
        self._dealt = 0  # in the coups over; the rows being dealt hold the rest
        self._face_up_coups = 0
        self._stop_reason: EndReason | None = None
        self._last: _Last | None = None
        self._started = False
        self._clear_coup()

    def _clear_coup(self) -> None:
        self._noir: list[Card] = []
        self._rouge: list[Card] = []
        self._noir_point = 0
        self._rouge_point = 0
        self._coup_face_up = 0
        self._up: list[tuple[Row, int]] = []  # where this coup's face-up cards lie (rare)
        self._exposed: list[Card] = []
        self._coup_voided: list[Card] = []

    @property
    def idle(self) -> bool:
        """Nothing drawn yet in this shoe, or the shoe is closed: settings may change."""
        return not self._started or self.phase is Phase.CLOSED

    def state(self) -> ShoeState:
        return ShoeState(self.phase, self.number, tuple(self._burn), tuple(self._noir),
                         tuple(self._rouge), self._noir_point, self._rouge_point,
                         tuple(self._up), self._last is not None, self._coup_face_up,
                         self._face_up_coups, self._burned,
                         self._dealt + len(self._noir) + len(self._rouge),
                         self._voided, self._talon, self._stop_reason)

    def apply(self, event: ShoeEvent) -> list[Decision]:
        """Feed one event; the decisions it leads to, in order, or a single `Rejected` that
        changed nothing and leaves the event out of the log."""
        try:
            match event:  # cards drawn first: all but a few events of a shoe are
                case CardDrawn():
                    decisions = self._draw(event.card, event.face_up, False)
                case CardDropped():
                    decisions = self._draw(event.card, event.face_up, True)
                case CutCard():
                    decisions = self._cut()
                case BurnUnseen():
                    decisions = self._burn_unseen()
                case VoidCard():
                    decisions = self._void()
                case ShoeEmpty():
                    decisions = self._close()
                case NewShoe():
                    closing = self._started and self.phase is not Phase.CLOSED
                    decisions = self._close() if closing else []
                    self._reset()
                case CardUnread():
                    decisions = [unread(event)]
                case DeviceAlarm():
                    code = BAIZE_CHECK if event.check else "device"
                    decisions = [Alarm(code, f"{event.source}: {event.text}")]
                case VoidCoup():
                    decisions = self._chef_void(event)
                case EndShoe():
                    decisions = self._chef_end(event)
                case _:
                    raise _RefusedError(not_an_event(event, "a shoe event"))
        except _RefusedError as refused:
            return [Rejected(str(refused))]
        self.log.append(event)
        return decisions + self._audit.after(event, decisions)

    # -- cards -------------------------------------------------------------------------

    def _draw(self, card: Card, face_up: bool, dropped: bool) -> list[Decision]:
        phase = self.phase
        if phase is _CLOSED:
            raise _RefusedError(f"card {card} after the shoe was closed: start a new shoe first")
        if phase is _STOPPED:
            return self._talon_card(card)
        copies, index = self._seen, card.index
        seen = copies[index] = copies[index] + 1
        copies_held = self._copies
        decisions: list[Decision] = [] if seen <= copies_held else [
            extra_copy(card, seen, copies_held)]
        if phase is _BURN:
            self._started = True  # every later phase comes after a first event
            if len(self._burn) + self._unseen < self._rulebook.burn_cards:
                return self._burn_card(card, face_up, dropped, decisions)
            decisions.append(self._end_burn())  # a rulebook that burns no card
            phase = _READY
        if phase is _READY:
            self.number += 1
            self.phase = phase = _NOIR
        if face_up:
            self._coup_face_up += 1
            if self._burns_face_up:
                self._burned += 1
                self._exposed.append(card)
                self._last = None
                decisions.append(CardExposed(self.number, card))
                return decisions
        if dropped:
            self._voided += 1
            self._coup_voided.append(card)
            self._last = None
            decisions.append(CardVoided(card))
            return decisions
        if phase is _NOIR:
            self._noir.append(card)
            if face_up:
                self._up.append((_ROW_NOIR, len(self._noir) - 1))
            point = self._noir_point = self._noir_point + card.points
            self._last = _LAST_NOIR
            decisions.append(CardPlaced(self.number, _ROW_NOIR, card, point, face_up))
            if point > PASS_MARK:
                self.phase = _ROUGE
            return decisions
        self._rouge.append(card)
        if face_up:
            self._up.append((_ROW_ROUGE, len(self._rouge) - 1))
        point = self._rouge_point = self._rouge_point + card.points
        self._last = _LAST_ROUGE
        decisions.append(CardPlaced(self.number, _ROW_ROUGE, card, point, face_up))
        if point > PASS_MARK:
            decisions += self._decide()
        return decisions

    def _talon_card(self, card: Card) -> list[Decision]:
        self._talon += 1
        self._last = None
        if self._stop_reason is EndReason.FACE_UP_LIMIT:
            return []  # a suspended shoe's cards go back to be reshuffled, never drawn
        seen = self._seen[card.index] = self._seen[card.index] + 1
        return [] if seen <= self._copies else [extra_copy(card, seen, self._copies)]

    def _burn_card(self, card: Card, face_up: bool, dropped: bool,
                   decisions: list[Decision]) -> list[Decision]:
        burn_it = face_up and self._burns_face_up
        if dropped and not burn_it:
            self._voided += 1
            self._last = None
            decisions.append(CardVoided(card))
            return decisions
        self._burned += 1
        if burn_it:
            self._exposed.append(card)  # burned, but not one of the five
            self._last = None
            return decisions
        self._burn.append(card)
        self._last = _LAST_BURN
        if len(self._burn) + self._unseen == self._rulebook.burn_cards:
            decisions.append(self._end_burn())
        return decisions

    def _burn_unseen(self) -> list[Decision]:
        if self.phase is not Phase.BURN:
            raise _RefusedError("a card burned unseen belongs to the burn, which is over")
        self._started = True
        self._burned += 1
        self._unseen += 1
        self._last = None
        if len(self._burn) + self._unseen == self._rulebook.burn_cards:
            return [self._end_burn()]
        return []

    def _end_burn(self) -> Burned:
        burned = Burned(tuple(self._burn), tuple(self._exposed), self._unseen)
        self._exposed = []
        self._last = None  # a complete burn is settled
        self.phase = Phase.READY
        return burned

    def _decide(self) -> list[Decision]:
        noir, rouge = tuple(self._noir), tuple(self._rouge)
        noir_point, rouge_point = self._noir_point, self._rouge_point
        key = (noir_point, rouge_point, noir[0].black)
        found = self._verdicts.get(key)
        if found is None:
            found = self._verdicts[key] = verdict(noir, noir_point, rouge_point,
                                                  self._rulebook.calls)
        result, couleur, pay, calls, calls_en = found
        face_up = self._coup_face_up
        decisions: list[Decision] = [
            CoupDecided(self.number, noir, rouge, noir_point, rouge_point, result, couleur,
                        calls, calls_en, pay, face_up, tuple(self._exposed),
                        tuple(self._coup_voided))
        ]
        self._dealt += len(noir) + len(rouge)
        self._clear_coup()
        self._last = None  # the coup is decided: its cards can no longer be voided
        self.phase = _READY
        if face_up:
            self._face_up_coups += 1
            limit = self._rulebook.face_up_coup_limit
            if limit and self._face_up_coups >= limit:
                decisions.append(self._stop(EndReason.FACE_UP_LIMIT))
        return decisions

    # -- the tailleur's corrections and the end of the shoe ----------------------------

    def _void(self) -> list[Decision]:
        last, self._last = self._last, None
        if last is None:
            raise _RefusedError("no card to void: the last card drawn is already settled")
        self._voided += 1
        if last is _Last.BURN:
            card = self._burn.pop()
            self._burned -= 1
            return [CardVoided(card)]
        if last is _Last.NOIR:
            card = self._noir.pop()
            self._noir_point -= card.points
            self.phase = Phase.NOIR  # a voided card that closed the row reopens it
        else:
            card = self._rouge.pop()
            self._rouge_point -= card.points
        self._up = [spot for spot in self._up if spot[1] < len(self._noir if spot[0] is
                                                                _ROW_NOIR else self._rouge)]
        self._coup_voided.append(card)
        return [CardVoided(card)]

    def _chef_void(self, event: VoidCoup) -> list[Decision]:
        if self.phase not in (Phase.NOIR, Phase.ROUGE):
            raise _RefusedError("no coup is being dealt: only the coup on the table can be voided")
        decisions: list[Decision] = [
            Corrected("void_coup", event.who, event.why, f"coup {self.number} voided"),
            *self._abandon(VoidReason.CHEF),
        ]
        self.phase = Phase.READY
        self._last = None
        return decisions

    def _chef_end(self, event: EndShoe) -> list[Decision]:
        if self.phase is Phase.CLOSED:
            raise _RefusedError("the shoe is already closed")
        self._started = True
        decisions: list[Decision] = [Corrected("end_shoe", event.who, event.why, "shoe ended")]
        if self.phase is not Phase.STOPPED:
            decisions += [*self._abandon(VoidReason.CHEF), self._stop(EndReason.CHEF)]
        return decisions + self._close()

    def _cut(self) -> list[Decision]:
        phase = self.phase
        if phase is Phase.CLOSED:
            raise _RefusedError("cut card after the shoe was closed: start a new shoe first")
        self._started = True
        if phase is Phase.STOPPED:
            if self._stop_reason is EndReason.CUT_CARD:
                return [Alarm("second_cut_card", "a second cut card in the same shoe")]
            return []
        return [*self._abandon(VoidReason.CUT_CARD), self._stop(EndReason.CUT_CARD)]

    def _abandon(self, reason: VoidReason) -> list[Decision]:
        """Ends the burn or the coup in progress when the shoe stops early."""
        if self.phase is Phase.BURN:
            return [self._end_burn()]
        if self.phase in (Phase.NOIR, Phase.ROUGE):
            voided = CoupVoided(self.number, reason)
            self._dealt += len(self._noir) + len(self._rouge)
            self._clear_coup()
            return [voided]
        return []

    def _stop(self, reason: EndReason) -> DealStopped:
        self.phase = Phase.STOPPED
        self._stop_reason = reason
        self._last = None
        return DealStopped(reason, self.number)

    def _close(self) -> list[Decision]:
        if self.phase is Phase.CLOSED:
            raise _RefusedError("the shoe is already closed")
        decisions: list[Decision] = []
        if self.phase is not Phase.STOPPED:
            decisions += self._abandon(VoidReason.EXHAUSTED)
            decisions.append(self._stop(EndReason.EXHAUSTED))
        reason = self._stop_reason or EndReason.EXHAUSTED
        expected = self._rulebook.talon_cards
        if reason is EndReason.CUT_CARD and self._talon != expected:
            decisions.append(
                Alarm("talon_count", f"the talon holds {self._talon} cards, not {expected}")
            )
        decisions.append(ShoeEnded(reason, self._talon, self._burned, self._dealt, self._voided))
        self.phase = Phase.CLOSED
        self._last = None
        return decisions


def play(events: Iterable[ShoeEvent], rulebook: Rulebook) -> list[Decision]:
    """Fold the events through a fresh shoe and return every decision, in order."""
    apply = Shoe(rulebook).apply
    decisions: list[Decision] = []
    for event in events:
        decisions += apply(event)
    return decisions
