"""The chef de table's audit view: the journal table and its search, verification, marque,
alarms, and the PIN flow of the corrections, through the real bridge and journal."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from croupier.cards import Rank, Suit
from croupier.events import DeviceAlarm
from croupier.rulebook import load_rulebook
from journal.chef import MAX_TRIES, ChefDesk
from journal.live import JournaledTable
from journal.store import Journal, verify
from tests.test_ui_support import BURN, NOIR, ROUGE, apply, bridge_fixture, cards
from ui.audit import AuditView
from ui.bridge import TableBridge
from ui.dealer import DealerScreen
from ui.i18n import Lang, tr

__all__ = ["bridge_fixture"]
PIN = "471108"


@pytest.fixture(name="chef_bridge")
def chef_bridge_fixture(qtbot, tmp_path: Path) -> Iterator[TableBridge]:  # type: ignore[no-untyped-def]
    """A table whose chef's PIN was set at its set-up, before the screen opened."""
    path = tmp_path / "chef.db"
    live = JournaledTable.open(path, load_rulebook("venezia"))
    assert ChefDesk(live).set_pin(PIN, setup=True) is None
    live.close()
    bridge = TableBridge(path, load_rulebook("venezia"))
    with qtbot.waitSignal(bridge.board_changed, timeout=5000):
        bridge.start()
    yield bridge
    bridge.stop()


def _views(qtbot, bridge: TableBridge) -> tuple[AuditView, DealerScreen]:  # type: ignore[no-untyped-def] -> tuple[AuditView, DealerScreen]:  # type: ignore[no-untyped-def]
    audit = AuditView(bridge.correct, bridge.set_pin, bridge.request_audit)
    dealer = DealerScreen(bridge.submit)
    for widget in (audit, dealer):
        qtbot.addWidget(widget)
    bridge.audit_ready.connect(audit.show_report)
    bridge.refused.connect(audit.show_refused)
    bridge.answered.connect(audit.show_answer)
    bridge.board_changed.connect(dealer.show_board)
    return audit, dealer


@pytest.fixture
def views(qtbot, bridge: TableBridge) -> tuple[AuditView, DealerScreen]:  # type: ignore[no-untyped-def]
    return _views(qtbot, bridge)


@pytest.fixture
def chef_views(qtbot, chef_bridge: TableBridge) -> tuple[AuditView, DealerScreen]:  # type: ignore[no-untyped-def]
    return _views(qtbot, chef_bridge)


def refresh(qtbot, bridge: TableBridge, audit: AuditView) -> None:  # type: ignore[no-untyped-def]
    with qtbot.waitSignal(bridge.audit_ready, timeout=5000):
        qtbot.mouseClick(audit.refresh_button, Qt.MouseButton.LeftButton)


def correct(qtbot, bridge: TableBridge, audit: AuditView, pin: str, button) -> None:  # type: ignore[no-untyped-def]
    for digit in pin:  # on the touchscreen's keypad: no keyboard at a table
        qtbot.mouseClick(audit.corrections.keypad.buttons[digit], Qt.MouseButton.LeftButton)
    with qtbot.waitSignal(bridge.audit_ready, timeout=5000):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_journal_table_is_searchable(qtbot, bridge, views) -> None:
    audit, _ = views
    apply(qtbot, bridge, *cards(*BURN, *NOIR, *ROUGE))
    refresh(qtbot, bridge, audit)
    kinds = [line.kind for line in audit.model.lines]
    assert kinds.count("input") == kinds.count("decisions") == len(BURN) + len(NOIR) + len(ROUGE)
    qtbot.keyClicks(audit.search, "8h")
    # The input card 8H and the decisions row of the coup that holds it.
    assert audit.filter.rowCount() == 2
    kinds = {audit.filter.index(i, 2).data() for i in range(2)}
    assert kinds == {"input", "decisions"}


def test_verification_state_shows_a_tampered_row(qtbot, bridge, views, tmp_path) -> None:
    audit, _ = views
    apply(qtbot, bridge, *cards(*BURN))
    refresh(qtbot, bridge, audit)
    rows = verify(tmp_path / "table.db").rows
    assert audit.verdict_label.text() == f"✔ Journal intact — {rows} lignes"
    with sqlite3.connect(tmp_path / "table.db") as db:
        db.execute("""UPDATE rows SET body = '{"type": "card", "card": "AS"}' WHERE seq = 3""")
    refresh(qtbot, bridge, audit)
    assert audit.verdict_label.text().startswith("✘ Journal altéré — row 3:")
    with sqlite3.connect(tmp_path / "table.db") as db:
        db.execute("UPDATE rows SET body = 'not json' WHERE seq = 2")
    refresh(qtbot, bridge, audit)  # a row that is not even JSON is shown, not fatal
    assert audit.verdict_label.text().startswith("✘ Journal altéré — row 2:")


def test_marque_and_alarms(qtbot, bridge, views) -> None:
    audit, _ = views
    apply(qtbot, bridge, *cards(*BURN, *NOIR, *ROUGE), DeviceAlarm("shoe", "E3 Card Not Read"))
    refresh(qtbot, bridge, audit)
    assert audit.marque.toPlainText() == "shoe 1\n  R\n  C"
    assert audit.alarms.count() == 1
    assert "E3 Card Not Read" in audit.alarms.item(0).text()


def test_keypad_types_the_pin_and_rubs_out(qtbot, views) -> None:
    audit, _ = views
    keypad = audit.corrections.keypad
    for key in "123⌫4":
        qtbot.mouseClick(keypad.buttons[key], Qt.MouseButton.LeftButton)
    assert audit.corrections.pin.text() == "124"
    assert audit.corrections.new_pin.text() == ""


def test_the_first_pin_cannot_be_set_from_the_screen(qtbot, bridge, views, tmp_path) -> None:
    audit, _ = views
    refresh(qtbot, bridge, audit)
    assert not audit.corrections.void_button.isEnabled()
    assert not audit.corrections.set_pin_button.isEnabled()
    bridge.set_pin("246800")  # as if the button could still be reached
    refresh(qtbot, bridge, audit)
    assert not audit.corrections.void_button.isEnabled()
    assert audit.corrections.answer.text() == tr("pin_at_setup", Lang.FR)
    with Journal(tmp_path / "table.db", readonly=True) as journal:
        assert [row.data()["result"] for row in journal.rows("auth")] == ["setup_only"]


def test_a_pin_set_at_set_up_enables_the_corrections(qtbot, chef_bridge, chef_views) -> None:
    audit, _ = chef_views
    refresh(qtbot, chef_bridge, audit)
    assert audit.corrections.void_button.isEnabled()


def test_wrong_pin_is_refused_and_the_right_one_voids_the_coup(  # type: ignore[no-untyped-def]
        qtbot, chef_bridge, chef_views) -> None:
    audit, dealer = chef_views
    refresh(qtbot, chef_bridge, audit)
    apply(qtbot, chef_bridge, *cards(*BURN, "9H", "8S"))
    panel = audit.corrections
    correct(qtbot, chef_bridge, audit, "0000", panel.void_button)
    assert panel.answer.text() == "Refusé: wrong PIN"
    assert dealer.noir_row.cards() == ["9H", "8S"]
    assert panel.pin.text() == ""  # never left on the screen
    qtbot.keyClicks(panel.why, "cards mixed")
    correct(qtbot, chef_bridge, audit, PIN, panel.void_button)
    assert panel.answer.text() == "Fait: coup 1 voided"
    assert dealer.noir_row.cards() == []
    assert any("void_coup" in audit.corrections_log.item(i).text()
               for i in range(audit.corrections_log.count()))


def test_correct_the_last_card_with_the_picker(qtbot, chef_bridge, chef_views) -> None:
    audit, dealer = chef_views
    refresh(qtbot, chef_bridge, audit)
    apply(qtbot, chef_bridge, *cards(*BURN, "9H", "8S"))
    panel = audit.corrections
    qtbot.mouseClick(panel.picker.rank_buttons[Rank.KING], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.picker.suit_buttons[Suit.CLUBS], Qt.MouseButton.LeftButton)
    correct(qtbot, chef_bridge, audit, PIN, panel.correct_button)
    assert panel.answer.text() == "Fait: 8S read as KC"
    assert dealer.noir_row.cards() == ["9H", "KC"]
    assert dealer.noir_row.point.text() == "19"


def test_repeated_wrong_pins_lock_the_corrections(qtbot, chef_bridge, chef_views) -> None:
    audit, _ = chef_views
    refresh(qtbot, chef_bridge, audit)
    for _ in range(MAX_TRIES):
        correct(qtbot, chef_bridge, audit, "0000", audit.corrections.end_button)
    assert not audit.corrections.end_button.isEnabled()
    assert "locked" in audit.corrections.answer.text()


def test_a_keyed_journal_is_read_and_verified_with_its_secret(qtbot, tmp_path) -> None:
    keyed = TableBridge(tmp_path / "keyed.db", load_rulebook("venezia"), secret=b"table-7")
    audit = AuditView(keyed.correct, keyed.set_pin, keyed.request_audit)
    qtbot.addWidget(audit)
    keyed.audit_ready.connect(audit.show_report)
    with qtbot.waitSignal(keyed.board_changed, timeout=5000):
        keyed.start()
    try:
        apply(qtbot, keyed, *cards(*BURN))
        refresh(qtbot, keyed, audit)
        rows = verify(tmp_path / "keyed.db", secret=b"table-7").rows
        assert audit.verdict_label.text() == f"✔ Journal intact — {rows} lignes"
    finally:
        keyed.stop()


def test_a_journal_that_cannot_be_opened_is_reported(qtbot, tmp_path) -> None:
    broken = TableBridge(tmp_path, load_rulebook("venezia"))  # a folder, not a file
    with qtbot.waitSignal(broken.failed, timeout=5000) as blocker:
        broken.start()
    broken.stop()
    assert "cannot open the journal" in blocker.args[0]
