"""The demonstration table: the simulator's cards wait for rien ne va plus, the simulated
players stake between coups, and the coups they staked on are called, decided and paid."""

from __future__ import annotations

import random
from pathlib import Path

from app.sources import simulator_source
from croupier.fixtures import render_shoe
from croupier.rulebook import load_rulebook
from croupier.shuffle import regulation_shoe
from croupier.view import Allowed
from journal.store import Journal
from ui.board import Board
from ui.bridge import TableBridge
from ui.demo import DemoGate, DemoPlayers
from ui.scenario import DEMO_TABLE

PACE = 0.02


def test_the_demo_waits_for_the_call_and_pays_staked_coups(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    shoe = tmp_path / "demo.shoe"
    shoe.write_text(render_shoe(regulation_shoe(random.Random(5))), encoding="utf-8")
    gate = DemoGate(PACE)
    bridge = TableBridge(tmp_path / "demo.db", load_rulebook("venezia"),
                         (simulator_source(shoe, pace=PACE).through(gate),), durable=False)
    players = DemoPlayers(bridge.submit, hold=0.2, call_after=0.3, seed=5)
    boards: list[Board] = []
    bridge.board_changed.connect(lambda board: gate.show(board.view))
    bridge.board_changed.connect(players.show_board)
    bridge.board_changed.connect(boards.append)
    for event in DEMO_TABLE:
        bridge.submit(event)
    bridge.start()
    try:
        qtbot.waitUntil(lambda: bool(boards) and boards[-1].number >= 4
                        and Allowed.STAKE in boards[-1].view.allowed, timeout=30000)
    finally:
        bridge.stop()
    with Journal(tmp_path / "demo.db") as journal:
        inputs = [row.data()["type"] for row in journal.rows("input")]
        decisions = [d for row in journal.rows("decisions") for d in row.data()["decisions"]]
    decided = [d for d in decisions if d.get("event") == "settlement"]
    dealt = [d for d in decisions if d.get("event") in ("coup", "void_coup")]
    # No coup's first card while bets were open: each coup dealt follows a rien ne va plus,
    # and the players staked before each.
    cards = [i for i, kind in enumerate(inputs) if kind == "card"]
    calls = [i for i, kind in enumerate(inputs) if kind == "close_bets"]
    assert len(calls) >= 3, " ".join(inputs)
    assert len(dealt) <= len(calls), " ".join(inputs)
    assert all(any(kind == "stake" for kind in inputs[c - 8:c]) for c in calls)
    assert calls[0] > cards[4]  # the burn first, then the first betting round
    # Staked coups were decided and paid: collections and payments in their plans.
    actions = {line["action"] for s in decided for line in s["lines"]}
    assert {"collect", "pay"} <= actions
