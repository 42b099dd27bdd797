"""The tailleur's touchscreen: the rows, the calls, the payout plan, the shoe, and the taps."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QButtonGroup,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from croupier.cards import Card
from croupier.decisions import Action, Chance, Result, SettlementLine
from croupier.engine import Phase
from croupier.events import (
    BaizeChecked,
    CardDrawn,
    ChoosePrison,
    CloseBets,
    NewShoe,
    PlaceStake,
    PrisonChoice,
    ShoeEmpty,
    VoidCard,
    Withdraw,
)
from croupier.ledger import Stake
from croupier.money import money_text
from croupier.table import Event
from ui.board import Board
from ui.i18n import Lang, action_name, chance_name, tr
from ui.widgets import ALARM, GOLD, STYLE, CardPicker, CardRow, big_button, card_text

SEATS = 8
CHIPS = (10, 50, 100, 500)
CHANCES = (Chance.ROUGE, Chance.NOIR, Chance.COULEUR, Chance.INVERSE)


def payout_text(line: SettlementLine, lang: Lang) -> str:
    """One line of the plan: what the croupier does, where, on which chance, how much."""
    parts = [action_name(line.action, lang), f"{tr('seat', lang)} {line.seat}",
             chance_name(line.chance, lang), money_text(line.stake)]
    text = " · ".join(parts)
    if line.amount is not None and line.action is not Action.COLLECT:
        text += f" → {money_text(line.amount)}"
    if line.to is not None:
        text += f" → {chance_name(line.to, lang)}"
    if line.level is not None:
        text += f" ({tr('level', lang)} {line.level})"
    return text


def stake_text(stake: Stake, lang: Lang) -> str:
    text = f"{tr('seat', lang)} {stake.seat} · {chance_name(stake.chance, lang)} · " \
           f"{money_text(stake.amount)}"
    if stake.insured:
        text += f" ({tr('insured', lang)})"
    if stake.in_prison:
        text += f" — {tr('prison', lang)} {tr('level', lang)} {stake.level}"
    return text


class StakePanel(QWidget):
    """Stakes by seat: a seat, a chance, an amount (chips add up), then place or withdraw."""

    def __init__(self, submit: Callable[[Event], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._submit = submit
        self._lang = Lang.FR
        grid = QGridLayout(self)
        # Seats and chances in rows of their own, so that every button is as wide as its
        # neighbours under the finger.
        seats, chances = QHBoxLayout(), QHBoxLayout()
        grid.addLayout(seats, 0, 0, 1, 8)
        grid.addLayout(chances, 1, 0, 1, 8)
        self.seat_group = QButtonGroup(self)
        self.seat_buttons: list[QPushButton] = []
        for seat in range(1, SEATS + 1):
            button = QPushButton(str(seat))
            button.setCheckable(True)
            self.seat_group.addButton(button, seat)
            self.seat_buttons.append(button)
            seats.addWidget(button, 1)
        self.chance_group = QButtonGroup(self)
        self.chance_buttons: dict[Chance, QPushButton] = {}
        for i, chance in enumerate(CHANCES):
            button = QPushButton()
            button.setCheckable(True)
            self.chance_group.addButton(button, i)
            self.chance_buttons[chance] = button
            chances.addWidget(button, 1)
        self.amount = QLineEdit()
        self.amount.setAlignment(Qt.AlignmentFlag.AlignRight)
        grid.addWidget(self.amount, 2, 0, 1, 2)
        self.chip_buttons: list[QPushButton] = []
        for i, chip in enumerate(CHIPS):
            button = big_button(f"+{chip}", partial(self._add_chip, chip))
            self.chip_buttons.append(button)
            grid.addWidget(button, 2, 2 + i)
        self.clear_button = big_button("", self.amount.clear)
        grid.addWidget(self.clear_button, 2, 6, 1, 2)
        self.insured = QPushButton()
        self.insured.setCheckable(True)
        self.place_button = big_button("", self._place)
        self.withdraw_button = big_button("", self._withdraw)
        grid.addWidget(self.insured, 3, 0, 1, 2)
        grid.addWidget(self.place_button, 3, 2, 1, 3)
        grid.addWidget(self.withdraw_button, 3, 5, 1, 3)
        self.note = QLabel("")
        self.note.setStyleSheet(f"color: {ALARM}; font-size: 15pt;")
        self.note.setWordWrap(True)
        grid.addWidget(self.note, 4, 0, 1, 8)

    def retranslate(self, lang: Lang) -> None:
        self._lang = lang
        for chance, button in self.chance_buttons.items():
            button.setText(chance_name(chance, lang))
        self.insured.setText(tr("insured", lang))
        self.clear_button.setText(tr("clear", lang))
        self.place_button.setText(tr("place_stake", lang))
        self.withdraw_button.setText(tr("withdraw", lang))
        self.amount.setPlaceholderText(tr("amount", lang))

    def _add_chip(self, chip: int) -> None:
        current = self._amount() or Decimal(0)
        self.amount.setText(money_text(current + chip))

    def _amount(self) -> Decimal | None:
        try:
            value = Decimal(self.amount.text().strip().replace(",", "."))
        except InvalidOperation:
            return None
        return value if value.is_finite() and value > 0 else None

    def _choice(self) -> tuple[int, Chance] | None:
        seat = self.seat_group.checkedId()
        index = self.chance_group.checkedId()
        if seat < 1 or index < 0:
            self.note.setText(tr("need_seat_chance", self._lang))
            return None
        return seat, CHANCES[index]

    def _place(self) -> None:
        choice = self._choice()
        if choice is None:
            return
        amount = self._amount()
        if amount is None:
            self.note.setText(tr("need_amount", self._lang))
            return
        self.note.setText("")
        self._submit(PlaceStake(choice[0], choice[1], amount, self.insured.isChecked()))
        self.amount.clear()

    def _withdraw(self) -> None:
        choice = self._choice()
        if choice is None:
            return
        self.note.setText("")
        self._submit(Withdraw(*choice))

    def show_rejected(self, reason: str | None) -> None:
        self.note.setText(reason or "")


class PrisonPanel(QWidget):
    """After a refait: each prisoner awaiting a choice, with share, keep and move buttons."""

    def __init__(self, submit: Callable[[Event], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._submit = submit
        self._layout = QVBoxLayout(self)
        self._key: tuple[object, ...] = ()
        self.buttons: dict[tuple[int, Chance, str], QPushButton] = {}

    def show_prisoners(self, board: Board, lang: Lang) -> None:
        prisoners = tuple(s for s in board.layout.stakes if s.choosable)
        key = (prisoners, board.layout.choices_open, board.layout.prison_move, lang)
        if key == self._key:
            return
        self._key = key
        while self._layout.count():
            item = self._layout.takeAt(0)
            if item is not None and (widget := item.widget()) is not None:
                widget.hide()
                widget.deleteLater()
        self.buttons = {}
        if not board.layout.choices_open or not prisoners:
            self._layout.addWidget(QLabel("—"))
            self._layout.addStretch(1)
            return
        for stake in prisoners:
            self._layout.addWidget(QLabel(stake_text(stake, lang)))
            row = QHBoxLayout()
            for name, choice in (("share", PrisonChoice.SHARE), ("keep", PrisonChoice.KEEP)):
                button = big_button(tr(name, lang), partial(self._choose, stake, choice, None))
                self.buttons[stake.seat, stake.chance, name] = button
                row.addWidget(button)
            if board.layout.prison_move:
                for to in CHANCES:
                    if to is stake.chance:
                        continue
                    button = big_button(f"→ {chance_name(to, lang)}",
                                        partial(self._choose, stake, PrisonChoice.MOVE, to))
                    self.buttons[stake.seat, stake.chance, f"move_{to.value}"] = button
                    row.addWidget(button)
            holder = QWidget()
            holder.setLayout(row)
            self._layout.addWidget(holder)
        self._layout.addStretch(1)

    def _choose(self, stake: Stake, choice: PrisonChoice, to: Chance | None) -> None:
        self._submit(ChoosePrison(stake.seat, stake.chance, choice, to))


class UnreadPanel(QWidget):
    """A card left the shoe unread: confirm the reader's guess or name it with the picker."""

    def __init__(self, submit: Callable[[Event], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._submit = submit
        self._guess: Card | None = None
        self._lang = Lang.FR
        layout = QVBoxLayout(self)
        self.title = QLabel("")
        self.title.setStyleSheet(f"color: {ALARM}; font-size: 22pt; font-weight: bold;")
        self.confirm_button = big_button("", self._confirm)
        self.picker = CardPicker()
        self.picker.picked.connect(self._picked)
        self.enter_button = big_button("", self._enter)
        layout.addWidget(self.title)
        layout.addWidget(self.confirm_button)
        layout.addWidget(self.picker)
        layout.addWidget(self.enter_button)
        self.setStyleSheet(f"UnreadPanel {{ border: 4px solid {ALARM}; }}")

    def show_unread(self, guess: Card | None, lang: Lang) -> None:
        if guess != self._guess:
            self.picker.reset()
        self._guess, self._lang = guess, lang
        self.title.setText(tr("unread", lang))
        shown = f" {card_text(guess)}" if guess else ""
        self.confirm_button.setText(f"{tr('confirm', lang)}{shown}")
        self.confirm_button.setEnabled(guess is not None)
        self._show_picked(self.picker.current())

    def _show_picked(self, card: Card | None) -> None:
        shown = f" {card_text(card)}" if card else ""
        self.enter_button.setText(tr("enter_card", self._lang) + shown)
        self.enter_button.setEnabled(card is not None)

    def _picked(self, card: Card) -> None:
        self._show_picked(card)

    def _confirm(self) -> None:
        if self._guess is not None:
            self._submit(CardDrawn(self._guess))

    def _enter(self) -> None:
        card = self.picker.current()
        if card is not None:
            self._submit(CardDrawn(card))
            self.picker.reset()


class DealerScreen(QWidget):
    """What the tailleur sees and taps. Everything shown comes from `show_board`."""

    def __init__(
        self, submit: Callable[[Event], None], lang: Lang = Lang.FR,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setStyleSheet(STYLE)
        self._submit = submit
        self.lang = lang
        self.board: Board | None = None
        self.read_only = False

        self.status = QLabel("")
        self.status.setStyleSheet("font-size: 26pt; font-weight: bold;")
        self.shoe_label = QLabel("")
        self.shoe_label.setStyleSheet("font-size: 16pt;")
        self.shoe_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        header = QHBoxLayout()
        header.addWidget(self.status, 1)
        header.addWidget(self.shoe_label, 2)

        self.noir_row = CardRow("")
        self.rouge_row = CardRow("")
        self.call_fr = QLabel("")
        self.call_fr.setStyleSheet(f"font-size: 46pt; font-weight: bold; color: {GOLD};")
        self.call_fr.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.call_fr.setMinimumHeight(80)
        self.call_en = QLabel("")
        self.call_en.setStyleSheet("font-size: 22pt; color: #cfe8dc;")
        self.call_en.setAlignment(Qt.AlignmentFlag.AlignCenter)

        self.payout_title = QLabel("")
        self.payout_title.setStyleSheet("font-size: 20pt; font-weight: bold;")
        self.payout_list = QListWidget()
        self.payout_list.setStyleSheet("font-size: 22pt;")
        self.payout_list.setSelectionMode(QListWidget.SelectionMode.NoSelection)
        self.payout_list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        left = QVBoxLayout()
        left.addWidget(self.payout_title)
        left.addWidget(self.payout_list, 1)

        self.alarm_banner = QLabel("")
        self.alarm_banner.setWordWrap(True)
        self.alarm_banner.setStyleSheet(f"color: {ALARM}; font-size: 17pt; font-weight: bold;")
        self.unread_panel = UnreadPanel(submit)
        self.unread_panel.hide()
        self.check_button = big_button("", lambda: submit(BaizeChecked("tailleur")))
        self.check_button.hide()
        self.stake_panel = StakePanel(submit)
        self.prison_panel = PrisonPanel(submit)
        self.alarm_list = QListWidget()
        self.side = QTabWidget()
        self.side.addTab(self.stake_panel, "")
        self.side.addTab(self.prison_panel, "")
        self.side.addTab(self.alarm_list, "")
        right = QVBoxLayout()
        right.addWidget(self.alarm_banner)
        right.addWidget(self.check_button)
        right.addWidget(self.unread_panel)
        right.addWidget(self.side, 1)

        middle = QHBoxLayout()
        middle.addLayout(left, 5)
        middle.addLayout(right, 4)

        self.close_bets_button = big_button("", lambda: submit(CloseBets()))
        self.void_button = big_button("", lambda: submit(VoidCard()))
        self.talon_button = big_button("", lambda: submit(ShoeEmpty()))
        self.new_shoe_button = big_button("", lambda: submit(NewShoe()))
        self.close_bets_button.setStyleSheet("font-size: 22pt; font-weight: bold;")
        actions = QHBoxLayout()
        actions.addWidget(self.close_bets_button, 3)
        actions.addWidget(self.void_button, 2)
        actions.addWidget(self.talon_button, 2)
        actions.addWidget(self.new_shoe_button, 2)

        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addWidget(self.noir_row)
        layout.addWidget(self.rouge_row)
        layout.addWidget(self.call_fr)
        layout.addWidget(self.call_en)
        layout.addLayout(middle, 1)
        layout.addLayout(actions)
        self.set_lang(lang)

    def set_read_only(self, read_only: bool) -> None:
        """For the replay view: the picture without the tailleur's controls."""
        self.read_only = read_only
        for widget in (self.close_bets_button, self.void_button, self.talon_button,
                       self.new_shoe_button, self.side):
            widget.setVisible(not read_only)
        if read_only:
            self.unread_panel.hide()

    # -- language ------------------------------------------------------------------------

    def set_lang(self, lang: Lang) -> None:
        self.lang = lang
        self.noir_row.title.setText(tr("noir", lang))
        self.rouge_row.title.setText(tr("rouge", lang))
        self.rouge_row.title.setStyleSheet("font-size: 28pt; font-weight: bold; color: #ff6b6b;")
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
        lang = self.lang
        layout = board.layout
        self.noir_row.show_cards(board.noir)
        self.rouge_row.show_cards(board.rouge)
        calls = board.calls
        self.call_fr.setText(" · ".join(fr for fr, _ in calls))
        self.call_en.setText(" · ".join(en for _, en in calls))
        self._show_status(board)
        self._show_payout(board)
        self._show_alarms(board, previous)
        if board.unread is not None and not self.read_only:
            self.unread_panel.show_unread(board.unread.card, lang)
            self.unread_panel.show()
        else:
            self.unread_panel.hide()
        self.prison_panel.show_prisoners(board, lang)
        if layout.choices_open and (previous is None or not previous.layout.choices_open):
            self.side.setCurrentWidget(self.prison_panel)
        self.stake_panel.show_rejected(board.rejected)
        self.close_bets_button.setEnabled(layout.bets_open and layout.awaiting_check is None)
        self.check_button.setVisible(layout.awaiting_check is not None and not self.read_only)
        phase = layout.shoe.phase
        self.void_button.setEnabled(phase in (Phase.BURN, Phase.NOIR, Phase.ROUGE))
        # The talon is counted once the deal has stopped; a new sixain follows a closed shoe.
        self.talon_button.setEnabled(phase is Phase.STOPPED and not layout.ended)
        self.new_shoe_button.setEnabled(phase in (Phase.STOPPED, Phase.CLOSED)
                                        and not layout.ended)

    def _show_status(self, board: Board) -> None:
        lang, layout, shoe = self.lang, board.layout, board.layout.shoe
        if layout.ended:
            words, colour = tr("session_ended", lang), "#cfe8dc"
        elif layout.bets_open:
            words, colour = tr("bets_open", lang), "#7CFC9A"
        elif shoe.phase is Phase.BURN:
            words, colour = tr("burning", lang), GOLD  # bets open once the burn is done
        else:
            words, colour = tr("bets_closed", lang), ALARM
        # Between coups the status names the coup being bet on, not the one just settled.
        betting = shoe.phase in (Phase.BURN, Phase.READY) and not layout.ended
        number = shoe.number + 1 if betting else board.number or shoe.number
        self.status.setText(f"{tr('coup', lang)} {number} — {words}" if number else words)
        self.status.setStyleSheet(f"font-size: 26pt; font-weight: bold; color: {colour};")
        burn = f"{tr('burn', lang)} {len(shoe.burn) if shoe.phase is Phase.BURN else shoe.burned}"
        limit = f"/{layout.face_up_limit}" if layout.face_up_limit else ""
        if shoe.phase is Phase.CLOSED:
            cut = tr("shoe_closed", lang)
        else:
            cut = tr("cut_passed" if board.cut_passed else "cut_waiting", lang)
        self.shoe_label.setText(
            f"{tr('shoe', lang)}: {burn} · {tr('dealt', lang)} {shoe.dealt} · "
            f"{tr('left', lang)} {board.cards_left} · {tr('face_up', lang)} "
            f"{shoe.face_up_coups}{limit} · {cut}"
        )

    def _show_payout(self, board: Board) -> None:
        lang = self.lang
        self.payout_list.clear()
        coup = board.coup
        self.payout_title.setText(tr("payout", lang) if coup or board.voided
                                  else tr("stakes", lang))
        for line in board.premiums:
            self._payout_item(payout_text(line, lang), "#cfe8dc")
        if board.voided is not None:
            self._payout_item(f"{tr('void', lang)} {board.voided.number}", ALARM)
        if coup is not None and coup.result in (Result.APRES, Result.REFAIT):
            self._payout_item(tr(coup.result.value, lang), GOLD)
        if board.settlement:
            for line in board.settlement:
                colour = {Action.COLLECT: "#ff9b9b", Action.PAY: "#7CFC9A"}.get(line.action,
                                                                                 "#f4f1e6")
                self._payout_item(payout_text(line, lang), colour)
        elif coup is not None:
            collect, pay = board.chance_plan()
            if collect:
                self._payout_item(f"{tr('collect_first', lang)}: "
                                  + ", ".join(chance_name(c, lang) for c in collect), "#ff9b9b")
            if pay:
                self._payout_item(f"{tr('then_pay', lang)}: "
                                  + ", ".join(chance_name(c, lang) for c in pay), "#7CFC9A")
        if coup is None and board.voided is None:
            stakes = board.layout.stakes
            for stake in stakes:
                self._payout_item(stake_text(stake, lang), "#f4f1e6")
            if not stakes:
                self._payout_item(tr("no_stakes", lang), "#9fd3bd")

    def _payout_item(self, text: str, colour: str) -> None:
        item = QListWidgetItem(text)
        item.setForeground(QColor(colour))
        self.payout_list.addItem(item)

    def _show_alarms(self, board: Board, previous: Board | None) -> None:
        if previous is not None and previous.alarms == board.alarms:
            return
        self.alarm_list.clear()
        for alarm in board.alarms:
            self.alarm_list.addItem(f"[{alarm.code}] {alarm.message}")
        self.alarm_banner.setText(f"⚠ {board.alarms[0].message}" if board.alarms else "")
