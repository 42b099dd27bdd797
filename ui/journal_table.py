"""The audit view's journal table: a model over plain lists of the journal's lines, found by
their words, in lines of their own with scroll bars a finger can hold."""

from __future__ import annotations

import json
from datetime import tzinfo

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from ui.audit_data import JournalLine
from ui.i18n import LANGS, Lang
from ui.keypad import KEY_PX
from ui.notation import local_time
from ui.phrases import kind_name

JOURNAL_COLUMNS = ("#", "time", "kind", "record")
_ROOT = QModelIndex()
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 1  # a row's words, raw body included
# Columns apart, and a scroll bar a finger can hold: 9 mm wide at 96 dpi.
JOURNAL_STYLE = f"""
QTableView::item {{ padding: 0 10px; }}
QScrollBar:vertical {{ width: {KEY_PX}px; background: #0a3a2a; }}
QScrollBar::handle:vertical {{ background: #9fd3bd; min-height: {KEY_PX}px; border-radius: 8px; }}
QScrollBar:horizontal {{ height: {KEY_PX}px; background: #0a3a2a; }}
QScrollBar::handle:horizontal {{ background: #9fd3bd; min-width: {KEY_PX}px; border-radius: 8px; }}
QScrollBar::add-line, QScrollBar::sub-line {{ width: 0; height: 0; }}
"""


class JournalModel(QAbstractTableModel):
    """The journal's rows as a table over plain lists: a day holds some ten thousand rows,
    too many to make four Qt items for each on the GUI thread. A row's words (put into
    words by the report's process, in every language) take a table line each, all of one
    height: nothing is cut off, and no row's height is ever measured."""

    def __init__(self, zone: tzinfo | None = None) -> None:
        super().__init__()
        self.lines: list[JournalLine] = []
        self.headers: list[str] = list(JOURNAL_COLUMNS)
        self.lang = Lang.FR
        self.zone = zone
        self._shown: list[tuple[int, str]] = []  # table line → (journal line, its words)
        self._found: list[str] = []  # journal line → what a search finds it by, made once

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self._shown)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(JOURNAL_COLUMNS)

    def line_of(self, row: int) -> JournalLine:
        """The journal line a table line belongs to."""
        return self.lines[self._shown[row][0]]

    def data(self, index: QModelIndex | QPersistentModelIndex,
             role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        if not index.isValid():
            return None
        at, text = self._shown[index.row()]
        line = self.lines[at]
        first = index.row() == 0 or self._shown[index.row() - 1][0] != at
        if role == SEARCH_ROLE:  # every line of a row is found by any of its words
            return self._search_text(at)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        match index.column():
            case 0:
                return str(line.seq) if first else ""
            case 1:
                return local_time(line.at, self.zone) if first else ""
            case 2:
                return kind_name(line.kind, self.lang) if first else ""
        return text

    def _search_text(self, at: int) -> str:
        while len(self._found) <= at:
            line = self.lines[len(self._found)]
            self._found.append(f"{line.seq} {kind_name(line.kind, self.lang)} "
                               f"{line.words[LANGS.index(self.lang)]} {line.text}")
        return self._found[at]

    def set_lang(self, lang: Lang) -> None:
        if lang is not self.lang:
            self.beginResetModel()
            self.lang = lang
            self._shown = self._lines_of(self.lines, 0)
            self._found = []
            self.endResetModel()

    def raw(self, row: int) -> str:
        """The row as stored: its number, its UTC stamp, its kind and its whole body."""
        line = self.line_of(row)
        try:
            body = json.dumps(json.loads(line.text), indent=2, ensure_ascii=False)
        except ValueError:
            body = line.text
        return f"#{line.seq}  {line.at}  {line.kind}\n{body}"

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        if role != Qt.ItemDataRole.DisplayRole or orientation != Qt.Orientation.Horizontal:
            return None
        return self.headers[section]

    def set_headers(self, headers: list[str]) -> None:
        self.headers = headers
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(headers) - 1)

    def _lines_of(self, lines: list[JournalLine], first: int) -> list[tuple[int, str]]:
        which = LANGS.index(self.lang)
        return [(first + i, text) for i, line in enumerate(lines)
                for text in line.words[which].split("\n")]

    def add_lines(self, lines: tuple[JournalLine, ...], *, restart: bool) -> None:
        """Append `lines`; with `restart`, in place of every row shown so far."""
        if restart:
            self.beginResetModel()
            self.lines = list(lines)
            self._shown = self._lines_of(self.lines, 0)
            self._found = []
            self.endResetModel()
        elif lines:
            added = self._lines_of(list(lines), len(self.lines))
            self.beginInsertRows(QModelIndex(), len(self._shown),
                                 len(self._shown) + len(added) - 1)
            self.lines.extend(lines)
            self._shown.extend(added)
            self.endInsertRows()

