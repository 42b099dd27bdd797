"""The chef de table's audit view: the journal, its verification, the marque, the statistics
against theory, the alarms, and the corrections behind the PIN."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from datetime import tzinfo

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
)
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from croupier.cards import Card
from croupier.events import CorrectCard, EndShoe, ReopenBets, VoidCoup
from journal.chef import Correction, Refusal, Refused
from ui.audit_data import AlarmLine, AuditReport, JournalLine
from ui.i18n import LANGS, Lang, tr
from ui.keypad import KEY_PX
from ui.phrases import (
    alarm_text,
    chef_refusal_text,
    detail_text,
    kind_name,
    local_time,
    refusal_text,
    row_text,
    scope_text,
    statistic_text,
    verdict_text,
)
from ui.widgets import ALARM, STYLE, CardPicker, Keypad, big_button

JOURNAL_COLUMNS = ("#", "time", "kind", "record")
_ROOT = QModelIndex()
STATS_COLUMNS = ("scope", "test", "observed", "expected", "p")
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 1  # a row's words, raw body included
RESOLVED = "#9fb8ad"  # an alarm answered: read, but no longer calling for the eye
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


class AuditView(QWidget):
    """Read-only but for the corrections; everything shown arrives in an `AuditReport`."""

    def __init__(
        self,
        correct: Callable[[str, Correction], None],
        set_pin: Callable[[str, str | None], None],
        refresh: Callable[[], None],
        lang: Lang = Lang.FR,
        parent: QWidget | None = None,
        *,
        zone: tzinfo | None = None,
    ) -> None:
        """`zone`: the casino's time zone (None: this computer's)."""
        super().__init__(parent)
        self.setStyleSheet(STYLE)
        self.lang = lang
        self.zone = zone
        self.report: AuditReport | None = None
        self.verdict_label = QLabel("")
        self.verdict_label.setStyleSheet("font-size: 22pt; font-weight: bold;")
        self.refresh_button = big_button("", refresh)
        self.refresh_button.setMaximumWidth(260)
        header = QHBoxLayout()
        header.addWidget(self.verdict_label, 1)
        header.addWidget(self.refresh_button)

        self.search = QLineEdit()
        self.model = JournalModel(zone)
        self.filter = QSortFilterProxyModel()
        self.filter.setSourceModel(self.model)
        self.filter.setFilterKeyColumn(0)
        self.filter.setFilterRole(SEARCH_ROLE)  # the words and the raw row alike
        self.filter.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.search.textChanged.connect(self.filter.setFilterFixedString)
        self.table = QTableView()
        self.table.setModel(self.filter)
        self.table.setStyleSheet(JOURNAL_STYLE)
        self.table.setWordWrap(False)  # the words come in lines of their own
        self.table.setTextElideMode(Qt.TextElideMode.ElideNone)  # never "…": scroll instead
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setShowGrid(False)  # a row's lines read as one
        header_view = self.table.horizontalHeader()
        header_view.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header_view.setResizeContentsPrecision(200)  # the widths from the first rows only
        header_view.setStretchLastSection(True)
        rows = self.table.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setMinimumSectionSize(1)
        rows.hide()
        self.table.clicked.connect(self._show_raw)
        self.raw = QTextEdit()
        self.raw.setReadOnly(True)
        self.raw.setStyleSheet("font-family: monospace; font-size: 14pt;")
        self.raw.setMaximumHeight(220)
        journal_tab = QWidget()
        journal_layout = QVBoxLayout(journal_tab)
        journal_layout.addWidget(self.search)
        journal_layout.addWidget(self.table, 1)
        journal_layout.addWidget(self.raw)

        self.marque = QTextEdit()
        self.marque.setReadOnly(True)
        self.marque.setStyleSheet("font-family: monospace; font-size: 16pt;")
        self.stats = QTableWidget(0, 5)
        stats_header = self.stats.horizontalHeader()
        stats_header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        for column in (2, 3):  # the observed and expected counts are the long ones
            stats_header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        self.stats.verticalHeader().hide()
        self.stats_note = QLabel("")
        stats_tab = QWidget()
        stats_layout = QVBoxLayout(stats_tab)
        stats_layout.addWidget(self.marque, 1)
        stats_layout.addWidget(self.stats_note)
        stats_layout.addWidget(self.stats, 2)
        self.alarms = QListWidget()
        self.corrections_log = QListWidget()
        self.corrections = CorrectionsPanel(correct, set_pin)
        corrections_tab = QWidget()
        corrections_layout = QVBoxLayout(corrections_tab)
        corrections_layout.addWidget(self.corrections)
        corrections_layout.addWidget(self.corrections_log, 1)

        self.tabs = QTabWidget()
        self.tabs.addTab(journal_tab, "")
        self.tabs.addTab(stats_tab, "")
        self.tabs.addTab(self.alarms, "")
        self.tabs.addTab(corrections_tab, "")
        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addWidget(self.tabs, 1)
        self.set_lang(lang)

    def set_lang(self, lang: Lang) -> None:
        self.lang = lang
        self.refresh_button.setText(tr("verify", lang))
        self.search.setPlaceholderText(tr("search", lang))
        for i, key in enumerate(("journal", "marque", "alarms", "corrections")):
            self.tabs.setTabText(i, tr(key, lang) if key != "marque"
                                 else f"{tr('marque', lang)} / {tr('statistics', lang)}")
        self.corrections.retranslate(lang)
        self.raw.setPlaceholderText(tr("tap_for_raw", lang))
        self.table.ensurePolished()
        self.table.verticalHeader().setDefaultSectionSize(
            self.table.fontMetrics().lineSpacing() + 6)
        self.model.set_lang(lang)
        headers = [tr(key, lang) for key in JOURNAL_COLUMNS]
        headers[1] += f" ({local_time('2000-01-01T12:00:00+00:00', self.zone).split()[-1]})"
        self.model.set_headers(headers)
        self.stats.setHorizontalHeaderLabels([tr(key, lang) for key in STATS_COLUMNS])
        if self.report is not None:
            self.show_report(self.report)

    def show_report(self, report: AuditReport) -> None:
        self.report = report
        lang = self.lang
        verdict = report.verdict
        if verdict is not None and verdict.intact:
            text, colour = f"✔ {tr('intact', lang)} — {verdict.rows} {tr('rows', lang)}", "#7CFC9A"
        elif verdict is not None:
            text, colour = f"✘ {verdict_text(verdict, lang)}", ALARM
        else:
            text, colour = f"✘ {tr('unreadable_journal', lang)}", ALARM
            self.raw.setPlainText(report.verdict_error)  # what the verification could not do
        self.verdict_label.setText(text)
        self.verdict_label.setStyleSheet(f"font-size: 22pt; font-weight: bold; color: {colour};")
        self._fill_journal(report)
        self._fill_statistics(report)
        self._fill_alarms(report.alarms)
        self.corrections_log.clear()
        for entry in report.corrections:
            self.corrections_log.addItem(f"#{entry.seq}  {local_time(entry.at, self.zone)}  "
                                         f"{row_text(entry.kind, entry.text, lang, self.zone)}")
        self.corrections.show_state(report.pin_set, report.locked_for, lang)

    def _fill_alarms(self, alarms: tuple[AlarmLine, ...]) -> None:
        """The open alarms first, in red; the resolved ones after, greyed, saying by which
        row: an alarm answered no longer calls for the eye, but stays on the record."""
        lang = self.lang
        self.alarms.clear()
        for line in alarms:
            text = (f"#{line.seq}  {local_time(line.at, self.zone)}  "
                    f"{alarm_text(line.alarm, lang, self.zone)}")
            if line.resolved_by is not None:
                text += f"  ✔ {tr('resolved_at', lang, seq=line.resolved_by)}"
            item = QListWidgetItem(text)
            item.setForeground(QColor(ALARM if line.resolved_by is None else RESOLVED))
            self.alarms.addItem(item)
        if not any(line.resolved_by is None for line in alarms):
            self.alarms.insertItem(0, tr("no_alarm", lang))

    def open_alarms(self) -> int:
        return sum(1 for line in self.report.alarms if line.resolved_by is None) \
            if self.report else 0

    def _show_raw(self, index: QModelIndex) -> None:
        self.raw.setPlainText(self.model.raw(self.filter.mapToSource(index).row()))

    def _fill_journal(self, report: AuditReport) -> None:
        # A journal only grows: a report holds the rows new since the last one, or all.
        self.model.add_lines(report.lines, restart=report.after == 0)
        self.table.scrollToBottom()  # the latest rows are what the chef looks at first

    def _fill_statistics(self, report: AuditReport) -> None:
        lines = [f"{tr('shoe', self.lang)} {name.rsplit(' ', 1)[-1]}\n  {results}\n  {colours}"
                 for name, results, colours in report.marques]
        self.marque.setPlainText("\n".join(lines) or "—")
        # the reason the coups cannot be read is the verification's to name
        self.stats_note.setText(tr("st_unreadable", self.lang) if report.stats_note else "")
        self.stats.setRowCount(len(report.tests))
        for i, test in enumerate(report.tests):
            p_value = "—" if math.isnan(test.p_value) else f"{test.p_value:.3g}"
            cells = (scope_text(test.scope, self.lang), statistic_text(test.test, self.lang),
                     statistic_text(test.observed, self.lang), test.expected, p_value)
            for j, cell in enumerate(cells):
                item = QTableWidgetItem(cell)
                if test.flagged:
                    item.setForeground(Qt.GlobalColor.red)
                self.stats.setItem(i, j, item)

    def show_refused(self, refused: Refused) -> None:
        self.corrections.say(f"{tr('refused', self.lang)}: "
                             f"{chef_refusal_text(refused, self.lang)}", ok=False)
        if refused.why is Refusal.LOCKED or refused.retry_in > 0:
            self.corrections.show_state(True, refused.retry_in, self.lang)

    def show_answer(self, what: str, ok: bool) -> None:
        """The table's answer to a correction that passed the PIN: done, or why not."""
        lang = self.lang
        if what == "PIN":
            said = tr("pin_changed", lang)
        elif ok:
            said = "; ".join(detail_text(d, lang) or tr("done", lang) for d in what.split("; "))
        else:
            said = refusal_text(what, lang)
        self.corrections.say(f"{tr('done' if ok else 'refused', lang)}: {said}", ok=ok)
