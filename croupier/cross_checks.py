"""Cross-checks over a whole shoe that no single event shows, raised as alarms for the
tailleur at the moment they become detectable: whatever a reader's link could not see
(bee has no sequence numbers; any link may misread), the shoe's own arithmetic can.

- a card beyond the sixain (the 313th of six decks): at once;
- a coup decided while a card of it went unread, or the reader reported a loss or a fault:
  its rows may not be what the shoe dealt, so the result is doubtful — at the decision;
- the reconciliation burned + dealt + voided + talon (+ cards left unread) = 312 when the shoe
  ends, naming the identities short of their copies — at the end of the shoe.

(The seventh copy of one identity is the engine's own check, at the card.)

A shoe that accounts for fewer than `RECONCILED_FROM` decks is taken for a short one (a
test shoe, a demonstration) and is not reconciled; nor is one the chef ended or the
face-up limit suspended, whose remaining cards never left it.
"""

from __future__ import annotations

from croupier.cards import ALL_CARDS, Card
from croupier.decisions import (
    Alarm,
    Burned,
    CardPlaced,
    CoupDecided,
    CoupVoided,
    Decision,
    EndReason,
    Rejected,
    ShoeEnded,
)
from croupier.events import (
    BurnUnseen,
    CardDrawn,
    CardDropped,
    CardUnread,
    DeviceAlarm,
    NewShoe,
    ShoeEvent,
)
from croupier.rulebook import Rulebook

DECK = len(ALL_CARDS)
RECONCILED_FROM = 5  # decks: a shoe counting fewer was not a whole sixain
NAMED = 8  # identities named in a reconciliation alarm, at most
_RECONCILED = (EndReason.EXHAUSTED, EndReason.CUT_CARD)


class ShoeAudit:
    """Follows one shoe's events and the engine's decisions on them (`after`), and answers
    with the alarms those decisions call for. Like the engine, a fold over the log."""

    def __init__(self, rulebook: Rulebook) -> None:
        self._size = rulebook.copies_per_card * DECK  # 0: no count
        self._copies = rulebook.copies_per_card
        self._reset()

    def _reset(self) -> None:
        self._out = 0  # cards that left the shoe, read or not
        self._unread = 0
        self._seen = [0] * DECK
        self._doubts: list[str] = []  # why the coup being dealt may miss a card

    def after(self, event: ShoeEvent, decisions: list[Decision]) -> list[Alarm]:
        """The alarms `event`, answered by the engine with `decisions`, calls for."""
        if type(event) is CardDrawn and len(decisions) == 1 and \
                type(decisions[0]) is CardPlaced:
            return self._card_out(event.card)  # most of a shoe: a card laid, nothing decided
        if any(isinstance(d, Rejected) for d in decisions):
            return []  # the engine did not take the event
        alarms: list[Alarm] = []
        match event:
            case CardDrawn(card=card) | CardDropped(card=card):
                alarms += self._card_out(card)
            case BurnUnseen():
                alarms += self._card_out(None)
            case CardUnread(source=source, guess=guess):
                self._unread += 1
                alarms += self._card_out(None)
                named = f", perhaps {guess}" if guess is not None else ""
                self._doubts.append(f"a card unread by {source}{named}")
            case DeviceAlarm(source=source, text=text):
                self._doubts.append(f"{source}: {text}")
            case _:
                pass
        for decision in decisions:
            match decision:
                case CoupDecided():
                    alarms += self._decided(decision)
                case Burned() | CoupVoided():
                    self._doubts = []  # nothing decided on the rows that may miss a card
                case ShoeEnded():
                    alarms += self._reconcile(decision)
                case _:
                    pass
        if isinstance(event, NewShoe):
            self._reset()  # after the old shoe's end is reconciled
        return alarms

    def _card_out(self, card: Card | None) -> list[Alarm]:
        self._out += 1
        if card is not None:
            self._seen[card.index] += 1
        if self._size and self._out == self._size + 1:
            return [
                Alarm(
                    "shoe_overcount",
                    f"card {self._out} out of a shoe of {self._size}: a foreign card, or one "
                    "read twice",
                    card,
                )
            ]
        return []

    def _decided(self, coup: CoupDecided) -> list[Alarm]:
        doubts, self._doubts = self._doubts, []
        if not doubts:
            return []
        return [
            Alarm(
                "coup_doubt",
                f"coup {coup.number} was decided on rows that may miss a card the shoe "
                f"dealt ({'; '.join(doubts)}): check the rows against the baize before paying",
            )
        ]

    def _reconcile(self, end: ShoeEnded) -> list[Alarm]:
        accounted = end.total + self._unread
        whole = self._size and accounted >= RECONCILED_FROM * DECK
        if not whole or end.reason not in _RECONCILED:
            return []
        short = [
            (card, self._copies - seen)
            for card, seen in zip(ALL_CARDS, self._seen, strict=True)
            if seen < self._copies
        ]
        # the cards left unread may be the ones short of their copies
        unexplained = sum(count for _, count in short) > self._unread
        if accounted == self._size and not unexplained:
            return []
        parts = (
            f"burned {end.burned} + dealt {end.dealt} + voided {end.voided} + talon "
            f"{end.talon} + unread {self._unread}"
        )
        text = f"the shoe accounts for {accounted} cards ({parts})"
        if accounted > self._size:
            text += f", more than its {self._size}"
        elif accounted < self._size:
            text += f", not {self._size}: {self._size - accounted} left it unseen"
        else:
            text += f", its {self._size}, but not for every card: one was read as another"
        if unexplained:
            named = ", ".join(f"{card}×{count}" for card, count in short[:NAMED])
            text += f"; short of their copies: {named}" + (", …" if len(short) > NAMED else "")
        return [Alarm("shoe_count", text)]
