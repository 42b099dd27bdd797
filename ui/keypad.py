"""An on-screen keypad for amounts: a table PC has a touchscreen and no keyboard.

Digits, the decimal mark, clear and rub-out, chips taken from the table's limits (a tap adds
the chip, as a stack grows on the baize), the limits shown, and "repeat last stakes", which
this widget only asks for: what the last stakes were is the screen's to know. Every key is at
least 9 mm wide and tall on a 96 dpi screen.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import Decimal
from functools import partial
from typing import Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget

from croupier.money import money_text
from ui.i18n import Lang, tr
from ui.widgets import ALARM, GOLD, TOUCH_HEIGHT

MM_PER_INCH: Final = 25.4
TARGET_MM: Final = 9.0
REFERENCE_DPI: Final = 96
MIN_TARGET_PX: Final = math.ceil(TARGET_MM / MM_PER_INCH * REFERENCE_DPI)  # 35 px
KEY_PX: Final = max(MIN_TARGET_PX, TOUCH_HEIGHT)
MAX_CHIPS: Final = 6
MAX_DIGITS: Final = 9  # a stake is never a billion
DECIMALS: Final = 2
# Chip values a casino makes: 1, 5, 10, 50, 100, … up to a million, and between them the
# 2s and 25s that some houses add.
CHIP_SERIES: Final = tuple(Decimal(m) * 10**e for e in range(7) for m in (1, 5))
IN_BETWEEN: Final = tuple(Decimal(m) * 10**e for e in range(6) for m in (2, 25))
BACKSPACE: Final = "⌫"


def decimal_mark(lang: Lang) -> str:
    return "." if lang is Lang.EN else ","


def chips_for(minimum: Decimal | None, maximum: Decimal | None) -> tuple[Decimal, ...]:
    """At most `MAX_CHIPS` chip values within the table's limits, the minimum first (a
    minimum that is no chip of the series still gets its chip: it is the table's), the rest
    spread from the smallest to the largest the limits allow."""
    low = minimum if minimum is not None and minimum > 0 else Decimal(1)
    high = maximum if maximum is not None and maximum >= low else low * 1000
    inside = sorted({v for v in CHIP_SERIES if low < v <= high})
    if len(inside) > MAX_CHIPS - 1:
        step = (len(inside) - 1) / (MAX_CHIPS - 2)
        inside = [inside[round(i * step)] for i in range(MAX_CHIPS - 1)]
    between = sorted(v for v in IN_BETWEEN if low < v <= high and v not in inside)
    return (low, *sorted(inside + between[: MAX_CHIPS - 1 - len(inside)]))


class AmountKeypad(QWidget):
    """Types an amount; `amount_changed` carries it (a `Decimal`, or None when empty)."""

    amount_changed = Signal(object)
    repeat_requested = Signal()

    def __init__(self, lang: Lang = Lang.FR, *, wide: bool = False,
                 parent: QWidget | None = None) -> None:
        """`wide`: every key in one row and the limits beside the amount, for a panel that
        has more width than height."""
        super().__init__(parent)
        self.lang = lang
        self.minimum: Decimal | None = None
        self.maximum: Decimal | None = None
        self._text = ""  # digits and at most one ".", as typed
        self.display = QLabel("")
        self.display.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.display.setMinimumHeight(KEY_PX)
        self.limits = QLabel("")
        self.limits.setStyleSheet("font-size: 14pt;")  # 14 pt: about 5 mm, read at a metre
        self.keys: dict[str, QPushButton] = {}
        grid = QGridLayout()
        grid.setSpacing(6)
        keys = [self._key(key, partial(self.press, key)) for key in "789456123"]
        keys += [self._key(".", partial(self.press, ".")), self._key("0", partial(self.press, "0")),
                 self._key(BACKSPACE, self.backspace)]
        self.clear_key = self._key("clear", self.clear)
        self.repeat_key = self._key("repeat", self.repeat_requested.emit)
        if wide:
            for i, key in enumerate(keys):
                grid.addWidget(key, 0, i)
        else:
            for i, key in enumerate(keys):
                grid.addWidget(key, i // 3, i % 3)
            grid.addWidget(self.clear_key, 4, 0, 1, 3)
            grid.addWidget(self.repeat_key, 5, 0, 1, 3)
        self.chip_row = QHBoxLayout()
        self.chip_row.setSpacing(6)
        self.chips: dict[Decimal, QPushButton] = {}
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.display, 0, 0)
        if wide:  # the amount, its limits and its clearing on one line
            layout.addWidget(self.limits, 0, 1)
            layout.addWidget(self.clear_key, 0, 2)
            layout.addLayout(self.chip_row, 1, 0, 1, 3)
            layout.addLayout(grid, 2, 0, 1, 3)
        else:
            layout.addWidget(self.limits, 1, 0)
            layout.addLayout(self.chip_row, 2, 0)
            layout.addLayout(grid, 3, 0)
        self.set_limits(None, None)
        self.set_lang(lang)

    def _key(self, name: str, on_tap: Callable[[], object]) -> QPushButton:
        """A key, found in `keys` by `name`; its words are set by `set_lang`."""
        button = QPushButton(name)
        button.setMinimumSize(KEY_PX, KEY_PX)
        button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the amount's field keeps the focus
        button.clicked.connect(lambda _checked=False: on_tap())
        self.keys[name] = button
        return button

    # -- what the keys do -----------------------------------------------------------------

    def press(self, key: str) -> None:
        """A digit or the decimal mark ("."), refused silently where it makes no amount."""
        whole, dot, cents = self._text.partition(".")
        if key == ".":
            if not dot:
                self._set((self._text or "0") + ".")
            return
        full = len(cents) >= DECIMALS if dot else len(whole) >= MAX_DIGITS
        if not full:
            self._set(key if self._text == "0" else self._text + key)

    def backspace(self) -> None:
        self._set(self._text[:-1])

    def clear(self) -> None:
        self._set("")

    def add_chip(self, value: Decimal) -> None:
        total = (self.amount() or Decimal(0)) + value
        self._set(money_text(total))

    def set_amount(self, amount: Decimal | None) -> None:
        self._set("" if amount is None else money_text(amount))

    def amount(self) -> Decimal | None:
        # The keys type digits and at most one ".", never first: always a number.
        return Decimal(self._text) if self._text else None

    def within_limits(self) -> bool:
        amount = self.amount()
        return amount is not None and (self.minimum is None or amount >= self.minimum) and (
            self.maximum is None or amount <= self.maximum)

    def _set(self, text: str) -> None:
        changed = text != self._text
        self._text = text
        self._show()
        if changed:
            self.amount_changed.emit(self.amount())

    # -- the table's limits and the language ------------------------------------------------

    def set_limits(self, minimum: Decimal | None, maximum: Decimal | None) -> None:
        """The table's limits: its chips, and the limits shown above them."""
        self.minimum, self.maximum = minimum, maximum
        values = chips_for(minimum, maximum)
        if tuple(self.chips) != values:
            for button in self.chips.values():
                self.chip_row.removeWidget(button)
                button.setParent(None)  # gone at once: its deletion waits for the event loop
                button.deleteLater()
            self.chips = {}
            for value in values:
                chip = QPushButton(money_text(value))
                chip.setMinimumSize(KEY_PX, KEY_PX)
                chip.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
                chip.setFocusPolicy(Qt.FocusPolicy.NoFocus)
                chip.setStyleSheet(f"border-radius: {KEY_PX // 2}px; border: 3px dashed {GOLD};")
                chip.clicked.connect(lambda _checked=False, v=value: self.add_chip(v))
                self.chip_row.addWidget(chip)
                self.chips[value] = chip
        self._show()

    def set_lang(self, lang: Lang) -> None:
        self.lang = lang
        self.keys["."].setText(decimal_mark(lang))
        self.clear_key.setText(tr("clear", lang))
        self.repeat_key.setText(tr("keypad_repeat", lang))
        self._show()

    def _show(self) -> None:
        lang = self.lang
        shown = self._text.replace(".", decimal_mark(lang))
        self.display.setText(shown or tr("need_amount", lang))
        ok = not self._text or self.within_limits()
        self.display.setStyleSheet(
            f"font-size: {28 if self._text else 16}pt; font-weight: bold; "
            f"color: {'#f4f1e6' if ok else ALARM};")
        low = "—" if self.minimum is None else money_text(self.minimum)
        high = "—" if self.maximum is None else money_text(self.maximum)
        self.limits.setText(tr("keypad_limits", lang, minimum=low, maximum=high))
