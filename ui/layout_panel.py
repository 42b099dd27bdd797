"""The layout as it stands: every seat's stakes for the coup being bet on, insured or not,
the prisoners and their levels, and the sums, seen before rien ne va plus."""

from __future__ import annotations

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from croupier.money import money_text
from ui.board import Board
from ui.i18n import Lang, tr
from ui.lines import ACTION_COLOURS, PLAIN, payout_text, stake_text


class LayoutPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._key: object = None
        self.title = QLabel("")
        self.title.setStyleSheet("font-size: 20pt; font-weight: bold;")
        self.list = QListWidget()
        self.list.setStyleSheet("font-size: 18pt;")
        self.list.setSelectionMode(QListWidget.SelectionMode.NoSelection)
        self.totals = QLabel("")
        self.totals.setStyleSheet("font-size: 16pt;")
        self.totals.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.totals)

    def show_board(self, board: Board, lang: Lang) -> None:
        view = board.view
        key = (view.stakes, view.betting_on, board.layout_lines, lang)
        if key == self._key:
            return
        self._key = key
        self.title.setText(f"{tr('stakes', lang)} — {tr('coup', lang)} {view.betting_on}")
        self.list.clear()
        for stake in sorted(view.stakes, key=lambda s: (s.seat, s.chance.value)):
            self._add(stake_text(stake, lang), "#ffd75e" if stake.in_prison else PLAIN)
        for line in board.layout_lines:
            self._add(payout_text(line, lang), ACTION_COLOURS.get(line.action, PLAIN))
        if not view.stakes and not board.layout_lines:
            self._add(tr("no_stakes", lang), "#9fd3bd")
        t = view.totals
        limits = ""
        if view.minimum is not None and view.maximum is not None:
            limits = f" · {tr('limits', lang)} {money_text(view.minimum)}–" \
                     f"{money_text(view.maximum)}"
        self.totals.setText(
            f"{tr('free', lang)} {money_text(t.free)} · {tr('prison', lang)} "
            f"{money_text(t.in_prison)} · {tr('insured', lang)} {money_text(t.insured)} · "
            f"{tr('premiums', lang)} {money_text(t.premiums)}{limits}")

    def _add(self, text: str, colour: str) -> None:
        item = QListWidgetItem(text)
        item.setForeground(QColor(colour))
        self.list.addItem(item)

    def lines(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]
