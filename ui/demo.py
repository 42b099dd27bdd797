"""The demonstration table: simulated players around the screen, and a tailleur's rhythm.

The shoe simulator deals at its pace on its own; at a real table no card leaves the shoe
while bets are open. `DemoGate` holds the simulator's cards while the table's snapshot says
bets are open, and lets them through one a pace once rien ne va plus is called (or while
the burn, a coup or the talon is dealt). `DemoPlayers` stake, share and move on the seats
between coups, through the same commands the screen's taps send; if nobody touches the
screen they call rien ne va plus themselves after a while, so the demo runs on unattended
while the payout plan of each coup stays up long enough to be followed and ticked off.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from app.reading import Put
from croupier.decisions import Chance
from croupier.events import (
    ChoosePrison,
    CloseBets,
    PlaceStake,
    PrisonChoice,
    ShoeEvent,
    Withdraw,
)
from croupier.table import Event
from croupier.view import Allowed, TableView
from ui.board import Board
from ui.keypad import chips_for
from ui.stake_panel import CHANCES, SEATS

Submit = Callable[[Event], None]


class DemoGate:
    """Between a feed's reader thread and the table: waits while bets are open, and spaces
    the cards it lets through by `pace` seconds."""

    def __init__(self, pace: float) -> None:
        self._pace = pace
        self._open = threading.Event()
        self._open.set()  # the burn comes first
        self._stopped = False
        self._last = 0.0

    def show(self, view: TableView) -> None:
        """From the GUI thread, with each new snapshot."""
        if Allowed.STAKE in view.allowed:
            self._open.clear()
        else:
            self._open.set()

    def stop(self) -> None:
        """Let a waiting reader go, to throw its cards away: the demo is over."""
        self._stopped = True
        self._open.set()

    def wrap(self, put: Put) -> Put:
        def gated(events: tuple[ShoeEvent, ...], link: int | None) -> None:
            # Cards held back pile up on the line and arrive as one batch: they go on one
            # by one, each waiting its turn (the link's place goes with the last).
            for i, event in enumerate(events, 1):
                while True:
                    self._open.wait()  # again after each pause: bets may have opened
                    if self._stopped:
                        return  # a demo that ends deals no more: its shoe is thrown away
                    wait = self._last + self._pace - time.monotonic()
                    if wait <= 0:
                        break
                    time.sleep(wait)
                self._last = time.monotonic()
                put((event,), link if i == len(events) else None)

        return gated


class DemoPlayers(QObject):
    """Eight seats that play between coups: a few stake (some insured), one may withdraw,
    prisoners share or move; rien ne va plus follows after `call_after` seconds untouched.

    `hold` seconds of payout come first: the plan stays on the screen to be paid; a plan
    ticked off completely lets the players go on at once."""

    def __init__(self, submit: Submit, *, hold: float, call_after: float, seed: int,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._submit = submit
        self._rng = random.Random(seed)
        self._round = -1  # the coup whose betting has begun
        self._view: TableView | None = None
        self._hold = QTimer(self)
        self._hold.setSingleShot(True)
        self._hold.setInterval(round(hold * 1000))
        self._hold.timeout.connect(self._play)
        self._call = QTimer(self)
        self._call.setSingleShot(True)
        self._call.setInterval(round(call_after * 1000))
        self._call.timeout.connect(self._call_it)

    def show_board(self, board: Board) -> None:
        view = self._view = board.view
        if Allowed.STAKE not in view.allowed:
            self._hold.stop()
            self._call.stop()
            return
        if view.betting_on != self._round:
            self._round = view.betting_on
            self._hold.start()
        elif self._hold.isActive() and board.settlement and \
                len(board.paid) == len(board.settlement):
            self._hold.stop()
            self._play()

    def _play(self) -> None:
        view = self._view
        if view is None or Allowed.STAKE not in view.allowed:
            return
        for event in self.round_of_play(view):
            self._submit(event)
        self._call.start()

    def round_of_play(self, view: TableView) -> list[Event]:
        """What the seats do in one betting round, given the layout."""
        rng = self._rng
        events: list[Event] = []
        for stake in view.prisoners:
            others = [c for c in CHANCES if c is not stake.chance]
            if view.prison_move and rng.random() < 0.3:
                events.append(ChoosePrison(stake.seat, stake.chance, PrisonChoice.MOVE,
                                           rng.choice(others)))
            elif rng.random() < 0.4:
                events.append(ChoosePrison(stake.seat, stake.chance, PrisonChoice.SHARE, None))
        chips = chips_for(view.minimum, view.maximum)
        staking = rng.sample(range(1, SEATS + 1), rng.randint(3, SEATS))
        for seat in sorted(staking):
            chance: Chance = rng.choice(CHANCES)
            amount = rng.choice(chips) * rng.randint(1, 3)
            events.append(PlaceStake(seat, chance, amount, rng.random() < 0.2))
        if staking and rng.random() < 0.2:
            seat = staking[0]
            free = [s.chance for s in view.stakes if s.seat == seat and not s.in_prison]
            if free:
                events.append(Withdraw(seat, free[0]))
        return events

    def _call_it(self) -> None:
        view = self._view
        if view is not None and Allowed.CLOSE_BETS in view.allowed:
            self._submit(CloseBets())
