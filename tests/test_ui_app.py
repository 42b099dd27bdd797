"""The table's window: three views under one language switch, wired to the bridge."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QLabel

from croupier.rulebook import load_rulebook
from tests.test_ui_support import BURN, apply, bridge_fixture, cards
from ui.app import DEFAULT_SIZE, TableWindow, settings_path
from ui.bridge import TableBridge
from ui.i18n import Lang
from ui.keypad import MIN_TARGET_PX
from ui.widgets import STYLE

__all__ = ["bridge_fixture"]


def test_language_switch_retranslates_every_view(qtbot, bridge) -> None:
    window = TableWindow(bridge, load_rulebook("venezia"))
    qtbot.addWidget(window)
    assert [window.tabText(i) for i in range(3)] == ["Tailleur", "Chef de table", "Relecture"]
    qtbot.mouseClick(window.lang_buttons[Lang.IT], Qt.MouseButton.LeftButton)
    assert [window.tabText(i) for i in range(3)] == ["Tailleur", "Capo tavolo", "Rilettura"]
    assert window.dealer.noir_row.title.text() == "Nero"
    assert window.audit.refresh_button.text() == "Verifica"
    assert window.replay.next_button.text() == "Successivo ▶"


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


def _contrast(first: str, second: str) -> float:
    """WCAG 2's contrast ratio of two #rrggbb colours."""
    def luminance(colour: str) -> float:
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
                   for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_disabled_buttons_read_at_4_5_to_1() -> None:
    rule = re.search(r"QPushButton:disabled \{([^}]*)\}", STYLE)
    assert rule is not None
    colours = dict(re.findall(r"(background|color):\s*(#[0-9a-fA-F]{6})", rule[1]))
    assert _contrast(colours["color"], colours["background"]) >= 4.5
    assert _contrast("#7fa596", "#1f6b50") < 4.5  # what it was: the test can tell


def test_the_kiosk_fills_the_screen(qtbot, bridge) -> None:  # type: ignore[no-untyped-def]
    window = TableWindow(bridge, load_rulebook("venezia"))
    qtbot.addWidget(window)
    window.present(kiosk=True)
    assert window.windowState() & Qt.WindowState.WindowFullScreen


def test_the_window_remembers_its_size_and_place(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    first = TableBridge(tmp_path / "a.db", load_rulebook("venezia"))
    window = TableWindow(first, load_rulebook("venezia"))
    qtbot.addWidget(window)
    window.present(kiosk=False)
    assert (window.width(), window.height()) == DEFAULT_SIZE
    window.setGeometry(40, 60, 700, 500)  # inside the offscreen screen, 800 px square
    where = window.geometry()
    window.close()
    assert settings_path().is_file()
    again = TableWindow(TableBridge(tmp_path / "b.db", load_rulebook("venezia")),
                        load_rulebook("venezia"))
    qtbot.addWidget(again)
    again.present(kiosk=False)
    assert again.geometry() == where
    assert (where.width(), where.height()) == (700, 500)
    again.close()


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 800)])
def test_the_language_buttons_are_whole(qtbot, bridge, size) -> None:  # type: ignore[no-untyped-def]
    window = TableWindow(bridge, load_rulebook("venezia"), Lang.IT)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    corner = window.cornerWidget()
    assert corner is not None
    for button in window.lang_buttons.values():
        assert corner.rect().contains(button.geometry())
        assert window.rect().contains(button.geometry().translated(corner.pos()))
        assert button.visibleRegion().boundingRect() == button.rect()
        assert button.fontMetrics().horizontalAdvance(button.text()) < button.width()
        assert min(button.width(), button.height()) >= MIN_TARGET_PX


def test_text_is_at_least_14_px(qtbot, bridge) -> None:  # type: ignore[no-untyped-def]
    """Status lines and notes read at a metre: 14 px and up, on every view but the
    dealer's (its status lines are being reworked with its widgets)."""
    window = TableWindow(bridge, load_rulebook("venezia"))
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    small = []
    for view in (window.audit, window.replay, window):
        for label in view.findChildren(QLabel):
            if window.dealer.isAncestorOf(label) and view is window:
                continue
            label.ensurePolished()
            if QFontInfo(label.font()).pixelSize() < 14:
                small.append(label.text())
    assert small == []


def test_a_failure_of_the_table_is_said_in_the_screens_language(qtbot, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    broken = TableBridge(tmp_path, load_rulebook("venezia"))  # a folder: no journal opens
    window = TableWindow(broken, load_rulebook("venezia"), Lang.IT)
    qtbot.addWidget(window)
    with qtbot.waitSignal(broken.failed, timeout=5000):
        broken.start()
    broken.stop()
    assert window.dealer.alarm_banner.text() == (
        "⚠ Il giornale del tavolo non si apre: il tavolo non può giocare")
    assert str(tmp_path) in capsys.readouterr().err  # the path, for whoever fixes it
