"""The chef de table's audit view: the journal table and its search, verification, marque,
alarms, and the PIN flow of the corrections, through the real bridge and journal."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from PySide6.QtCore import Qt

from croupier.cards import Card, Rank, Suit
from croupier.decisions import Chance
from croupier.events import CardUnread, DeviceAlarm, PlaceStake, VoidCoup
from croupier.rulebook import load_rulebook
from journal.chef import MAX_TRIES, ChefDesk, Refusal
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


# The report is built in a process of its own: on a loaded machine starting it takes seconds.
REPORT_WAIT = 30000


def refresh(qtbot, bridge: TableBridge, audit: AuditView) -> None:  # type: ignore[no-untyped-def]
    with qtbot.waitSignal(bridge.audit_ready, timeout=REPORT_WAIT):
        qtbot.mouseClick(audit.refresh_button, Qt.MouseButton.LeftButton)


def correct(qtbot, bridge: TableBridge, audit: AuditView, pin: str, button) -> None:  # type: ignore[no-untyped-def]
    for digit in pin:  # on the touchscreen's keypad: no keyboard at a table
        qtbot.mouseClick(audit.corrections.keypad.buttons[digit], Qt.MouseButton.LeftButton)
    with qtbot.waitSignal(bridge.audit_ready, timeout=REPORT_WAIT):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_journal_table_is_searchable(qtbot, bridge, views) -> None:
    audit, _ = views
    apply(qtbot, bridge, *cards(*BURN, *NOIR, *ROUGE))
    refresh(qtbot, bridge, audit)
    kinds = [line.kind for line in audit.model.lines]
    assert kinds.count("input") == kinds.count("decisions") == len(BURN) + len(NOIR) + len(ROUGE)
    qtbot.keyClicks(audit.search, "8h")
    # The input card 8H and the decisions row of the coup that holds it, each whole.
    assert found(audit) == {("input", 1), ("decisions", 3)}  # the card, the coup, the payout
    shown = {audit.filter.index(i, 2).data() for i in range(audit.filter.rowCount())}
    assert shown == {"Saisie", "Table", ""}  # a row's kind on its first line only
    audit.search.clear()
    qtbot.keyClicks(audit.search, "noir 34")  # the words, not only the raw row
    assert found(audit) == {("decisions", 3)}


def found(audit: AuditView) -> set[tuple[str, int]]:
    """The journal rows a search shows, each with how many table lines it takes."""
    lines = [audit.model.line_of(audit.filter.mapToSource(audit.filter.index(i, 0)).row())
             for i in range(audit.filter.rowCount())]
    return {(line.kind, lines.count(line)) for line in lines}


def test_verification_state_shows_a_tampered_row(qtbot, bridge, views, tmp_path) -> None:
    audit, _ = views
    apply(qtbot, bridge, *cards(*BURN))
    refresh(qtbot, bridge, audit)
    rows = verify(tmp_path / "table.db").rows
    assert audit.verdict_label.text() == f"✔ Journal intact — {rows} lignes"
    with sqlite3.connect(tmp_path / "table.db") as db:
        db.execute("""UPDATE rows SET body = '{"type": "card", "card": "AS"}' WHERE seq = 3""")
    refresh(qtbot, bridge, audit)
    assert audit.verdict_label.text() == "✘ Journal altéré — ligne 3 : son contenu a été modifié"
    with sqlite3.connect(tmp_path / "table.db") as db:
        db.execute("UPDATE rows SET body = 'not json' WHERE seq = 2")
    refresh(qtbot, bridge, audit)  # a row that is not even JSON is shown, not fatal
    assert audit.verdict_label.text().startswith("✘ Journal altéré — ligne 2 :")


def test_marque_and_alarms(qtbot, bridge, views) -> None:
    audit, _ = views
    apply(qtbot, bridge, *cards(*BURN, *NOIR, *ROUGE), DeviceAlarm("shoe", "E3 Card Not Read"))
    refresh(qtbot, bridge, audit)
    assert audit.marque.toPlainText() == "Sabot 1\n  R\n  C"
    assert audit.alarms.count() == 1
    assert "Le sabot : signale « E3 Card Not Read »" in audit.alarms.item(0).text()


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
    qtbot.keyClicks(panel.why, "cards mixed")
    correct(qtbot, chef_bridge, audit, "0000", panel.void_button)
    assert panel.answer.text() == "Refusé: code erroné"
    assert dealer.noir_row.cards() == ["9H", "8S"]
    assert panel.pin.text() == ""  # never left on the screen
    correct(qtbot, chef_bridge, audit, PIN, panel.void_button)
    assert panel.answer.text() == "Fait: coup 1 annulé"
    assert dealer.noir_row.cards() == []
    log = [audit.corrections_log.item(i).text() for i in range(audit.corrections_log.count())]
    assert any("Correction par chef (cards mixed) : coup 1 annulé" in line for line in log)


def test_correct_the_last_card_with_the_picker(qtbot, chef_bridge, chef_views) -> None:
    audit, dealer = chef_views
    refresh(qtbot, chef_bridge, audit)
    apply(qtbot, chef_bridge, *cards(*BURN, "9H", "8S"))
    panel = audit.corrections
    qtbot.mouseClick(panel.picker.rank_buttons[Rank.KING], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.picker.suit_buttons[Suit.CLUBS], Qt.MouseButton.LeftButton)
    qtbot.keyClicks(panel.why, "misread")
    correct(qtbot, chef_bridge, audit, PIN, panel.correct_button)
    assert panel.answer.text() == "Fait: 8♠ lue comme K♣"
    assert dealer.noir_row.cards() == ["9H", "KC"]
    assert dealer.noir_row.point.text() == "19"


def test_repeated_wrong_pins_lock_the_corrections(qtbot, chef_bridge, chef_views) -> None:
    audit, _ = chef_views
    refresh(qtbot, chef_bridge, audit)
    qtbot.keyClicks(audit.corrections.why, "shoe dropped")
    for _ in range(MAX_TRIES):
        correct(qtbot, chef_bridge, audit, "0000", audit.corrections.end_button)
    assert not audit.corrections.end_button.isEnabled()
    assert "corrections bloquées" in audit.corrections.answer.text()


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


def test_rows_read_as_the_chef_speaks_in_local_time_and_whole(  # type: ignore[no-untyped-def]
        qtbot, tmp_path) -> None:
    """A coup, a stake, a payout: in words, in the casino's zone, no line cut off."""
    monaco = ZoneInfo("Europe/Monaco")
    bridge = TableBridge(tmp_path / "t.db", load_rulebook("venezia"))
    audit = AuditView(bridge.correct, bridge.set_pin, bridge.request_audit, zone=monaco)
    qtbot.addWidget(audit)
    bridge.audit_ready.connect(audit.show_report)
    with qtbot.waitSignal(bridge.board_changed, timeout=5000):
        bridge.start()
    try:
        apply(qtbot, bridge, *cards(*BURN), *(PlaceStake(seat, chance, Decimal(100))
                                             for seat in range(1, 9) for chance in Chance),
              *cards(*NOIR, *ROUGE))
        audit.resize(1280, 800)
        audit.show()
        refresh(qtbot, bridge, audit)
    finally:
        bridge.stop()
    shown = [audit.model.index(i, 3).data() for i in range(audit.model.rowCount())]
    assert "Mise : place 8, 100 sur inverse" in shown
    assert "Coup 1 — noir 34, rouge 33 — rouge gagne, couleur gagne" in shown
    assert "  Payer · place 8 · rouge 100" in shown
    coup = next(line for line in audit.model.lines if "Coup 1 —" in line.words[0])
    assert len(coup.words[0].splitlines()) == 1 + 1 + 1 + 32  # card, coup, payout, 32 stakes
    assert sum(1 for i in range(audit.model.rowCount())
               if audit.model.line_of(i) is coup) == 35  # a table line each
    at = audit.model.lines[0].at
    expected = datetime.fromisoformat(at).astimezone(monaco).strftime("%H:%M:%S %Z")
    assert audit.model.index(0, 1).data() == expected
    assert expected.endswith(("CET", "CEST"))
    assert audit.model.headerData(1, Qt.Orientation.Horizontal).endswith(
        f"({expected.split()[-1]})")
    metrics = audit.table.fontMetrics()
    widest = max(metrics.horizontalAdvance(text) for text in shown)
    assert audit.table.columnWidth(3) >= widest  # no line cut off at the right
    assert all(audit.table.rowHeight(i) >= metrics.height()  # nor at the bottom
               for i in range(audit.model.rowCount()))
    audit.set_lang(Lang.IT)
    assert "Colpo 1 — nero 34, rosso 33 — vince rosso, vince colore" in [
        audit.model.index(i, 3).data() for i in range(audit.model.rowCount())]


def test_the_raw_row_is_one_tap_away(qtbot, bridge, views) -> None:  # type: ignore[no-untyped-def]
    audit, _ = views
    apply(qtbot, bridge, *cards(*BURN))
    refresh(qtbot, bridge, audit)
    audit.resize(1280, 800)
    audit.show()
    row = next(i for i in range(audit.model.rowCount())
               if audit.model.line_of(i).kind == "input")
    line = audit.model.line_of(row)
    audit.table.scrollTo(audit.filter.index(row, 3))
    rect = audit.table.visualRect(audit.filter.index(row, 3))
    qtbot.mouseClick(audit.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    raw = audit.raw.toPlainText()
    assert raw.startswith(f"#{line.seq}  {line.at}  input")
    assert '"card": "4C"' in raw


def test_a_correction_without_a_reason_is_refused(  # type: ignore[no-untyped-def]
        qtbot, chef_bridge, chef_views, tmp_path) -> None:
    audit, dealer = chef_views
    refresh(qtbot, chef_bridge, audit)
    apply(qtbot, chef_bridge, *cards(*BURN, "9H", "8S"))
    panel = audit.corrections
    for digit in PIN:
        qtbot.mouseClick(panel.keypad.buttons[digit], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.void_button, Qt.MouseButton.LeftButton)
    assert panel.answer.text() == ("Refusé: une correction exige une raison : "
                                   "remplir « Pourquoi »")
    assert panel.pin.text() == PIN  # kept: only the reason is wanted
    with qtbot.waitSignal(chef_bridge.refused, timeout=5000) as refused:
        chef_bridge.correct(PIN, VoidCoup("chef", "  "))  # as if the screen let it through
    assert refused.args[0].why is Refusal.NO_REASON
    assert dealer.noir_row.cards() == ["9H", "8S"]


def test_the_lock_counts_down_and_lifts(qtbot, views) -> None:  # type: ignore[no-untyped-def]
    audit, _ = views
    panel = audit.corrections
    panel.show_state(True, 2.5, Lang.EN)
    assert not panel.void_button.isEnabled()
    assert panel.answer.text().endswith("locked for 3 s more")
    qtbot.waitUntil(lambda: panel.answer.text().endswith("locked for 2 s more"), timeout=2000)
    qtbot.waitUntil(panel.void_button.isEnabled, timeout=3000)
    assert panel.answer.text() == ""
    assert not panel.countdown.isActive()


def test_alarms_clear_when_resolved(qtbot, bridge, views) -> None:  # type: ignore[no-untyped-def]
    audit, _ = views
    apply(qtbot, bridge, *cards(*BURN), CardUnread("/dev/ttyUSB0", Card.parse("9H"), 0.6))
    refresh(qtbot, bridge, audit)
    first = audit.alarms.item(0).text()
    assert "Le sabot : carte non lue (lecture probable 9♥) : à confirmer" in first
    assert "/dev/" not in first
    assert "✔" not in first
    assert audit.open_alarms() == 1
    apply(qtbot, bridge, *cards("9H"))
    refresh(qtbot, bridge, audit)
    assert audit.open_alarms() == 0
    assert audit.alarms.item(0).text() == tr("no_alarm", Lang.FR)
    assert "✔ résolue ligne" in audit.alarms.item(1).text()
