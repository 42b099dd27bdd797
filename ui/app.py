"""The table's window: the dealer screen, the audit view and the replay view under one
language switch, wired to the bridge's signals."""

from __future__ import annotations

from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QPushButton, QTabWidget, QWidget

from croupier.rulebook import Rulebook
from ui.audit import AuditView
from ui.bridge import TableBridge
from ui.dealer import DealerScreen
from ui.i18n import Lang, tr
from ui.replay import ReplayView
from ui.widgets import STYLE


class TableWindow(QTabWidget):
    def __init__(self, bridge: TableBridge, rulebook: Rulebook, lang: Lang = Lang.FR) -> None:
        super().__init__()
        self.setStyleSheet(STYLE)
        self.setWindowTitle("Trente et Quarante")
        self.bridge = bridge
        self.dealer = DealerScreen(bridge.submit, lang, tick=bridge.tick)
        self.audit = AuditView(bridge.correct, bridge.set_pin, bridge.request_audit, lang)
        self.replay = ReplayView(rulebook, lang)
        self.addTab(self.dealer, "")
        self.addTab(self.audit, "")
        self.addTab(self.replay, "")
        bridge.board_changed.connect(self.dealer.show_board)
        bridge.audit_ready.connect(self.audit.show_report)
        bridge.refused.connect(self.audit.show_refused)
        bridge.answered.connect(self.audit.show_answer)
        bridge.failed.connect(self.dealer.alarm_banner.setText)
        self.currentChanged.connect(self._tab_changed)
        self.lang_buttons: dict[Lang, QPushButton] = {}
        switch = QWidget()
        row = QHBoxLayout(switch)
        row.setContentsMargins(0, 0, 0, 0)
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

    def set_lang(self, lang: Lang) -> None:
        for i, key in enumerate(("dealer", "audit", "replay")):
            self.setTabText(i, tr(key, lang))
        self.lang_buttons[lang].setChecked(True)
        for view in (self.dealer, self.audit, self.replay):
            view.set_lang(lang)

    def _tab_changed(self, index: int) -> None:
        if self.widget(index) is self.audit:
            self.bridge.request_audit()  # built on the worker, shown when it arrives

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        self.bridge.stop()
        super().closeEvent(event)
