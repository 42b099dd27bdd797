"""Touch-first building blocks shared by the views: cards, rows, big buttons, a card picker."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from croupier.cards import Card, Colour, Rank, Suit
from ui.board import Seen

BAIZE = "#0d4a35"
INK = "#f4f1e6"
GOLD = "#ffd75e"
ALARM = "#ff5c5c"
# A button that cannot be tapped: darker, dashed, but read as easily (7:1, above WCAG's 4.5).
DISABLED_BACKGROUND = "#163f31"
DISABLED_INK = "#b8cdc3"
TOUCH_HEIGHT = 56  # px: a fingertip's target, well above the 44 px guideline
SUIT_SIGNS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}

STYLE = f"""
QWidget {{ background: {BAIZE}; color: {INK}; font-size: 18pt; }}
QPushButton {{ background: #1f6b50; border: 2px solid #9fd3bd; border-radius: 10px;
               padding: 6px 14px; min-height: {TOUCH_HEIGHT}px; font-size: 18pt; }}
QPushButton:checked {{ background: {GOLD}; color: #1b1b1b; }}
QPushButton:disabled {{ background: {DISABLED_BACKGROUND}; color: {DISABLED_INK};
                        border: 2px dashed #5d8c78; }}
QLineEdit {{ background: #fbfaf5; color: #111; min-height: {TOUCH_HEIGHT}px;
             font-size: 22pt; border-radius: 8px; padding: 0 10px; }}
QListWidget, QTableView, QTextEdit {{ background: #0a3a2a; font-size: 15pt; }}
QHeaderView::section {{ background: #1f6b50; color: {INK}; font-size: 14pt; }}
QTabBar::tab {{ min-height: 40px; min-width: 180px; font-size: 17pt; padding: 4px 12px;
                background: #1f6b50; }}
QTabBar::tab:selected {{ background: {GOLD}; color: #1b1b1b; }}
"""


def card_text(card: Card) -> str:
    rank = "10" if card.rank is Rank.TEN else card.rank.value
    return rank + SUIT_SIGNS[card.suit]


class CardFace(QLabel):
    """One card as the tailleur sees it from a metre: rank and suit, red or black."""

    def __init__(self, seen: Seen, parent: QWidget | None = None) -> None:
        super().__init__(card_text(seen.card), parent)
        self.seen = seen
        colour = "#c8102e" if seen.card.colour is Colour.RED else "#111111"
        border = GOLD if seen.face_up else "#cfcfcf"
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setFixedSize(84, 112)
        size = 24 if seen.card.rank is Rank.TEN else 32  # "10" is a character wider
        self.setStyleSheet(f"background: #fdfdf8; color: {colour}; border: 5px solid {border};"
                           f"border-radius: 10px; font-size: {size}pt; font-weight: bold;")
        self.setToolTip("face up" if seen.face_up else str(seen.card))


class CardRow(QWidget):
    """A row (noir or rouge) filling card by card, with its running point."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel(title)
        self.title.setFixedWidth(170)
        self.title.setStyleSheet("font-size: 28pt; font-weight: bold;")
        self.point = QLabel("")
        self.point.setFixedWidth(130)
        self.point.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.point.setStyleSheet(f"font-size: 54pt; font-weight: bold; color: {GOLD};")
        self._cards = QHBoxLayout()
        self._cards.setSpacing(8)
        layout = QHBoxLayout(self)
        layout.addWidget(self.title)
        layout.addLayout(self._cards)
        layout.addStretch(1)
        layout.addWidget(self.point)
        self.setMinimumHeight(120)
        self._shown: tuple[Seen, ...] = ()

    def show_cards(self, cards: tuple[Seen, ...]) -> None:
        if cards == self._shown:
            return
        keep = 0
        while keep < min(len(cards), len(self._shown)) and cards[keep] == self._shown[keep]:
            keep += 1
        while self._cards.count() > keep:  # only what changed is rebuilt: cards arrive one by one
            item = self._cards.takeAt(self._cards.count() - 1)
            if item is not None and (widget := item.widget()) is not None:
                widget.hide()  # at once: the deletion waits for the event loop
                widget.deleteLater()
        for seen in cards[keep:]:
            self._cards.addWidget(CardFace(seen))
        self._shown = cards
        self.point.setText(str(cards[-1].point) if cards else "")

    def cards(self) -> list[str]:
        return [str(seen.card) for seen in self._shown]


def big_button(text: str, on_click: Callable[[], None], *, checkable: bool = False) -> QPushButton:
    button = QPushButton(text)
    button.setCheckable(checkable)
    button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    # `clicked` carries `checked`; never let it land in a lambda's default argument.
    button.clicked.connect(lambda _checked=False: on_click())
    return button


class Keypad(QWidget):
    """Ten digits and a rub-out for a touchscreen with no keyboard. They type into whichever
    of `targets` has the focus (the first when none has), and never take the focus."""

    def __init__(self, *targets: QLineEdit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.targets = targets
        grid = QGridLayout(self)
        grid.setSpacing(4)
        self.buttons: dict[str, QPushButton] = {}
        for i, key in enumerate("123456789⌫0"):
            button = big_button(key, partial(self._press, key))
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            self.buttons[key] = button
            grid.addWidget(button, i // 6, i % 6)

    def _press(self, key: str) -> None:
        target = next((t for t in self.targets if t.hasFocus()), self.targets[0])
        if key == "⌫":
            target.backspace()
        else:
            target.insert(key)


class CardPicker(QWidget):
    """Thirteen rank buttons and four suit buttons: a card named with two taps."""

    picked = Signal(Card)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setSpacing(4)
        self._ranks = QButtonGroup(self)
        self._suits = QButtonGroup(self)
        self.rank_buttons: dict[Rank, QPushButton] = {}
        self.suit_buttons: dict[Suit, QPushButton] = {}
        for i, rank in enumerate(Rank):
            button = QPushButton("10" if rank is Rank.TEN else rank.value)
            button.setCheckable(True)
            button.setMinimumWidth(56)
            self._ranks.addButton(button)
            self.rank_buttons[rank] = button
            grid.addWidget(button, i // 7, i % 7)
        for i, suit in enumerate(Suit):
            button = QPushButton(SUIT_SIGNS[suit])
            button.setCheckable(True)
            red = suit.colour is Colour.RED
            button.setStyleSheet("color: #ff6b6b;" if red else "")
            self._suits.addButton(button)
            self.suit_buttons[suit] = button
            grid.addWidget(button, 2, i)
        self._ranks.buttonClicked.connect(self._maybe_pick)
        self._suits.buttonClicked.connect(self._maybe_pick)

    def current(self) -> Card | None:
        rank = next((r for r, b in self.rank_buttons.items() if b.isChecked()), None)
        suit = next((s for s, b in self.suit_buttons.items() if b.isChecked()), None)
        return Card(rank, suit) if rank is not None and suit is not None else None

    def _maybe_pick(self) -> None:
        card = self.current()
        if card is not None:
            self.picked.emit(card)

    def reset(self) -> None:
        for group in (self._ranks, self._suits):
            group.setExclusive(False)
            for button in group.buttons():
                button.setChecked(False)
            group.setExclusive(True)
