"""The tailleur's touchscreen: the rows, the calls, the plan, the layout, the shoe, the taps.

Each part is a widget of its own module; this one lays them out and hands each the board.
Nothing here decides a rule: what may be tapped is what the table's snapshot allows."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QScrollArea,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from croupier.engine import Phase
from croupier.events import BaizeChecked, CloseBets, NewShoe, ShoeEmpty, VoidCard
from croupier.table import Event
from croupier.view import Allowed
from ui.board import Board
from ui.device_alarms import alarm_text
from ui.i18n import Lang, tr
from ui.layout_panel import LayoutPanel
from ui.payout_panel import PayoutPanel, Tick
from ui.phrases import call_gloss
from ui.prison_panel import PrisonPanel
from ui.stake_panel import StakePanel
from ui.unread_panel import UnreadPanel
from ui.widgets import ALARM, GOLD, CardRow, big_button, card_text, style

COMPACT_BELOW = (1500, 950)  # px: a screen narrower or lower than this is a laptop's


def scrolled(widget: QWidget) -> QScrollArea:
    """A panel that scrolls rather than squeezing its buttons below a fingertip."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setWidget(widget)
    return area


class DealerScreen(QWidget):
    """What the tailleur sees and taps. Everything shown comes from `show_board`."""

    def __init__(
        self, submit: Callable[[Event], None], lang: Lang = Lang.FR,
        parent: QWidget | None = None, *, tick: Tick | None = None,
    ) -> None:
        super().__init__(parent)
        self._submit = submit
        self.lang = lang
        self.board: Board | None = None
        self.read_only = False

        header = self._header()
        self._rows_and_calls()
        middle = QHBoxLayout()
        middle.addLayout(self._left(tick), 5)
        middle.addLayout(self._right(submit), 4)
        actions = self._actions(submit)

        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addWidget(self.noir_row)
        layout.addWidget(self.rouge_row)
        layout.addWidget(self.call_fr)
        layout.addWidget(self.call_en)
        layout.addLayout(middle, 1)
        layout.addLayout(actions)
        self._middle = middle
        self.compact: bool | None = None
        self._fit(compact=False)
        self.set_lang(lang)

    def _header(self) -> QHBoxLayout:
        self.status = QLabel("")
        self.status.setStyleSheet("font-size: 26pt; font-weight: bold;")
        self.shoe_label = QLabel("")
        self.shoe_label.setStyleSheet("font-size: 16pt;")
        self.shoe_label.setWordWrap(True)
        self.shoe_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        header = QHBoxLayout()
        header.addWidget(self.status, 1)
        header.addWidget(self.shoe_label, 1)
        return header

    def _rows_and_calls(self) -> None:
        self.noir_row = CardRow("")
        self.rouge_row = CardRow("", "#ff6b6b")
        self.call_fr = QLabel("")
        self.call_fr.setStyleSheet(f"font-size: 40pt; font-weight: bold; color: {GOLD};")
        self.call_fr.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.call_fr.setMinimumHeight(70)
        self.call_fr.setWordWrap(True)  # a long result call takes two lines, never more width
        self.call_en = QLabel("")
        self.call_en.setStyleSheet("font-size: 20pt; color: #cfe8dc;")
        self.call_en.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.call_en.setWordWrap(True)

    def _left(self, tick: Tick | None) -> QVBoxLayout:
        self.payout = PayoutPanel(tick or (lambda _coup, _line, _paid: None))
        self.layout_panel = LayoutPanel()
        left = QVBoxLayout()
        left.addWidget(self.payout, 3)
        left.addWidget(self.layout_panel, 2)
        return left

    def _right(self, submit: Callable[[Event], None]) -> QVBoxLayout:
        self.alarm_banner = QLabel("")
        self.alarm_banner.setWordWrap(True)
        self.alarm_banner.setStyleSheet(f"color: {ALARM}; font-size: 17pt; font-weight: bold;")
        self.void_note = QLabel("")
        self.void_note.setStyleSheet(f"color: {GOLD}; font-size: 16pt;")
        self.check_button = big_button("", lambda: submit(BaizeChecked("tailleur")))
        self.check_button.hide()
        self.unread_panel = UnreadPanel(submit)
        self.stake_panel = StakePanel(submit)
        self.prison_panel = PrisonPanel(submit)
        self.alarm_list = QListWidget()
        self.alarm_list.setWordWrap(True)
        self.side = QTabWidget()
        self.side.addTab(scrolled(self.stake_panel), "")
        self.side.addTab(self.prison_panel, "")
        self.side.addTab(self.alarm_list, "")
        # A card to name takes the whole side until it is named: nothing else can go on.
        self.side_stack = QStackedWidget()
        self.side_stack.addWidget(self.side)
        self.side_stack.addWidget(scrolled(self.unread_panel))
        right = QVBoxLayout()
        right.addWidget(self.alarm_banner)
        right.addWidget(self.void_note)
        right.addWidget(self.check_button)
        right.addWidget(self.side_stack, 1)
        return right

    def _actions(self, submit: Callable[[Event], None]) -> QHBoxLayout:
        self.close_bets_button = big_button("", lambda: submit(CloseBets()))
        self.void_button = big_button("", lambda: submit(VoidCard()))
        self.talon_button = big_button("", lambda: submit(ShoeEmpty()))
        self.new_shoe_button = big_button("", lambda: submit(NewShoe()))
        actions = QHBoxLayout()
        actions.addWidget(self.close_bets_button, 3)
        actions.addWidget(self.void_button, 2)
        actions.addWidget(self.talon_button, 2)
        actions.addWidget(self.new_shoe_button, 2)
        return actions

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit(compact=event.size().height() < COMPACT_BELOW[1]
                  or event.size().width() < COMPACT_BELOW[0])

    def _fit(self, *, compact: bool) -> None:
        """A laptop's screen takes smaller cards, calls and buttons — every one still a
        fingertip — and gives the taps' side half the width."""
        if compact == self.compact:
            return
        self.compact = compact
        self.setStyleSheet(style(compact=compact))
        for row in (self.noir_row, self.rouge_row):
            row.set_compact(compact)
        self.call_fr.setStyleSheet(f"font-size: {28 if compact else 40}pt; font-weight: bold; "
                                   f"color: {GOLD};")
        self.call_fr.setMinimumHeight(48 if compact else 70)
        self.call_en.setStyleSheet(f"font-size: {15 if compact else 20}pt; color: #cfe8dc;")
        self.close_bets_button.setStyleSheet(f"font-size: {16 if compact else 22}pt; "
                                             "font-weight: bold;")
        self._middle.setStretch(0, 4 if compact else 5)
        self._middle.setStretch(1, 5 if compact else 4)
        if self.board is not None:
            self._show_status(self.board)

    @property
    def unread_shown(self) -> bool:
        return self.side_stack.currentIndex() == 1

    def set_read_only(self, read_only: bool) -> None:
        """For the replay view: the picture without the tailleur's controls."""
        self.read_only = read_only
        for widget in (self.close_bets_button, self.void_button, self.talon_button,
                       self.new_shoe_button, self.side_stack):
            widget.setVisible(not read_only)
        if self.board is not None:
            self.show_board(self.board)

    # -- language ------------------------------------------------------------------------

    def set_lang(self, lang: Lang) -> None:
        self.lang = lang
        self._relabel = True  # the alarms' list is said again in the new language
        self.noir_row.title.setText(tr("noir", lang))
        self.rouge_row.title.setText(tr("rouge", lang))
        self.close_bets_button.setText(tr("rien_ne_va_plus", lang))
        self.void_button.setText(tr("void_card", lang))
        self.check_button.setText(tr("baize_checked", lang))
        self.talon_button.setText(tr("talon_counted", lang))
        self.new_shoe_button.setText(tr("new_shoe", lang))
        self.stake_panel.retranslate(lang)
        self.side.setTabText(0, tr("stakes", lang))
        self.side.setTabText(1, tr("prison", lang))
        self.side.setTabText(2, tr("alarms", lang))
        if self.board is not None:
            self.show_board(self.board)
        else:
            self.status.setText(tr("waiting", lang))

    # -- the picture ---------------------------------------------------------------------

    def show_board(self, board: Board) -> None:
        """Paint a board from the worker; cheap enough to run for every card."""
        previous, self.board = self.board, board
        lang, view = self.lang, board.view
        self.noir_row.show_cards(board.noir)
        self.rouge_row.show_cards(board.rouge)
        self.call_fr.setText(" · ".join(said for said, _ in board.calls))
        # Beneath, the same calls in the screen's language (none in French).
        self.call_en.setText(call_gloss(board.coup, board.noir_point, lang))
        self._show_status(board)
        self.payout.show_board(board, lang, read_only=self.read_only)
        self.layout_panel.show_board(board, lang)
        self._show_alarms(board, previous)
        unread = board.unread is not None and not self.read_only
        if board.unread is not None and unread:
            self.unread_panel.show_unread(board.unread.card, lang)
        self.side_stack.setCurrentIndex(1 if unread else 0)
        self.prison_panel.show_view(view, lang)
        if view.prisoners and (previous is None or not previous.view.prisoners):
            self.side.setCurrentWidget(self.prison_panel)
        self.stake_panel.show_view(view, board.rejected)
        self.void_note.setText(f"{tr('card_voided', lang)}: {card_text(board.last_void)}"
                               if board.last_void is not None else "")
        allowed = view.allowed
        self.close_bets_button.setEnabled(Allowed.CLOSE_BETS in allowed)
        self.check_button.setVisible(Allowed.CHECK_BAIZE in allowed and not self.read_only)
        self.void_button.setEnabled(Allowed.VOID_CARD in allowed)
        self.talon_button.setEnabled(Allowed.COUNT_TALON in allowed)
        self.new_shoe_button.setEnabled(Allowed.NEW_SHOE in allowed)

    def _show_status(self, board: Board) -> None:
        lang, view = self.lang, board.view
        if view.ended:
            words, colour = tr("session_ended", lang), "#cfe8dc"
        elif view.bets_open:
            words, colour = tr("bets_open", lang), "#7CFC9A"
        elif view.phase is Phase.BURN:
            words, colour = tr("burning", lang), GOLD  # bets open once the burn is done
        else:
            words, colour = tr("bets_closed", lang), ALARM
        number = view.betting_on
        self.status.setText(f"{tr('coup', lang)} {number} — {words}" if number else words)
        size = 20 if self.compact else 26
        self.status.setStyleSheet(f"font-size: {size}pt; font-weight: bold; color: {colour};")
        limit = f"/{view.face_up_limit}" if view.face_up_limit else ""
        if view.closed:
            cut = tr("shoe_closed", lang)
        else:
            cut = tr("cut_passed" if view.cut_passed else "cut_waiting", lang)
        self.shoe_label.setText(
            f"{tr('shoe', lang)}: {tr('burn', lang)} {view.burn} · {tr('dealt', lang)} "
            f"{view.dealt} · {tr('left', lang)} {view.cards_left} · {tr('face_up', lang)} "
            f"{view.face_up_coups}{limit} · {cut}"
        )

    def _show_alarms(self, board: Board, previous: Board | None) -> None:
        banner = board.banner
        self.alarm_banner.setText(f"⚠ {alarm_text(banner, self.lang)}" if banner else "")
        if previous is not None and previous.alarms == board.alarms and not self._relabel:
            return
        self._relabel = False
        self.alarm_list.clear()
        for alarm in board.alarms:
            self.alarm_list.addItem(alarm_text(alarm, self.lang))
