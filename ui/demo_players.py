"""`make demo`'s table: simulated players who stake, share and move, and a shoe that waits
for "rien ne va plus".

The players act through the bridge's `submit`, as the tailleur's taps do, and read only the
boards the bridge hands the screen. While bets are open the shoe holds its next card
(`GatedFeed`): the tailleur calls rien ne va plus, or the demo calls it itself once nobody
has touched the screen for `AUTO_CALL` seconds. Between coups, the payout plan of the coup
just decided stays on the screen while the players stake for the next.
"""

from __future__ import annotations

import random
import threading
from decimal import Decimal
from typing import Final

from PySide6.QtCore import QEvent, QObject, Qt, QTimer

from croupier.decisions import Chance
from croupier.events import CardDrawn, ChoosePrison, CloseBets, PlaceStake, PrisonChoice
from croupier.table import Event
from ui.board import Board
from ui.bridge import Feed, PutBatch, TableBridge
from ui.keypad import chips_for

AUTO_CALL: Final = 6.0  # seconds untouched before the demo calls rien ne va plus itself
STAKE_EVERY: Final = 0.4  # seconds between two players' stakes, as chips land one by one
SEATS: Final = 8
CHANCES: Final = tuple(Chance)
TOUCHES: Final = frozenset({QEvent.Type.MouseButtonPress, QEvent.Type.TouchBegin,
                            QEvent.Type.KeyPress})


class GatedFeed:
    """A shoe feed that deals only while bets are closed, a card every `pace` seconds: a
    demo's shoe waits for rien ne va plus as a tailleur does. It holds the inner feed's
    reading thread while shut (a simulator dealing flat out then waits on its link).

    `on_board` is called on the table's own thread as each board is made (a direct
    connection), so the gate shuts as soon as the card that ends a coup is answered: well
    within the pace, since a card reaches the screen in a few milliseconds."""

    def __init__(self, inner: Feed, *, pace: float) -> None:
        self.inner = inner
        self.resends = inner.resends
        self.pace = pace
        self._open = True  # the burn deals before bets ever open
        self._stopped = False
        self._changed = threading.Condition()

    def on_board(self, board: Board) -> None:
        with self._changed:
            self._open = not board.layout.bets_open
            self._changed.notify_all()

    def start(self, put: PutBatch, resume_at: int | None) -> None:
        def gated(events: tuple[Event, ...], link: int | None) -> None:
            for i, event in enumerate(events):  # card by card, each waiting for the call
                with self._changed:
                    self._changed.wait_for(lambda: self._open or self._stopped)
                    if self._stopped:
                        return
                put((event,), link if i == len(events) - 1 else None)
                if isinstance(event, CardDrawn):
                    with self._changed:  # the pace, cut short by a stop
                        self._changed.wait_for(lambda: self._stopped, timeout=self.pace)

        self.inner.start(gated, resume_at)

    def stop(self) -> None:
        with self._changed:
            self._stopped = True
            self._changed.notify_all()
        self.inner.stop()


class DemoPlayers(QObject):
    """Eight simulated seats. Each time bets open they choose for their prisoners after a
    refait, then stake, one every `stake_every` seconds; rien ne va plus follows once they
    are done and nobody has touched the screen for `auto_call` seconds."""

    def __init__(self, bridge: TableBridge, gate: GatedFeed, rng: random.Random, *,
                 auto_call: float = AUTO_CALL, stake_every: float = STAKE_EVERY,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._submit = bridge.submit
        self._rng = rng
        self._bets_open = False  # as the last board had them: a round starts as they open
        self._pending: list[Event] = []
        self._dealer = QTimer(self)
        self._dealer.setInterval(round(stake_every * 1000))
        self._dealer.timeout.connect(self._next_stake)
        self.call_timer = QTimer(self)
        self.call_timer.setSingleShot(True)
        self.call_timer.setInterval(round(auto_call * 1000))
        self.call_timer.timeout.connect(lambda: self._submit(CloseBets()))
        bridge.board_changed.connect(self.on_board)
        bridge.board_changed.connect(gate.on_board, Qt.ConnectionType.DirectConnection)

    def on_board(self, board: Board) -> None:
        layout = board.layout
        opened, self._bets_open = layout.bets_open and not self._bets_open, layout.bets_open
        if not layout.bets_open:
            self.call_timer.stop()
            self._dealer.stop()
            self._pending = []
            return
        if not opened:
            return
        self._pending = self._choices(board) + self._stakes(board)
        self._dealer.start()

    def _stakes(self, board: Board) -> list[Event]:
        chips = chips_for(board.layout.minimum, board.layout.maximum)
        seats = self._rng.sample(range(1, SEATS + 1), self._rng.randint(3, SEATS))
        return [PlaceStake(seat, self._rng.choice(CHANCES),
                           sum(self._rng.choices(chips[:3], k=self._rng.randint(1, 3)),
                               Decimal(0)))
                for seat in sorted(seats)]

    def _choices(self, board: Board) -> list[Event]:
        if not board.layout.choices_open:
            return []
        choices = [PrisonChoice.SHARE, PrisonChoice.KEEP]
        if board.layout.prison_move:
            choices.append(PrisonChoice.MOVE)
        out: list[Event] = []
        for stake in board.layout.stakes:
            if not stake.choosable:
                continue
            choice = self._rng.choice(choices)
            to = (self._rng.choice([c for c in CHANCES if c is not stake.chance])
                  if choice is PrisonChoice.MOVE else None)
            out.append(ChoosePrison(stake.seat, stake.chance, choice, to))
        return out

    def _next_stake(self) -> None:
        if self._pending:
            self._submit(self._pending.pop(0))
        else:  # the players are done: the tailleur's call, or ours in a few seconds
            self._dealer.stop()
            self.call_timer.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """A touch anywhere gives the tailleur `auto_call` seconds more to call it."""
        if event.type() in TOUCHES and self.call_timer.isActive():
            self.call_timer.start()
        return super().eventFilter(watched, event)
