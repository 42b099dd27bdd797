"""The coup engine: a deterministic state machine fed one shoe event at a time.

`Shoe.apply(event)` never raises on input: an event that does not fit the state is answered
by a `Rejected` decision and changes nothing. The state is a fold over the event log, so
`play(shoe.log, rulebook)` rebuilds it, which is what replay, recovery and audit rely on.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from croupier.calls import coup_calls
from croupier.cards import ALL_CARDS, Card, Colour
from croupier.cross_checks import ShoeAudit
from croupier.decisions import (
    Alarm,
    Burned,
    CardExposed,
    CardPlaced,
    CardVoided,
    Chance,
    Corrected,
    CoupDecided,
    CoupVoided,
    DealStopped,
    Decision,
    EndReason,
    Rejected,
    Result,
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
)
from croupier.rulebook import FaceUpPolicy, Rulebook

PASS_MARK = 30  # a row is complete at the first card that takes it past thirty


BAIZE_CHECK = "baize_check"  # the code of an alarm the tailleur must answer at the baize


class Phase(enum.Enum):
    BURN = "burn"
    READY = "ready"  # between coups: the next card opens a coup
    NOIR = "noir"
    ROUGE = "rouge"
    STOPPED = "stopped"  # no more coups; cards still drawn are the talon
    CLOSED = "closed"


class _Last(enum.Enum):
    """Where the last card drawn went, so that it can be voided."""

    BURN = "burn"
    NOIR = "noir"
    ROUGE = "rouge"


@dataclass(frozen=True, slots=True)
class ShoeState:
    """A snapshot of the engine, for screens and for checking that replay rebuilds it."""

    phase: Phase
    number: int
    burn: tuple[Card, ...]
    noir: tuple[Card, ...]
    rouge: tuple[Card, ...]
    noir_point: int
    rouge_point: int
    coup_face_up: int
    face_up_coups: int
    burned: int
    dealt: int
    voided: int
    talon: int
    stop_reason: EndReason | None


_PAY_ORDER = (Chance.INVERSE, Chance.NOIR, Chance.ROUGE, Chance.COULEUR)


def decide(noir: tuple[Card, ...], noir_point: int, rouge_point: int) -> tuple[
    Result, Chance | None, tuple[Chance, ...]
]:
    """Result, couleur/inverse and the chances to pay, in paying order (docs/RULES.md §3, §6)."""
    if noir_point == rouge_point:
        return (Result.REFAIT if noir_point == 31 else Result.APRES), None, ()
    result = Result.NOIR if noir_point < rouge_point else Result.ROUGE
    winning_colour = Colour.BLACK if result is Result.NOIR else Colour.RED
    couleur = Chance.COULEUR if noir[0].colour is winning_colour else Chance.INVERSE
    row_chance = Chance.NOIR if result is Result.NOIR else Chance.ROUGE
    return result, couleur, tuple(c for c in _PAY_ORDER if c in (couleur, row_chance))


class Shoe:
    """One table's shoe, from the burn to the talon, coup after coup."""

    def __init__(self, rulebook: Rulebook) -> None:
        self.rulebook = rulebook
        self.log: list[ShoeEvent] = []
        self._audit = ShoeAudit(rulebook)
        self._reset()

    def _reset(self) -> None:
        self.phase = Phase.BURN
        self.number = 0
        self._burn: list[Card] = []
        self._unseen = 0  # burned where no reader saw them
        self._seen = [0] * len(ALL_CARDS)  # copies drawn, by card index
        self._burned = self._dealt = self._voided = self._talon = 0
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
        self._exposed: list[Card] = []
        self._coup_voided: list[Card] = []

    @property
    def idle(self) -> bool:
        """Nothing drawn yet in this shoe, or the shoe is closed: settings may change."""
        return not self._started or self.phase is Phase.CLOSED

    def state(self) -> ShoeState:
        return ShoeState(
            phase=self.phase,
            number=self.number,
            burn=tuple(self._burn),
            noir=tuple(self._noir),
            rouge=tuple(self._rouge),
            noir_point=self._noir_point,
            rouge_point=self._rouge_point,
            coup_face_up=self._coup_face_up,
            face_up_coups=self._face_up_coups,
            burned=self._burned,
            dealt=self._dealt,
            voided=self._voided,
            talon=self._talon,
            stop_reason=self._stop_reason,
        )

    def apply(self, event: ShoeEvent) -> list[Decision]:
        """Feed one event; returns the decisions it leads to, in order."""
        decisions = self._apply(event)
        return decisions + self._audit.after(event, decisions)

    def _apply(self, event: ShoeEvent) -> list[Decision]:
        self.log.append(event)
        if type(event) is CardDrawn:
            return self._draw(event.card, event.face_up)
        if isinstance(event, CardDropped):
            return self._draw(event.card, event.face_up, dropped=True)
        if isinstance(event, CutCard):
            return self._cut()
        if isinstance(event, BurnUnseen):
            return self._burn_unseen()
        if isinstance(event, VoidCard):
            return self._void()
        if isinstance(event, ShoeEmpty):
            return self._close()
        if isinstance(event, NewShoe):
            decisions = self._close() if self._started and self.phase is not Phase.CLOSED else []
            self._reset()
            return decisions
        if isinstance(event, CardUnread):
            guess = f" (best guess {event.guess}, {event.confidence:.0%})" if event.guess else ""
            message = f"{event.source}: a card was not read{guess}; confirm it"
            return [Alarm("card_unread", message, event.guess)]
        if isinstance(event, DeviceAlarm):
            code = BAIZE_CHECK if event.check else "device"
            return [Alarm(code, f"{event.source}: {event.text}")]
        if isinstance(event, VoidCoup):
            return self._chef_void(event)
        if isinstance(event, EndShoe):
            return self._chef_end(event)
        self.log.pop()
        return [Rejected(f"not a shoe event: {event!r}")]

    # -- cards -------------------------------------------------------------------------

    def _draw(self, card: Card, face_up: bool, *, dropped: bool = False) -> list[Decision]:
        phase = self.phase
        if phase is Phase.CLOSED:
            self.log.pop()
            return [Rejected(f"card {card} after the shoe was closed: start a new shoe first")]
        self._started = True
        if phase is Phase.STOPPED:
            self._talon += 1
            self._last = None
            if self._stop_reason is EndReason.FACE_UP_LIMIT:
                return []  # a suspended shoe's cards go back to be reshuffled, never drawn
        decisions: list[Decision] = []
        seen = self._seen[card.index] = self._seen[card.index] + 1
        if self.rulebook.copies_per_card and seen > self.rulebook.copies_per_card:
            decisions.append(_seventh_copy(card, seen, self.rulebook.copies_per_card))
        if phase is Phase.STOPPED:
            return decisions
        burn_it = face_up and self.rulebook.face_up_policy is FaceUpPolicy.BURN
        if phase is Phase.BURN and len(self._burn) + self._unseen >= self.rulebook.burn_cards:
            decisions.append(self._end_burn())  # a rulebook that burns no card
            phase = Phase.READY
        if phase is Phase.BURN:
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
            self._last = _Last.BURN
            if len(self._burn) + self._unseen == self.rulebook.burn_cards:
                decisions.append(self._end_burn())
            return decisions
        if phase is Phase.READY:
            self.number += 1
            self.phase = phase = Phase.NOIR
        if face_up:
            self._coup_face_up += 1
        if burn_it:
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
        self._dealt += 1
        if phase is Phase.NOIR:
            self._noir.append(card)
            point = self._noir_point = self._noir_point + card.points
            self._last = _Last.NOIR
            decisions.append(CardPlaced(self.number, Row.NOIR, card, point, face_up))
            if point > PASS_MARK:
                self.phase = Phase.ROUGE
            return decisions
        self._rouge.append(card)
        point = self._rouge_point = self._rouge_point + card.points
        self._last = _Last.ROUGE
        decisions.append(CardPlaced(self.number, Row.ROUGE, card, point, face_up))
        if point > PASS_MARK:
            decisions.extend(self._decide())
        return decisions

    def _burn_unseen(self) -> list[Decision]:
        if self.phase is not Phase.BURN:
            self.log.pop()
            return [Rejected("a card burned unseen belongs to the burn, which is over")]
        self._started = True
        self._burned += 1
        self._unseen += 1
        self._last = None
        if len(self._burn) + self._unseen == self.rulebook.burn_cards:
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
        result, couleur, pay = decide(noir, self._noir_point, self._rouge_point)
        calls, calls_en = coup_calls(self._noir_point, self._rouge_point, result, couleur,
                                     self.rulebook.calls)
        decisions: list[Decision] = [
            CoupDecided(
                number=self.number,
                noir=noir,
                rouge=rouge,
                noir_point=self._noir_point,
                rouge_point=self._rouge_point,
                result=result,
                couleur=couleur,
                calls=calls,
                calls_en=calls_en,
                pay=pay,
                face_up=self._coup_face_up,
                exposed=tuple(self._exposed),
                voided=tuple(self._coup_voided),
            )
        ]
        if self._coup_face_up:
            self._face_up_coups += 1
        self._clear_coup()
        self._last = None  # the coup is decided: its cards can no longer be voided
        self.phase = Phase.READY
        limit = self.rulebook.face_up_coup_limit
        if limit and self._face_up_coups >= limit:
            decisions.append(self._stop(EndReason.FACE_UP_LIMIT))
        return decisions

    # -- the tailleur's corrections and the end of the shoe ----------------------------

    def _void(self) -> list[Decision]:
        last, self._last = self._last, None
        if last is None:
            self.log.pop()
            return [Rejected("no card to void: the last card drawn is already settled")]
        self._voided += 1
        if last is _Last.BURN:
            card = self._burn.pop()
            self._burned -= 1
            return [CardVoided(card)]
        self._dealt -= 1
        if last is _Last.NOIR:
            card = self._noir.pop()
            self._noir_point -= card.points
            self.phase = Phase.NOIR  # a voided card that closed the row reopens it
        else:
            card = self._rouge.pop()
            self._rouge_point -= card.points
        self._coup_voided.append(card)
        return [CardVoided(card)]

    def _chef_void(self, event: VoidCoup) -> list[Decision]:
        if self.phase not in (Phase.NOIR, Phase.ROUGE):
            self.log.pop()
            return [Rejected("no coup is being dealt: only the coup on the table can be voided")]
        decisions: list[Decision] = [
            Corrected("void_coup", event.who, event.why, f"coup {self.number} voided"),
            *self._abandon(VoidReason.CHEF),
        ]
        self.phase = Phase.READY
        self._last = None
        return decisions

    def _chef_end(self, event: EndShoe) -> list[Decision]:
        if self.phase is Phase.CLOSED:
            self.log.pop()
            return [Rejected("the shoe is already closed")]
        self._started = True
        decisions: list[Decision] = [Corrected("end_shoe", event.who, event.why, "shoe ended")]
        if self.phase is not Phase.STOPPED:
            decisions += [*self._abandon(VoidReason.CHEF), self._stop(EndReason.CHEF)]
        return decisions + self._close()

    def _cut(self) -> list[Decision]:
        phase = self.phase
        if phase is Phase.CLOSED:
            self.log.pop()
            return [Rejected("cut card after the shoe was closed: start a new shoe first")]
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
            self.log.pop()
            return [Rejected("the shoe is already closed")]
        decisions: list[Decision] = []
        if self.phase is not Phase.STOPPED:
            decisions += self._abandon(VoidReason.EXHAUSTED)
            decisions.append(self._stop(EndReason.EXHAUSTED))
        reason = self._stop_reason or EndReason.EXHAUSTED
        expected = self.rulebook.talon_cards
        if reason is EndReason.CUT_CARD and self._talon != expected:
            decisions.append(
                Alarm("talon_count", f"the talon holds {self._talon} cards, not {expected}")
            )
        decisions.append(ShoeEnded(reason, self._talon, self._burned, self._dealt, self._voided))
        self.phase = Phase.CLOSED
        self._last = None
        return decisions


def _seventh_copy(card: Card, seen: int, allowed: int) -> Alarm:
    return Alarm(
        "seventh_copy",
        f"{card} seen {seen} times in a shoe of {allowed} decks: a foreign or duplicated card",
        card,
    )


def play(events: Iterable[ShoeEvent], rulebook: Rulebook) -> list[Decision]:
    """Fold the events through a fresh shoe and return every decision, in order."""
    shoe = Shoe(rulebook)
    decisions: list[Decision] = []
    for event in events:
        decisions += shoe.apply(event)
    return decisions
