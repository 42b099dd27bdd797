"""The table's window: three views under one language switch, wired to the bridge."""

from __future__ import annotations

from PySide6.QtCore import Qt

from croupier.rulebook import load_rulebook
from tests.test_ui_support import BURN, apply, bridge_fixture, cards
from ui.app import TableWindow
from ui.i18n import Lang

__all__ = ["bridge_fixture"]


def test_language_switch_retranslates_every_view(qtbot, bridge) -> None:
    window = TableWindow(bridge, load_rulebook("venezia"))
    qtbot.addWidget(window)
    assert [window.tabText(i) for i in range(3)] == ["Tailleur", "Chef de table", "Relecture"]
    qtbot.mouseClick(window.lang_buttons[Lang.IT], Qt.MouseButton.LeftButton)
    assert [window.tabText(i) for i in range(3)] == ["Tailleur", "Capo tavolo", "Rilettura"]
    assert window.dealer.noir_row.title.text() == "Nero"
    assert window.audit.refresh_button.text() == "Verifica"
    assert window.replay.next_button.text() == "Colpo successivo ▶"


def test_the_dealer_tab_follows_the_table_and_the_audit_tab_asks_for_a_report(
    qtbot, bridge
) -> None:
    window = TableWindow(bridge, load_rulebook("venezia"))
    qtbot.addWidget(window)
    apply(qtbot, bridge, *cards(*BURN, "9H"))
    assert window.dealer.noir_row.cards() == ["9H"]
    with qtbot.waitSignal(bridge.audit_ready, timeout=5000):
        window.setCurrentWidget(window.audit)
    kinds = [line.kind for line in window.audit.model.lines]
    assert kinds.count("input") == kinds.count("decisions") == len(BURN) + 1
