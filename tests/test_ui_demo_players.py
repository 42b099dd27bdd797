"""`make demo`'s table: players who stake and choose through the bridge, and a shoe that
waits for rien ne va plus."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton

from croupier.events import CloseBets
from croupier.rulebook import load_rulebook
from drivers.backends import open_backend
from journal.store import Journal
from tests.test_ui_support import FIXTURES
from ui.board import Board
from ui.bridge import TableBridge
from ui.demo_players import DemoPlayers, GatedFeed
from ui.feeds import SourceFeed
from ui.scenario import DEMO_TABLE


def _feed(fixture: Path) -> GatedFeed:
    return GatedFeed(SourceFeed("replay", lambda _at: open_backend("replay", str(fixture)),
                                resends=None), pace=0.05)


@pytest.fixture
def demo(qtbot, tmp_path: Path) -> Iterator[tuple[TableBridge, DemoPlayers, list[Board]]]:  # type: ignore[no-untyped-def]
    gate = _feed(FIXTURES / "couleur_calls.shoe")
    bridge = TableBridge(tmp_path / "demo.db", load_rulebook("venezia"), (gate,))
    players = DemoPlayers(bridge, gate, random.Random(5), auto_call=0.3, stake_every=0.02)
    boards: list[Board] = []
    bridge.board_changed.connect(boards.append)
    for event in DEMO_TABLE:
        bridge.submit(event)
    bridge.start()
    yield bridge, players, boards
    bridge.stop()


def _inputs(path: Path) -> list[dict[str, object]]:
    with Journal(path, readonly=True) as journal:
        return [row.data() for row in journal.rows("input")]


def test_every_coup_is_staked_called_and_paid(qtbot, demo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    _bridge, _players, boards = demo
    qtbot.waitUntil(lambda: any(b.coup is not None and b.coup.number == 3 for b in boards),
                    timeout=20000)
    kinds = [record["type"] for record in _inputs(tmp_path / "demo.db")]
    # each coup: the players' stakes, then rien ne va plus, then its first card
    first_call = kinds.index("close_bets")
    assert "stake" in kinds[:first_call]
    assert kinds[first_call + 1] == "card"
    assert kinds.count("close_bets") >= 3
    paid = [b for b in boards if b.settlement]
    assert paid  # the payout plans the stakes made


def _table(tmp_path: Path, auto_call: float) -> tuple[TableBridge, DemoPlayers, list[Board]]:
    gate = _feed(FIXTURES / "couleur_calls.shoe")
    bridge = TableBridge(tmp_path / "wait.db", load_rulebook("venezia"), (gate,))
    players = DemoPlayers(bridge, gate, random.Random(5), auto_call=auto_call,
                          stake_every=0.02)
    boards: list[Board] = []
    bridge.board_changed.connect(boards.append)
    bridge.start()
    return bridge, players, boards


def test_the_shoe_waits_while_bets_are_open(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    bridge, players, boards = _table(tmp_path, auto_call=60)
    try:
        qtbot.waitUntil(players.call_timer.isActive, timeout=5000)  # the players are done
        qtbot.wait(300)
        assert boards[-1].layout.bets_open
        assert boards[-1].layout.shoe.dealt == 0  # no card while bets are open
        assert boards[-1].layout.stakes  # the players' stakes, on the layout
        bridge.submit(CloseBets())  # the tailleur's call
        qtbot.waitUntil(lambda: boards[-1].layout.shoe.dealt > 0, timeout=5000)
        assert not players.call_timer.isActive()
    finally:
        bridge.stop()


def test_a_touch_holds_back_the_demos_call(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    bridge, players, _boards = _table(tmp_path, auto_call=5)
    button = QPushButton("x")
    qtbot.addWidget(button)
    button.show()
    app = QApplication.instance()
    assert app is not None
    app.installEventFilter(players)
    try:
        qtbot.waitUntil(players.call_timer.isActive, timeout=5000)
        qtbot.wait(500)
        before = players.call_timer.remainingTime()
        assert before < 4700
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert players.call_timer.remainingTime() > 4800  # counted afresh
    finally:
        app.removeEventFilter(players)
        bridge.stop()
