"""Touch-first building blocks shared by the views: cards, rows, big buttons, a card picker."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QResizeEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from croupier.cards import Card, Colour, Rank, Suit
from croupier.view import Laid

BAIZE = "#0d4a35"
INK = "#f4f1e6"
GOLD = "#ffd75e"
ALARM = "#ff5c5c"
# px: a fingertip's target; with the style's padding and border a button stands 60 px
# (16 mm at 96 dpi), well above the 9 mm least.
TOUCH_HEIGHT = 44
CARD_WIDTH = 84  # px: a card on a row, readable from a metre
COMPACT_CARD_WIDTH = 54  # px: on a laptop's screen
MIN_CARD_WIDTH = 40  # px: the narrowest a long row's cards become
# A button that cannot be tapped: darker, dashed, but read as easily (7:1, above WCAG's 4.5).
DISABLED_BACKGROUND = "#163f31"
DISABLED_INK = "#b8cdc3"
SUIT_SIGNS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


def style(*, compact: bool = False) -> str:
    """The views' style sheet; `compact` for a laptop's screen, every target still a
    fingertip (a compact button stands 40 px, 10.6 mm at 96 dpi)."""
    touch, font, tab = (24, 14, 110) if compact else (TOUCH_HEIGHT, 18, 180)
    return f"""
QWidget {{ background: {BAIZE}; color: {INK}; font-size: {font}pt; }}
QPushButton {{ background: #1f6b50; border: 2px solid #9fd3bd; border-radius: 10px;
               padding: 6px 14px; min-height: {touch}px; font-size: {font}pt; }}
QPushButton:checked {{ background: {GOLD}; color: #1b1b1b; }}
QPushButton:disabled {{ background: {DISABLED_BACKGROUND}; color: {DISABLED_INK};
                        border: 2px dashed #5d8c78; }}
QLineEdit {{ background: #fbfaf5; color: #111; min-height: {touch}px;
             font-size: {font + 4}pt; border-radius: 8px; padding: 0 10px; }}
QListWidget, QTableView, QTextEdit {{ background: #0a3a2a; font-size: 15pt; }}
QHeaderView::section {{ background: #1f6b50; color: {INK}; font-size: 14pt; }}
QTabBar::tab {{ min-height: 40px; min-width: {tab}px; font-size: {font - 1}pt;
                padding: 4px 12px; background: #1f6b50; }}
QTabBar::tab:selected {{ background: {GOLD}; color: #1b1b1b; }}
"""


STYLE = style()


def card_text(card: Card) -> str:
    rank = "10" if card.rank is Rank.TEN else card.rank.value
    return rank + SUIT_SIGNS[card.suit]


class CardFace(QLabel):
    """One card as the tailleur sees it from a metre: rank and suit, red or black."""

    def __init__(self, seen: Laid, parent: QWidget | None = None) -> None:
        super().__init__(card_text(seen.card), parent)
        self.seen = seen
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.set_width(CARD_WIDTH)
        self.setToolTip("face up" if seen.face_up else str(seen.card))

    def set_width(self, width: int) -> None:
        """A long row's cards narrow to fit the screen; a card keeps its proportions."""
        self.setFixedSize(width, width * 4 // 3)
        colour = "#c8102e" if self.seen.card.colour is Colour.RED else "#111111"
        border = GOLD if self.seen.face_up else "#cfcfcf"
        base = 24 if self.seen.card.rank is Rank.TEN else 32  # "10" is a character wider
        size = max(10, base * width // CARD_WIDTH)
        self.setStyleSheet(f"background: #fdfdf8; color: {colour}; border: 5px solid {border};"
                           f"border-radius: 10px; font-size: {size}pt; font-weight: bold;")


class CardRow(QWidget):
    """A row (noir or rouge) filling card by card, with its running point."""

    def __init__(self, title: str, colour: str = INK, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._colour = colour
        self.title = QLabel(title)
        self.title.setFixedWidth(170)
        self.title.setStyleSheet(f"font-size: 28pt; font-weight: bold; color: {colour};")
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
        self._widest = CARD_WIDTH
        self.setMinimumHeight(120)
        # Its cards narrow to its width: a long row never widens the screen.
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._shown: tuple[Laid, ...] = ()

    def show_cards(self, cards: tuple[Laid, ...]) -> None:
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
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        items = (self._cards.itemAt(i) for i in range(self._cards.count()))
        faces = [w for item in items
                 if item is not None and isinstance(w := item.widget(), CardFace)]
        if not faces:
            return
        room = self.width() - self.title.width() - self.point.width() - 60
        width = max(MIN_CARD_WIDTH, min(self._widest, room // len(faces) - self._cards.spacing()))
        if faces[0].width() != width or faces[-1].width() != width:
            for face in faces:
                face.set_width(width)

    def set_compact(self, compact: bool) -> None:
        """Smaller cards and figures on a laptop's screen, leaving room for the taps."""
        self._widest = COMPACT_CARD_WIDTH if compact else CARD_WIDTH
        self.setMinimumHeight(self._widest * 4 // 3 + 8)
        self.title.setFixedWidth(120 if compact else 170)
        self.title.setStyleSheet(f"font-size: {20 if compact else 28}pt; font-weight: bold; "
                                 f"color: {self._colour};")
        self.point.setFixedWidth(100 if compact else 130)
        self.point.setStyleSheet(f"font-size: {36 if compact else 54}pt; font-weight: bold; "
                                 f"color: {GOLD};")
        self._fit()

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

    def __init__(self, *targets: QLineEdit, columns: int = 6,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.targets = targets
        grid = QGridLayout(self)
        grid.setSpacing(4)
        self.buttons: dict[str, QPushButton] = {}
        for i, key in enumerate("123456789⌫0"):
            button = big_button(key, partial(self._press, key))
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setMinimumWidth(TOUCH_HEIGHT)
            self.buttons[key] = button
            grid.addWidget(button, i // columns, i % columns)

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
            button.setMinimumSize(TOUCH_HEIGHT, TOUCH_HEIGHT)
            self._ranks.addButton(button)
            self.rank_buttons[rank] = button
            grid.addWidget(button, i // 7, i % 7)
        for i, suit in enumerate(Suit):
            button = QPushButton(SUIT_SIGNS[suit])
            button.setCheckable(True)
            button.setMinimumSize(TOUCH_HEIGHT, TOUCH_HEIGHT)
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


class ListPanel(QWidget):
    """A title, a list of coloured lines, and a line of sums beneath: the plan and the
    layout alike."""

    def __init__(self, font_pt: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("")
        self.title.setStyleSheet("font-size: 20pt; font-weight: bold;")
        self.list = QListWidget()
        self.list.setStyleSheet(f"font-size: {font_pt}pt;")
        self.list.setSelectionMode(QListWidget.SelectionMode.NoSelection)
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.totals = QLabel("")
        self.totals.setStyleSheet("font-size: 16pt;")
        self.totals.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.totals)

    def add_line(self, text: str, colour: str) -> QListWidgetItem:
        item = QListWidgetItem(text)
        item.setForeground(QColor(colour))
        self.list.addItem(item)
        return item

    def lines(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]
