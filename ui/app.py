"""The table's window: the dealer screen, the audit view and the replay view under one
language switch, wired to the bridge's signals."""

from __future__ import annotations

import sys
from datetime import tzinfo
from pathlib import Path

import platformdirs
from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QPushButton, QTabWidget, QWidget

from croupier.rulebook import Rulebook
from ui.audit import AuditView
from ui.bridge import TableBridge
from ui.dealer import DealerScreen
from ui.i18n import Lang, tr
from ui.keypad import KEY_PX
from ui.phrases import failure_text
from ui.replay import ReplayView
from ui.widgets import STYLE

DEFAULT_SIZE = (1600, 1000)
# The language buttons sit in the tab bar's corner: as tall as the tabs, whatever the rest
# of the window's buttons are, so that the bar never clips them; still a 9 mm target.
TAB_HEIGHT = max(KEY_PX, 48)
CORNER_STYLE = (f"QPushButton {{ min-height: {TAB_HEIGHT}px; max-height: {TAB_HEIGHT}px; "
                f"min-width: {TAB_HEIGHT + 12}px; padding: 0 8px; font-size: 16pt; }}")
TAB_STYLE = f"QTabBar::tab {{ min-height: {TAB_HEIGHT}px; }}"


def settings_path() -> Path:
    """Where the window remembers its size and place: the user's state folder, not the
    table's journal (a window's place is this PC's business)."""
    return platformdirs.user_state_path("croupier") / "window.ini"


class TableWindow(QTabWidget):
    def __init__(self, bridge: TableBridge, rulebook: Rulebook, lang: Lang = Lang.FR,
                 *, zone: tzinfo | None = None) -> None:
        """`zone`: the casino's time zone, for the chef's journal (None: this PC's)."""
        super().__init__()
        self.setStyleSheet(STYLE + TAB_STYLE)
        self.setWindowTitle("Trente et Quarante")
        self.kiosk = False
        self.lang = lang
        self.bridge = bridge
        self.dealer = DealerScreen(bridge.submit, lang, tick=bridge.tick)
        self.audit = AuditView(bridge.correct, bridge.set_pin, bridge.request_audit, lang,
                               zone=zone)
        self.replay = ReplayView(rulebook, lang)
        self.addTab(self.dealer, "")
        self.addTab(self.audit, "")
        self.addTab(self.replay, "")
        bridge.board_changed.connect(self.dealer.show_board)
        bridge.audit_ready.connect(self.audit.show_report)
        bridge.refused.connect(self.audit.show_refused)
        bridge.answered.connect(self.audit.show_answer)
        bridge.failed.connect(self._failed)
        self.currentChanged.connect(self._tab_changed)
        self.lang_buttons: dict[Lang, QPushButton] = {}
        switch = QWidget()
        switch.setStyleSheet(CORNER_STYLE)
        row = QHBoxLayout(switch)
        row.setContentsMargins(0, 0, 4, 0)
        row.setSpacing(4)
        group = QButtonGroup(switch)
        for choice in Lang:
            button = QPushButton(choice.value.upper())
            button.setCheckable(True)
            button.setChecked(choice is lang)
            button.clicked.connect(lambda _checked=False, c=choice: self.set_lang(c))
            group.addButton(button)
            self.lang_buttons[choice] = button
            row.addWidget(button)
        self.setCornerWidget(switch)
        self.set_lang(lang)

    def _failed(self, message: str) -> None:
        print(f"croupier ui: {message}", file=sys.stderr)  # the details, paths and all
        self.dealer.alarm_banner.setText(f"⚠ {failure_text(message, self.lang)}")

    def set_lang(self, lang: Lang) -> None:
        self.lang = lang
        for i, key in enumerate(("dealer", "audit", "replay")):
            self.setTabText(i, tr(key, lang))
        self.lang_buttons[lang].setChecked(True)
        for view in (self.dealer, self.audit, self.replay):
            view.set_lang(lang)

    def _tab_changed(self, index: int) -> None:
        if self.widget(index) is self.audit:
            self.bridge.request_audit()  # built on the worker, shown when it arrives

    def present(self, *, kiosk: bool) -> None:
        """Show the window: full screen on the table's PC (`kiosk`), else where and as large
        as it was last closed (the first time: `DEFAULT_SIZE`)."""
        self.kiosk = kiosk
        if kiosk:
            self.showFullScreen()
            return
        saved = QSettings(str(settings_path()), QSettings.Format.IniFormat).value("geometry")
        if not (isinstance(saved, QByteArray) and self.restoreGeometry(saved)):
            self.resize(*DEFAULT_SIZE)
        self.show()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        if not self.kiosk:  # a full screen says nothing of the size wanted next time
            settings = QSettings(str(settings_path()), QSettings.Format.IniFormat)
            settings.setValue("geometry", self.saveGeometry())
            settings.sync()
        self.bridge.stop()
        super().closeEvent(event)
