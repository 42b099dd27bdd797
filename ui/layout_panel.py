"""The layout as it stands: every seat's stakes for the coup being bet on, insured or not,
the prisoners and their levels, and the sums, seen before rien ne va plus."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from croupier.money import money_text
from ui.board import Board
from ui.i18n import Lang, tr
from ui.lines import ACTION_COLOURS, PLAIN, stake_text
from ui.phrases import settlement_line_text
from ui.widgets import GOLD, ListPanel


class LayoutPanel(ListPanel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(18, parent)
        self._key: object = None

    def show_board(self, board: Board, lang: Lang) -> None:
        view = board.view
        key = (view.stakes, view.betting_on, board.layout_lines, lang)
        if key == self._key:
            return
        self._key = key
        self.title.setText(f"{tr('stakes', lang)} — {tr('coup', lang)} {view.betting_on}")
        self.list.clear()
        for stake in sorted(view.stakes, key=lambda s: (s.seat, s.chance.value)):
            self.add_line(stake_text(stake, lang), GOLD if stake.in_prison else PLAIN)
        for line in board.layout_lines:
            self.add_line(settlement_line_text(line, lang), ACTION_COLOURS.get(line.action, PLAIN))
        if not view.stakes and not board.layout_lines:
            self.add_line(tr("no_stakes", lang), "#9fd3bd")
        t = view.totals
        limits = ""
        if view.minimum is not None and view.maximum is not None:
            limits = f" · {tr('limits', lang)} {money_text(view.minimum)}–" \
                     f"{money_text(view.maximum)}"
        self.totals.setText(
            f"{tr('free', lang)} {money_text(t.free)} · {tr('prison', lang)} "
            f"{money_text(t.in_prison)} · {tr('insured', lang)} {money_text(t.insured)} · "
            f"{tr('premiums', lang)} {money_text(t.premiums)}{limits}")
