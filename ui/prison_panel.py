"""After a refait: each prisoner awaiting its owner's choice, asked again before it is sent.

Rows keep their place while choices are open (an answered one greys out rather than
leaving), so nothing shifts under the finger; the list scrolls however many prisoners."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from croupier.decisions import Chance
from croupier.events import ChoosePrison, PrisonChoice
from croupier.stakes import Stake
from croupier.table import Event
from croupier.view import Allowed, TableView
from ui.i18n import Lang, chance_name, tr
from ui.lines import stake_text
from ui.stake_panel import CHANCES
from ui.widgets import GOLD, big_button

Choice = tuple[Stake, PrisonChoice, Chance | None]


class PrisonPanel(QWidget):
    def __init__(self, submit: Callable[[Event], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._submit = submit
        self._lang = Lang.FR
        self._shown: tuple[Stake, ...] = ()  # prisoners in the order first shown
        self._open: frozenset[tuple[int, Chance]] = frozenset()  # still awaiting a choice
        self._move = False
        self._pending: Choice | None = None
        self.buttons: dict[tuple[int, Chance, str], QPushButton] = {}
        self.question = QLabel("")
        self.question.setWordWrap(True)
        self.question.setStyleSheet(f"color: {GOLD}; font-size: 18pt; font-weight: bold;")
        self.confirm_button = big_button("", self._confirm)
        self.cancel_button = big_button("", self._cancel)
        ask = QHBoxLayout()
        ask.addWidget(self.confirm_button)
        ask.addWidget(self.cancel_button)
        self._rows = QVBoxLayout()
        holder = QWidget()
        holder.setLayout(self._rows)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(holder)
        layout = QVBoxLayout(self)
        layout.addWidget(self.question)
        layout.addLayout(ask)
        layout.addWidget(scroll, 1)
        self._show_question()

    def show_view(self, view: TableView, lang: Lang) -> None:
        open_now = frozenset((s.seat, s.chance) for s in view.prisoners)
        if not open_now:
            shown: tuple[Stake, ...] = ()
        else:
            # Keep the rows where they were; a new refait's prisoners join at the end.
            known = {(s.seat, s.chance) for s in self._shown}
            shown = self._shown + tuple(s for s in view.prisoners
                                        if (s.seat, s.chance) not in known)
        if Allowed.CHOOSE_PRISON not in view.allowed:
            open_now = frozenset()
        if (shown, open_now, view.prison_move, lang) == (self._shown, self._open, self._move,
                                                         self._lang):
            return
        self._shown, self._open, self._move, self._lang = shown, open_now, view.prison_move, lang
        if self._pending is not None and (self._pending[0].seat,
                                          self._pending[0].chance) not in open_now:
            self._pending = None
        self._rebuild()

    def _rebuild(self) -> None:
        while self._rows.count():
            item = self._rows.takeAt(0)
            if item is not None and (widget := item.widget()) is not None:
                widget.hide()
                widget.deleteLater()
        self.buttons = {}
        lang = self._lang
        if not self._shown:
            self._rows.addWidget(QLabel("—"))
        for stake in self._shown:
            waiting = (stake.seat, stake.chance) in self._open
            answered = "" if waiting else f" — {tr('answered', lang)}"
            label = QLabel(stake_text(stake, lang) + answered)
            label.setWordWrap(True)
            self._rows.addWidget(label)
            row = QHBoxLayout()
            options: list[tuple[str, str, PrisonChoice, Chance | None]] = [
                ("share", tr("share", lang), PrisonChoice.SHARE, None),
                ("keep", tr("keep", lang), PrisonChoice.KEEP, None)]
            if self._move:
                options += [(f"move_{to.value}", f"→ {chance_name(to, lang)}", PrisonChoice.MOVE,
                             to) for to in CHANCES if to is not stake.chance]
            for key, text, choice, to in options:
                button = big_button(text, partial(self._ask, (stake, choice, to)))
                button.setEnabled(waiting)
                self.buttons[stake.seat, stake.chance, key] = button
                row.addWidget(button)
            holder = QWidget()
            holder.setLayout(row)
            self._rows.addWidget(holder)
        self._rows.addStretch(1)
        self._show_question()

    def _ask(self, choice: Choice) -> None:
        self._pending = choice
        self._show_question()

    def _show_question(self) -> None:
        lang, pending = self._lang, self._pending
        self.confirm_button.setText(tr("confirm", lang))
        self.cancel_button.setText(tr("cancel", lang))
        for widget in (self.question, self.confirm_button, self.cancel_button):
            widget.setVisible(pending is not None)
        if pending is not None:
            stake, choice, to = pending
            what = tr(choice.value, lang) + (f" → {chance_name(to, lang)}" if to else "")
            self.question.setText(f"{stake_text(stake, lang)}: {what} ?")

    def _confirm(self) -> None:
        if self._pending is not None:
            stake, choice, to = self._pending
            self._pending = None
            self._show_question()
            self._submit(ChoosePrison(stake.seat, stake.chance, choice, to))

    def _cancel(self) -> None:
        self._pending = None
        self._show_question()
