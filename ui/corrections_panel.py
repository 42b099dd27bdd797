"""The corrections behind the chef's PIN: PIN, who and why, one tap per correction, and the
lock's countdown after wrong PINs."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QGridLayout, QLabel, QLineEdit, QWidget

from croupier.cards import Card
from croupier.events import CorrectCard, EndShoe, ReopenBets, VoidCoup
from journal.chef import Correction
from ui.i18n import Lang, tr
from ui.widgets import ALARM, CardPicker, Keypad, big_button


class CorrectionsPanel(QWidget):
    """PIN, who and why, then one tap per correction; the answer shows beneath."""

    def __init__(
        self,
        correct: Callable[[str, Correction], None],
        set_pin: Callable[[str, str | None], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._correct, self._set_pin = correct, set_pin
        self._pin_set = False
        self.lang = Lang.FR
        self._unlock_at = 0.0  # time.monotonic() when the lock ends; 0: not locked
        self.countdown = QTimer(self)
        self.countdown.setInterval(1000)
        self.countdown.timeout.connect(self._tick)
        grid = QGridLayout(self)
        self.pin_label, self.who_label, self.why_label = QLabel(), QLabel(), QLabel()
        self.pin = QLineEdit()
        self.pin.setEchoMode(QLineEdit.EchoMode.Password)
        self.pin.setInputMethodHints(Qt.InputMethodHint.ImhDigitsOnly)
        self.who = QLineEdit("chef")
        self.why = QLineEdit()
        grid.addWidget(self.pin_label, 0, 0)
        grid.addWidget(self.pin, 0, 1, 1, 3)
        self.new_pin = QLineEdit()
        self.new_pin.setEchoMode(QLineEdit.EchoMode.Password)
        self.keypad = Keypad(self.pin, self.new_pin)
        grid.addWidget(self.keypad, 1, 0, 2, 4)
        grid.addWidget(self.who_label, 0, 4)
        grid.addWidget(self.who, 0, 5)
        grid.addWidget(self.why_label, 0, 6)
        grid.addWidget(self.why, 0, 7)
        self.picker = CardPicker()
        grid.addWidget(self.picker, 1, 4, 3, 4)
        self.correct_button = big_button("", self._correct_card)
        self.void_button = big_button("", lambda: self._send(VoidCoup(*self._who_why())))
        self.end_button = big_button("", lambda: self._send(EndShoe(*self._who_why())))
        self.reopen_button = big_button("", lambda: self._send(ReopenBets(*self._who_why())))
        grid.addWidget(self.correct_button, 4, 0, 1, 2)
        grid.addWidget(self.void_button, 4, 2, 1, 2)
        grid.addWidget(self.end_button, 4, 4, 1, 2)
        grid.addWidget(self.reopen_button, 4, 6, 1, 2)
        self.set_pin_button = big_button("", self._new_pin)
        grid.addWidget(self.new_pin, 3, 0, 1, 2)
        grid.addWidget(self.set_pin_button, 3, 2, 1, 2)
        self.answer = QLabel("")
        self.answer.setWordWrap(True)
        self.answer.setStyleSheet("font-size: 18pt; font-weight: bold;")
        grid.addWidget(self.answer, 5, 0, 1, 8)

    def retranslate(self, lang: Lang) -> None:
        self.lang = lang
        self.pin_label.setText(tr("pin", lang))
        self.who_label.setText(tr("who", lang))
        self.why_label.setText(tr("why", lang))
        self.correct_button.setText(tr("correct_card", lang))
        self.void_button.setText(tr("void_coup", lang))
        self.end_button.setText(tr("end_shoe", lang))
        self.reopen_button.setText(tr("reopen_bets", lang))
        self.set_pin_button.setText(tr("set_pin", lang))
        self.new_pin.setPlaceholderText(tr("set_pin", lang))

    def _who_why(self) -> tuple[str, str]:
        return self.who.text().strip() or "chef", self.why.text().strip()

    def _correct_card(self) -> None:
        card: Card | None = self.picker.current()
        if card is None:
            self.say(tr("pick_a_card", self.lang), ok=False)
            return
        self._send(CorrectCard(card, *self._who_why()))

    def _send(self, correction: Correction) -> None:
        if not correction.why:  # the desk refuses it too; here the PIN stays typed
            self.say(f"{tr('refused', self.lang)}: {tr('refusal_no_reason', self.lang)}",
                     ok=False)
            return
        self.say("…", ok=True)
        self._correct(self.pin.text().strip(), correction)
        self.pin.clear()  # a PIN is typed for each correction, never left on the screen

    def _new_pin(self) -> None:
        old = self.pin.text().strip() if self._pin_set else None
        self._set_pin(self.new_pin.text().strip(), old)
        self.new_pin.clear()
        self.pin.clear()

    def say(self, text: str, *, ok: bool) -> None:
        self.answer.setText(text)
        self.answer.setStyleSheet(f"font-size: 18pt; font-weight: bold; "
                                  f"color: {'#7CFC9A' if ok else ALARM};")

    def show_state(self, pin_set: bool, locked_for: float, lang: Lang) -> None:
        self._pin_set = pin_set
        self.lang = lang
        self._unlock_at = time.monotonic() + locked_for if locked_for > 0 else 0.0
        # Only a PIN already set can be changed here: the first is set at the table's set-up.
        self.set_pin_button.setEnabled(pin_set)
        self.new_pin.setEnabled(pin_set)
        if not pin_set:
            self._enable(False)
            self.say(tr("pin_at_setup", lang), ok=False)
            return
        self._tick()
        if self._unlock_at:
            self.countdown.start()

    def locked_for(self) -> float:
        return max(0.0, self._unlock_at - time.monotonic()) if self._unlock_at else 0.0

    def _tick(self) -> None:
        """Once a second while locked: the seconds left, and the buttons back at zero."""
        left = self.locked_for()
        self._enable(self._pin_set and left <= 0)
        if left > 0:
            self.say(f"{tr('refusal_locked', self.lang)} — "
                     f"{tr('locked_for', self.lang, seconds=math.ceil(left))}", ok=False)
            return
        self.countdown.stop()
        if self._unlock_at:  # the lock just ended: its message goes with it
            self._unlock_at = 0.0
            self.say("", ok=True)

    def _enable(self, enabled: bool) -> None:
        for button in (self.correct_button, self.void_button, self.end_button,
                       self.reopen_button):
            button.setEnabled(enabled)
