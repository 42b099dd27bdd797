"""Shared pieces of the UI tests (no tests here): a live bridge on a temporary journal, and
feeding it. Test modules import `bridge_fixture` to use the `bridge` fixture."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier.cards import Card
from croupier.events import CardDrawn
from croupier.rulebook import load_rulebook
from croupier.table import Event
from ui.board import Board
from ui.bridge import TableBridge

FIXTURES = Path(__file__).resolve().parent.parent / "hardware-sims" / "fixtures"
BURN = ("4C", "KD", "9S", "2H", "QC")
# Coup 1 of couleur_calls.shoe: noir 34 (first card red), rouge 33: rouge gagne et couleur.
NOIR = ("9H", "8S", "KC", "7D")
ROUGE = ("TD", "5C", "JS", "8H")


def cards(*names: str) -> list[Event]:
    return [CardDrawn(Card.parse(name)) for name in names]


def apply(qtbot, bridge: TableBridge, *events: Event) -> Board:  # type: ignore[no-untyped-def]
    """Submit the events as taps or a shoe would, and wait for the board of the last one."""
    boards: list[Board] = []

    def keep(board: Board) -> None:
        boards.append(board)

    bridge.board_changed.connect(keep)
    try:
        for event in events:
            bridge.submit(event)
        qtbot.waitUntil(lambda: len(boards) >= len(events), timeout=5000)
    finally:
        bridge.board_changed.disconnect(keep)
    return boards[-1]


def wait_boards(qtbot, bridge: TableBridge, count: int) -> list[Board]:  # type: ignore[no-untyped-def]
    """Wait for `count` boards from whatever the bridge is fed (taps, feeds)."""
    boards: list[Board] = []
    bridge.board_changed.connect(boards.append)
    qtbot.waitUntil(lambda: len(boards) >= count, timeout=5000)
    return boards


@pytest.fixture(name="bridge")
def bridge_fixture(qtbot, tmp_path: Path) -> Iterator[TableBridge]:  # type: ignore[no-untyped-def]
    live = TableBridge(tmp_path / "table.db", load_rulebook("venezia"))
    with qtbot.waitSignal(live.board_changed, timeout=5000):
        live.start()
    yield live
    live.stop()
