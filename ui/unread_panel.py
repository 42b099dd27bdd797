"""A card left the shoe unread: confirm the reader's guess or name it with the picker."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from croupier.cards import Card
from croupier.events import CardDrawn
from croupier.table import Event
from ui.i18n import Lang, tr
from ui.widgets import ALARM, CardPicker, big_button, card_text


class UnreadPanel(QWidget):
    def __init__(self, submit: Callable[[Event], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._submit = submit
        self._guess: Card | None = None
        self._lang = Lang.FR
        layout = QVBoxLayout(self)
        self.title = QLabel("")
        self.title.setWordWrap(True)
        self.title.setStyleSheet(f"color: {ALARM}; font-size: 22pt; font-weight: bold;")
        self.confirm_button = big_button("", self._confirm)
        self.picker = CardPicker()
        self.picker.picked.connect(self._picked)
        self.enter_button = big_button("", self._enter)
        layout.addWidget(self.title)
        layout.addWidget(self.confirm_button)
        layout.addWidget(self.picker)
        layout.addWidget(self.enter_button)
        layout.addStretch(1)
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
