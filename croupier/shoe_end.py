"""How the burn, a coup and the shoe end: the engine's shoe (croupier/engine.py) takes its
cards there, and its ends here — the cut card, the shoe run out, the tailleur's and the
chef's corrections."""

from __future__ import annotations

import enum

from croupier.cards import Card
from croupier.coup import Phase
from croupier.cross_checks import ShoeAudit
from croupier.decisions import (
    Alarm,
    Burned,
    CardVoided,
    Corrected,
    CoupVoided,
    DealStopped,
    Decision,
    EndReason,
    Row,
    ShoeEnded,
    VoidReason,
)
from croupier.events import EndShoe, VoidCoup
from croupier.rulebook import Rulebook


class RefusedError(Exception):
    """An event that does not fit the shoe's state; raised before anything changed."""


class Last(enum.Enum):
    """Where the last card drawn went, so that it can be voided."""

    BURN = "burn"
    NOIR = "noir"
    ROUGE = "rouge"


class ShoeEnd:
    """The state of a shoe, and the ways its burn, its coups and itself end; `Shoe` deals."""

    __slots__ = ("_audit", "_audit_due", "_burn", "_burned", "_burns_face_up", "_copies",
                 "_coup_face_up", "_coup_voided", "_dealt", "_exposed", "_face_up_coups", "_last",
                 "_noir", "_noir_point", "_rouge", "_rouge_point", "_rulebook", "_seen", "_size",
                 "_started", "_stop_reason", "_talon", "_uncounted", "_unread", "_unseen", "_up",
                 "_verdicts", "_voided", "log", "number", "phase")
    phase: Phase
    number: int
    _rulebook: Rulebook
    _audit: ShoeAudit  # the shoe's own arithmetic, over the counts kept here
    _started: bool
    _burn: list[Card]
    _unseen: int  # burned where no reader saw them
    _seen: list[int]  # copies drawn, by card index
    _unread: int
    _burned: int
    _voided: int
    _talon: int
    _dealt: int  # in the coups over; the rows being dealt hold the rest
    _stop_reason: EndReason | None
    _last: Last | None
    _noir: list[Card]
    _rouge: list[Card]
    _noir_point: int
    _rouge_point: int
    _coup_face_up: int
    # Rare, and read at once by the decision: tuples, that a coup need not copy
    _up: tuple[tuple[Row, int], ...]  # where this coup's face-up cards lie
    _exposed: tuple[Card, ...]
    _coup_voided: tuple[Card, ...]

    def _cards_out(self) -> int:
        """The cards that left the shoe, read or not."""
        return (self._burned + self._dealt + len(self._noir) + len(self._rouge) + self._voided
                + self._talon + self._unread)

    def _clear_coup(self) -> None:
        self._noir = []
        self._rouge = []
        self._noir_point = 0
        self._rouge_point = 0
        self._coup_face_up = 0
        self._up = ()
        self._exposed = ()
        self._coup_voided = ()

    def _end_burn(self) -> Burned:
        burned = Burned(tuple(self._burn), self._exposed, self._unseen)
        self._exposed = ()
        self._audit.settle()
        self._last = None  # a complete burn is settled
        self.phase = Phase.READY
        return burned

    def _void(self) -> list[Decision]:
        last, self._last = self._last, None
        if last is None:
            raise RefusedError("no card to void: the last card drawn is already settled")
        self._voided += 1
        if last is Last.BURN:
            card = self._burn.pop()
            self._burned -= 1
            return [CardVoided(card)]
        if last is Last.NOIR:
            card = self._noir.pop()
            self._noir_point -= card.points
            self.phase = Phase.NOIR  # a voided card that closed the row reopens it
        else:
            card = self._rouge.pop()
            self._rouge_point -= card.points
        self._up = tuple(spot for spot in self._up if spot[1] < len(self._noir if spot[0] is
                                                                    Row.NOIR else self._rouge))
        self._coup_voided += (card,)
        return [CardVoided(card)]

    def _chef_void(self, event: VoidCoup) -> list[Decision]:
        if self.phase not in (Phase.NOIR, Phase.ROUGE):
            raise RefusedError("no coup is being dealt: only the coup on the table can be voided")
        decisions: list[Decision] = [
            Corrected("void_coup", event.who, event.why, f"coup {self.number} voided"),
            *self._abandon(VoidReason.CHEF),
        ]
        self.phase = Phase.READY
        self._last = None
        return decisions

    def _chef_end(self, event: EndShoe) -> list[Decision]:
        if self.phase is Phase.CLOSED:
            raise RefusedError("the shoe is already closed")
        self._started = True
        decisions: list[Decision] = [Corrected("end_shoe", event.who, event.why, "shoe ended")]
        if self.phase is not Phase.STOPPED:
            decisions += [*self._abandon(VoidReason.CHEF), self._stop(EndReason.CHEF)]
        return decisions + self._close()

    def _cut(self) -> list[Decision]:
        phase = self.phase
        if phase is Phase.CLOSED:
            raise RefusedError("cut card after the shoe was closed: start a new shoe first")
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
            self._audit.settle()
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
            raise RefusedError("the shoe is already closed")
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
        end = ShoeEnded(reason, self._talon, self._burned, self._dealt, self._voided)
        decisions.append(end)
        self.phase = Phase.CLOSED
        self._last = None
        # before a new shoe resets the counts
        return decisions + self._audit.reconcile(end, self._unread, self._seen,
                                                 self._rulebook.copies_per_card)
