"""The replay view: open a fixture, a session script or a journal and step through it coup
by coup, shown exactly as the dealer screen showed it."""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from croupier.errors import CroupierError
from croupier.rulebook import Rulebook
from ui.board import Board
from ui.dealer import DealerScreen
from ui.i18n import Lang, tr
from ui.scenario import frames, load_scenario
from ui.widgets import ALARM, STYLE, big_button


class _Loader(QObject):
    """Reads and folds a file on a short-lived thread: the GUI never waits on the disk."""

    loaded = Signal(str, list)
    failed = Signal(str)

    def load(self, path: str, rulebook: Rulebook) -> threading.Thread:
        thread = threading.Thread(target=self._run, args=(path, rulebook),
                                  name="croupier-replay-load", daemon=True)
        thread.start()
        return thread

    def _run(self, path: str, rulebook: Rulebook) -> None:
        try:
            boards = frames(load_scenario(path), rulebook)
        except CroupierError as err:
            self.failed.emit(str(err))
            return
        self.loaded.emit(Path(path).name, boards)


class ReplayView(QWidget):
    def __init__(self, rulebook: Rulebook, lang: Lang = Lang.FR,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setStyleSheet(STYLE)
        self.rulebook = rulebook
        self.lang = lang
        self.boards: list[Board] = []
        self.index = 0
        self.loader = _Loader(self)
        self.loader.loaded.connect(self.show_frames)
        self.loader.failed.connect(self._failed)
        self.board_view = DealerScreen(lambda _event: None, lang)
        self.board_view.set_read_only(True)
        self.open_button = big_button("", self._choose_file)
        self.previous_button = big_button("", lambda: self.step(-1))
        self.next_button = big_button("", lambda: self.step(1))
        self.position = QLabel("")
        self.position.setStyleSheet("font-size: 20pt; font-weight: bold;")
        bar = QHBoxLayout()
        bar.addWidget(self.open_button, 1)
        bar.addWidget(self.previous_button, 2)
        bar.addWidget(self.position, 2)
        bar.addWidget(self.next_button, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.board_view, 1)
        self.set_lang(lang)

    def set_lang(self, lang: Lang) -> None:
        self.lang = lang
        self.open_button.setText(tr("open_file", lang))
        self.previous_button.setText(tr("previous", lang))
        self.next_button.setText(tr("next", lang))
        self.board_view.set_lang(lang)
        self._show()

    def open(self, path: str) -> threading.Thread:
        """Load `path` in the background; `show_frames` follows."""
        self.position.setText("…")
        return self.loader.load(path, self.rulebook)

    def _choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, tr("open_file", self.lang), "",
            "Shoes, sessions, journals (*.shoe *.jsonl *.db);;All files (*)")
        if path:
            self.open(path)

    def show_frames(self, name: str, boards: list[Board]) -> None:
        self.name = name
        self.boards = boards
        self.index = 0
        self._show()

    def step(self, by: int) -> None:
        if self.boards:
            self.index = max(0, min(len(self.boards) - 1, self.index + by))
            self._show()

    def _show(self) -> None:
        if not self.boards:
            self.position.setText("")
            self.previous_button.setEnabled(False)
            self.next_button.setEnabled(False)
            return
        board = self.boards[self.index]
        self.board_view.show_board(board)
        self.position.setText(f"{self.name} — {tr('coup', self.lang)} {board.number} "
                              f"({self.index + 1}/{len(self.boards)})")
        self.previous_button.setEnabled(self.index > 0)
        self.next_button.setEnabled(self.index < len(self.boards) - 1)

    def _failed(self, message: str) -> None:
        self.position.setText(message)
        self.position.setStyleSheet(f"font-size: 16pt; color: {ALARM};")
