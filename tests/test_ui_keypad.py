"""The on-screen keypad for amounts, tapped as a tailleur would."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget

from ui.i18n import Lang
from ui.keypad import BACKSPACE, MIN_TARGET_PX, AmountKeypad, chips_for


def tap(qtbot, button: QPushButton) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


@pytest.fixture
def keypad(qtbot) -> AmountKeypad:  # type: ignore[no-untyped-def]
    pad = AmountKeypad(Lang.FR)
    qtbot.addWidget(pad)
    pad.set_limits(Decimal(10), Decimal(10000))
    pad.show()
    return pad


def test_nine_mm_is_at_least_34_px_at_96_dpi() -> None:
    assert MIN_TARGET_PX >= 34


def test_digits_decimal_backspace_and_clear(qtbot, keypad: AmountKeypad) -> None:  # type: ignore[no-untyped-def]
    amounts: list[Decimal | None] = []
    keypad.amount_changed.connect(amounts.append)
    for key in ("1", "2", ".", "5", "0", "7"):  # a third decimal is refused
        tap(qtbot, keypad.keys[key])
    assert keypad.amount() == Decimal("12.50")
    assert keypad.display.text() == "12,50"  # the French decimal mark
    tap(qtbot, keypad.keys[BACKSPACE])
    tap(qtbot, keypad.keys[BACKSPACE])
    assert keypad.amount() == Decimal(12)
    assert keypad.keys["clear"].text() == "Effacer"
    tap(qtbot, keypad.keys["clear"])
    assert keypad.amount() is None
    assert amounts[-1] is None
    assert amounts[:2] == [Decimal(1), Decimal(12)]


def test_a_second_decimal_mark_and_leading_zeros_are_refused(  # type: ignore[no-untyped-def]
        qtbot, keypad: AmountKeypad) -> None:
    for key in ("0", "0", ".", ".", "5"):
        tap(qtbot, keypad.keys[key])
    assert keypad.display.text() == "0,5"
    keypad.set_lang(Lang.EN)
    assert keypad.display.text() == "0.5"
    assert keypad.keys["."].text() == "."


def test_chips_follow_the_table_limits_and_add_up(qtbot, keypad: AmountKeypad) -> None:  # type: ignore[no-untyped-def]
    assert [str(v) for v in keypad.chips] == ["10", "50", "100", "500", "5000", "10000"]
    assert keypad.limits.text() == "Min 10 — max 10000"
    tap(qtbot, keypad.chips[Decimal(100)])
    tap(qtbot, keypad.chips[Decimal(50)])
    tap(qtbot, keypad.chips[Decimal(50)])
    assert keypad.amount() == Decimal(200)
    assert keypad.within_limits()
    keypad.set_limits(Decimal(5), Decimal(100))
    assert list(keypad.chips) == [Decimal(v) for v in (5, 10, 20, 25, 50, 100)]
    assert not keypad.within_limits()  # 200 is above the new maximum: shown in red
    assert "#ff5c5c" in keypad.display.styleSheet()


def test_repeat_last_stakes_is_asked_for(qtbot, keypad: AmountKeypad) -> None:  # type: ignore[no-untyped-def]
    with qtbot.waitSignal(keypad.repeat_requested, timeout=1000):
        tap(qtbot, keypad.keys["repeat"])
    assert keypad.keys["repeat"].text() == "Répéter les mises"
    keypad.set_lang(Lang.IT)
    assert keypad.keys["repeat"].text() == "Ripeti le puntate"


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 800), (420, 360)])
def test_every_target_is_at_least_9_mm(qtbot, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    """However little room the screen leaves it, no key shrinks below 9 mm at 96 dpi."""
    holder = QWidget()
    qtbot.addWidget(holder)
    pad = AmountKeypad(Lang.IT)
    pad.set_limits(Decimal(2), Decimal(1000000))
    QVBoxLayout(holder).addWidget(pad)
    holder.resize(*size)
    holder.show()
    qtbot.waitExposed(holder)
    buttons = pad.findChildren(QPushButton)
    assert len(buttons) == 14 + len(pad.chips)  # 10 digits, mark, ⌫, clear, repeat
    for button in buttons:
        assert button.isVisible()
        assert button.width() >= MIN_TARGET_PX, button.text()
        assert button.height() >= MIN_TARGET_PX, button.text()


@given(st.decimals(min_value=Decimal("0.01"), max_value=Decimal(10**6), places=2),
       st.decimals(min_value=Decimal(1), max_value=Decimal(1000), places=0))
def test_chips_lie_within_the_limits(minimum: Decimal, ratio: Decimal) -> None:
    maximum = minimum * ratio
    chips = chips_for(minimum, maximum)
    assert chips[0] == minimum
    assert 1 <= len(chips) <= 6
    assert list(chips) == sorted(set(chips))
    assert all(minimum <= chip <= maximum for chip in chips)
