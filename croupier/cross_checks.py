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
    EndReason,
    ShoeEnded,
)
from croupier.events import (
    BurnUnseen,
    CardDrawn,
    CardDropped,
    CardUnread,
    DeviceAlarm,
    ShoeEvent,
)

DECK = len(ALL_CARDS)
RECONCILED_FROM = 5  # decks: a shoe counting fewer was not a whole sixain
NAMED = 8  # identities named in a reconciliation alarm, at most
_RECONCILED = (EndReason.EXHAUSTED, EndReason.CUT_CARD)


class ShoeAudit:
    """The alarms of a shoe's own arithmetic, over the counts the engine keeps. The engine
    tells it of each doubt settled as it settles it (`settle`, `decided`), hands it each event
    that did more than lay a card (`after`), and its counts at the end (`reconcile`)."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._doubts: list[str] = []  # why the coup being dealt may miss a card
        self._decided: list[Alarm] = []  # said after the decisions of the event

    def settle(self) -> None:
        """The rows that may miss a card are done with, nothing decided on them: the burn
        ended, or the coup was voided."""
        self._doubts = []

    def _doubt(self, why: str) -> None:
        self._doubts.append(why)

    @property
    def in_doubt(self) -> bool:
        """Whether the coup being dealt may miss a card."""
        return bool(self._doubts)

    def decided(self, number: int) -> None:
        """Coup `number` was decided: in doubt, the tailleur hears of it after the decision."""
        doubts = self._doubts
        self.settle()
        if doubts:
            self._decided.append(Alarm(
                "coup_doubt",
                f"coup {number} was decided on rows that may miss a card the shoe dealt "
                f"({'; '.join(doubts)}): check the rows against the baize before paying",
            ))

    def after(self, event: ShoeEvent, out: int, size: int) -> list[Alarm]:
        """The alarms `event` calls for, `out` cards having left a shoe of `size`."""
        alarms: list[Alarm] = []
        match event:
            case CardDrawn(card=card) | CardDropped(card=card):
                alarms += _overcount(out, size, card)
            case BurnUnseen():
                alarms += _overcount(out, size, None)
            case CardUnread(source=source, guess=guess):
                alarms += _overcount(out, size, None)
                named = f", perhaps {guess}" if guess is not None else ""
                self._doubt(f"a card unread by {source}{named}")
            case DeviceAlarm(source=source, text=text):
                self._doubt(f"{source}: {text}")
            case _:
                pass
        alarms += self._decided
        self._decided = []
        return alarms

    @staticmethod
    def reconcile(end: ShoeEnded, unread: int, seen: list[int], copies: int) -> list[Alarm]:
        """The shoe's count at its `end`: `unread` cards left it unread, `seen[i]` copies of
        card i were read, `copies` of each (0: no count) were in it."""
        size = copies * DECK
        accounted = end.total + unread
        whole = size and accounted >= RECONCILED_FROM * DECK
        if not whole or end.reason not in _RECONCILED:
            return []
        if accounted == size and min(seen) >= copies:
            return []  # the common shoe: every copy read, no card too many
        short = [
            (card, copies - count)
            for card, count in zip(ALL_CARDS, seen, strict=True)
            if count < copies
        ]
        # the cards left unread may be the ones short of their copies
        unexplained = sum(count for _, count in short) > unread
        if accounted == size and not unexplained:
            return []
        parts = (
            f"burned {end.burned} + dealt {end.dealt} + voided {end.voided} + talon "
            f"{end.talon} + unread {unread}"
        )
        text = f"the shoe accounts for {accounted} cards ({parts})"
        if accounted > size:
            text += f", more than its {size}"
        elif accounted < size:
            text += f", not {size}: {size - accounted} left it unseen"
        else:
            text += f", its {size}, but not for every card: one was read as another"
        if unexplained:
            named = ", ".join(f"{card}×{count}" for card, count in short[:NAMED])
            text += f"; short of their copies: {named}" + (", …" if len(short) > NAMED else "")
        return [Alarm("shoe_count", text)]


def _overcount(out: int, size: int, card: Card | None) -> list[Alarm]:
    """The alarm of the first card out beyond the shoe's size."""
    if out != size + 1:
        return []
    return [Alarm("shoe_overcount", f"card {out} out of a shoe of {size}: a foreign card, or "
                  "one read twice", card)]
