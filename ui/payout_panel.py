"""The coup's plan: each line ticked off as it is paid, with the totals beneath."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QListWidgetItem, QWidget

from croupier.decisions import Result
from croupier.money import money_text
from croupier.view import plan_totals
from ui.board import Board
from ui.i18n import Lang, chance_name, tr
from ui.lines import ACTION_COLOURS, PLAIN
from ui.phrases import settlement_line_text
from ui.widgets import ALARM, GOLD, TOUCH_HEIGHT, ListPanel

Tick = Callable[[int, int, bool], None]  # coup, line, paid


class PayoutPanel(ListPanel):
    """Lines of the plan in the order the croupier acts; a tap ticks one off (and back)."""

    def __init__(self, tick: Tick, parent: QWidget | None = None) -> None:
        super().__init__(20, parent)
        self._tick = tick
        self._board: Board | None = None
        self._key: object = None
        self.list.itemClicked.connect(self._clicked)

    def show_board(self, board: Board, lang: Lang, *, read_only: bool = False) -> None:
        key = (board.number, board.coup, board.voided, board.settlement, board.paid, lang,
               read_only)
        self._board = board
        if key == self._key:
            return
        self._key = key
        self.list.clear()
        coup = board.coup
        number = board.number
        self.title.setText(f"{tr('payout', lang)} — {tr('coup', lang)} {number}" if number
                           else tr("payout", lang))
        if board.voided is not None:
            self._add(f"{tr('void', lang)} {board.voided.number}", ALARM)
        if coup is not None and coup.result in (Result.APRES, Result.REFAIT):
            self._add(tr(coup.result.value, lang), GOLD)
        for index, line in enumerate(board.settlement):
            paid = index in board.paid
            colour = ACTION_COLOURS.get(line.action, PLAIN)
            item = self._add(settlement_line_text(line, lang), colour)
            item.setData(Qt.ItemDataRole.UserRole, index)
            if not read_only:
                item.setCheckState(Qt.CheckState.Checked if paid else Qt.CheckState.Unchecked)
            if paid:
                item.setForeground(QColor("#8fb3a4"))
        if not board.settlement and coup is not None:
            collect, pay = board.chance_plan()
            if collect:
                self._add(f"{tr('collect_first', lang)}: "
                          + ", ".join(chance_name(c, lang) for c in collect), "#ff9b9b")
            if pay:
                self._add(f"{tr('then_pay', lang)}: "
                          + ", ".join(chance_name(c, lang) for c in pay), "#7CFC9A")
        totals = plan_totals(board.settlement)
        left = len(board.settlement) - len(board.paid)
        self.totals.setText(
            f"{tr('collected', lang)} {money_text(totals.collected)} · "
            f"{tr('paid_out', lang)} {money_text(totals.paid)} · "
            f"{tr('returned', lang)} {money_text(totals.returned)} · "
            f"{tr('lines_left', lang)} {left}" if board.settlement else "")

    def _add(self, text: str, colour: str) -> QListWidgetItem:
        item = self.add_line(text, colour)
        item.setSizeHint(QSize(0, TOUCH_HEIGHT))
        # Ticked by a tap anywhere on the line, through the board: never by Qt on its own.
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        return item

    def _clicked(self, item: QListWidgetItem) -> None:
        board = self._board
        index = item.data(Qt.ItemDataRole.UserRole)
        if board is None or not isinstance(index, int):
            return
        self._tick(board.number, index, index not in board.paid)
