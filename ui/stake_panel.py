"""Stakes by seat: a seat, a chance, an amount (the keypad's keys and chips), then place or
withdraw, or repeat the last coup's stakes."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QButtonGroup,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QWidget,
)

from croupier.decisions import Chance
from croupier.events import PlaceStake, Withdraw
from croupier.table import Event
from croupier.view import Allowed, TableView
from ui.i18n import Lang, chance_name, tr
from ui.keypad import AmountKeypad
from ui.refusals import refusal_text
from ui.widgets import ALARM, big_button

SEATS = 8
CHANCES = (Chance.ROUGE, Chance.NOIR, Chance.COULEUR, Chance.INVERSE)


class StakePanel(QWidget):
    def __init__(self, submit: Callable[[Event], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._submit = submit
        self._lang = Lang.FR
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
        self.keypad = AmountKeypad(wide=True)
        self.keypad.repeat_requested.connect(self._repeat)
        grid.addWidget(self.keypad, 2, 0, 1, 6)
        self.insured = QPushButton()
        self.insured.setCheckable(True)
        self.place_button = big_button("", self._place)
        self.withdraw_button = big_button("", self._withdraw)
        self.repeat_button = self.keypad.repeat_key
        actions = QHBoxLayout()
        for button, share in ((self.insured, 2), (self.place_button, 2),
                              (self.withdraw_button, 2), (self.repeat_button, 3)):
            actions.addWidget(button, share)
        grid.addLayout(actions, 3, 0, 1, 6)
        self.note = QLabel("")
        self.note.setStyleSheet(f"color: {ALARM}; font-size: 15pt;")
        self.note.setWordWrap(True)
        grid.addWidget(self.note, 4, 0, 1, 6)

    @property
    def last_stakes(self) -> tuple[PlaceStake, ...]:
        """What "repeat last stakes" places: the free stakes of the coup before."""
        return self._last

    def retranslate(self, lang: Lang) -> None:
        self._lang = lang
        for chance, button in self.chance_buttons.items():
            button.setText(chance_name(chance, lang))
        self.insured.setText(tr("insured", lang))
        self.place_button.setText(tr("place_stake", lang))
        self.withdraw_button.setText(tr("withdraw", lang))
        self.keypad.set_lang(lang)

    def show_view(self, view: TableView, rejected: str | None) -> None:
        if (view.minimum, view.maximum) != (self.keypad.minimum, self.keypad.maximum):
            self.keypad.set_limits(view.minimum, view.maximum)
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
                self.keypad.clear()  # accepted: a refused amount stays to be put right
        self.note.setText(refusal_text(rejected, self._lang) if rejected else "")

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
        amount = self.keypad.amount()
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
