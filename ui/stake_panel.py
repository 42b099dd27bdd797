"""Stakes by seat: a seat, a chance, an amount (keypad or chips), then place or withdraw."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from croupier.decisions import Chance
from croupier.events import PlaceStake, Withdraw
from croupier.money import money_text
from croupier.table import Event
from croupier.view import Allowed, TableView
from ui.i18n import Lang, chance_name, tr
from ui.widgets import ALARM, Keypad, big_button

SEATS = 8
CHANCES = (Chance.ROUGE, Chance.NOIR, Chance.COULEUR, Chance.INVERSE)
# The denominations a casino's chips come in; a table shows those its limits allow.
DENOMINATIONS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 5000, 10000, 100000)
CHIPS_SHOWN = 5


def chips_for(minimum: Decimal | None, maximum: Decimal | None) -> tuple[int, ...]:
    """The chip buttons for a table's limits: from its minimum up, none above its maximum."""
    low = minimum or Decimal(10)
    high = maximum or Decimal(DENOMINATIONS[-1])
    fitting = [d for d in DENOMINATIONS if low <= d <= high]
    return tuple(fitting[:CHIPS_SHOWN]) or (int(low),)


class StakePanel(QWidget):
    def __init__(self, submit: Callable[[Event], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._submit = submit
        self._lang = Lang.FR
        self._chips: tuple[int, ...] = ()
        self._coup = 0
        self._staked: tuple[PlaceStake, ...] = ()  # the free stakes while bets were open
        self._last: tuple[PlaceStake, ...] = ()  # those of the coup before, to repeat
        self._waiting = False  # a stake was sent: its amount stays until it is accepted
        grid = QGridLayout(self)
        # Seats and chances in rows of their own, so that every button is as wide as its
        # neighbours under the finger.
        seats, chances = QHBoxLayout(), QHBoxLayout()
        grid.addLayout(seats, 0, 0, 1, 6)
        grid.addLayout(chances, 1, 0, 1, 6)
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
        grid.addWidget(self.amount, 2, 0, 1, 4)
        self.clear_button = big_button("", self.amount.clear)
        grid.addWidget(self.clear_button, 2, 4, 1, 2)
        # The digits in one row, so that the whole panel stands in the side without
        # scrolling on a table PC's screen.
        self.keypad = Keypad(self.amount, columns=11)
        grid.addWidget(self.keypad, 3, 0, 1, 6)
        self._chip_row = QHBoxLayout()
        grid.addLayout(self._chip_row, 4, 0, 1, 6)
        self.chip_buttons: list[QPushButton] = []
        self.insured = QPushButton()
        self.insured.setCheckable(True)
        self.place_button = big_button("", self._place)
        self.withdraw_button = big_button("", self._withdraw)
        self.repeat_button = big_button("", self._repeat)
        actions = QHBoxLayout()
        for button in (self.insured, self.place_button, self.withdraw_button,
                       self.repeat_button):
            actions.addWidget(button, 1)
        grid.addLayout(actions, 5, 0, 1, 6)
        self.note = QLabel("")
        self.note.setStyleSheet(f"color: {ALARM}; font-size: 15pt;")
        self.note.setWordWrap(True)
        grid.addWidget(self.note, 6, 0, 1, 6)

    @property
    def last_stakes(self) -> tuple[PlaceStake, ...]:
        """What "repeat last stakes" places: the free stakes of the coup before."""
        return self._last

    def retranslate(self, lang: Lang) -> None:
        self._lang = lang
        for chance, button in self.chance_buttons.items():
            button.setText(chance_name(chance, lang))
        self.insured.setText(tr("insured", lang))
        self.clear_button.setText(tr("clear", lang))
        self.place_button.setText(tr("place_stake", lang))
        self.withdraw_button.setText(tr("withdraw", lang))
        self.repeat_button.setText(tr("repeat_stakes", lang))
        self.amount.setPlaceholderText(tr("amount", lang))

    def show_view(self, view: TableView, rejected: str | None) -> None:
        chips = chips_for(view.minimum, view.maximum)
        if chips != self._chips:
            self._set_chips(chips)
        allowed = Allowed.STAKE in view.allowed
        if view.betting_on != self._coup:
            self._coup = view.betting_on
            self._last, self._staked = self._staked or self._last, ()
        if allowed:
            self._staked = tuple(PlaceStake(s.seat, s.chance, s.amount, s.insured > 0)
                                 for s in view.stakes if not s.in_prison)
        for button in (self.place_button, self.withdraw_button):
            button.setEnabled(allowed)
        self.repeat_button.setEnabled(allowed and bool(self._last))
        if self._waiting:
            self._waiting = False
            if rejected is None:
                self.amount.clear()  # accepted: a refused amount stays to be put right
        self.note.setText(rejected or "")

    def _set_chips(self, chips: tuple[int, ...]) -> None:
        self._chips = chips
        for button in self.chip_buttons:
            button.hide()
            button.deleteLater()
        self.chip_buttons = []
        for chip in chips:
            button = big_button(f"+{chip}", partial(self._add_chip, chip))
            self.chip_buttons.append(button)
            self._chip_row.addWidget(button)

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
        stake = PlaceStake(choice[0], choice[1], amount, self.insured.isChecked())
        self._waiting = True
        self.insured.setChecked(False)  # insurance is asked for stake by stake
        self._submit(stake)

    def _withdraw(self) -> None:
        choice = self._choice()
        if choice is None:
            return
        self.note.setText("")
        self._submit(Withdraw(*choice))

    def _repeat(self) -> None:
        for stake in self._last:
            self._submit(stake)
