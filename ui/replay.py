"""The replay view: open a fixture, a session script or a journal and step through it, shown
exactly as the dealer screen showed it: each coup, and between coups each prison choice,
each refusal and each correction, said in words above the board."""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from croupier.decisions import Corrected, CoupDecided, CoupVoided, Rejected
from croupier.errors import CroupierError
from croupier.rulebook import Rulebook
from ui.dealer import DealerScreen
from ui.i18n import Lang, tr
from ui.phrases import decision_lines, event_text
from ui.refusals import refusal_text
from ui.scenario import Frame, Moment, frames, load_scenario
from ui.widgets import ALARM, GOLD, STYLE, big_button


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
            found = frames(load_scenario(path), rulebook)
        except CroupierError as err:
            self.failed.emit(str(err))
            return
        self.loaded.emit(Path(path).name, found)


def moment_text(frame: Frame, lang: Lang) -> str:
    """What happened at this frame, as the chef would say it."""
    match frame.moment:
        case Moment.COUP:
            said = [line for d in frame.decisions if isinstance(d, CoupDecided | CoupVoided)
                    for line in decision_lines(d, lang)]
        case Moment.REFUSED:
            reasons = [refusal_text(d.reason, lang) for d in frame.decisions
                       if isinstance(d, Rejected)]
            what = event_text(frame.event, lang) if frame.event is not None else ""
            said = [tr("refused_because", lang, what=what, why="; ".join(reasons))]
        case Moment.CORRECTION:
            said = [line for d in frame.decisions if isinstance(d, Corrected)
                    for line in decision_lines(d, lang)]
        case Moment.CHOICE:
            said = [event_text(frame.event, lang)] if frame.event is not None else []
        case Moment.END:
            said = [tr("replay_end", lang)]
    return "\n".join(said)


class ReplayView(QWidget):
    def __init__(self, rulebook: Rulebook, lang: Lang = Lang.FR,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setStyleSheet(STYLE)
        self.rulebook = rulebook
        self.lang = lang
        self.name = ""
        self.frames: list[Frame] = []
        self.index = 0
        self.error = ""
        self.loader = _Loader(self)
        self.loader.loaded.connect(self.show_frames)
        self.loader.failed.connect(self._failed)
        self.board_view = DealerScreen(lambda _event: None, lang)
        self.board_view.set_read_only(True)
        self.open_button = big_button("", self._choose_file)
        self.previous_button = big_button("", lambda: self.step(-1))
        self.next_button = big_button("", lambda: self.step(1))
        self.position = QLabel("")
        self.position.setWordWrap(True)
        self.note = QLabel("")
        self.note.setWordWrap(True)
        self.note.setStyleSheet(f"font-size: 18pt; font-weight: bold; color: {GOLD};")
        bar = QHBoxLayout()
        bar.addWidget(self.open_button, 1)
        bar.addWidget(self.previous_button, 2)
        bar.addWidget(self.position, 2)
        bar.addWidget(self.next_button, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.note)
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

    def show_frames(self, name: str, found: list[Frame]) -> None:
        self.name = name
        self.frames = found
        self.index = 0
        self.error = ""
        self._show()

    def step(self, by: int) -> None:
        if self.frames:
            self.index = max(0, min(len(self.frames) - 1, self.index + by))
            self._show()

    def step_to_coup(self, number: int) -> None:
        """Show the frame of the `number`th coup (the last frame when there are fewer)."""
        coups = [i for i, frame in enumerate(self.frames) if frame.moment is Moment.COUP]
        if self.frames:
            self.index = coups[number - 1] if 0 < number <= len(coups) else (
                0 if number <= 0 else len(self.frames) - 1)
            self._show()

    def _show(self) -> None:
        self.board_view.setVisible(bool(self.frames))
        if not self.frames:
            # After a bad file nothing of the one before stays: only the error.
            self.note.setText("")
            self.position.setText(tr("replay_bad_file", self.lang, why=self.error)
                                  if self.error else "")
            self.position.setStyleSheet(f"font-size: 16pt; color: {ALARM};" if self.error
                                        else "font-size: 20pt; font-weight: bold;")
            self.previous_button.setEnabled(False)
            self.next_button.setEnabled(False)
            return
        frame = self.frames[self.index]
        self.board_view.show_board(frame.board)
        self.note.setText(moment_text(frame, self.lang))
        self.position.setStyleSheet("font-size: 20pt; font-weight: bold;")
        self.position.setText(f"{self.name} — {tr('coup', self.lang)} {frame.board.number} "
                              f"({self.index + 1}/{len(self.frames)})")
        self.previous_button.setEnabled(self.index > 0)
        self.next_button.setEnabled(self.index < len(self.frames) - 1)

    def _failed(self, message: str) -> None:
        self.frames = []
        self.error = message
        self._show()
