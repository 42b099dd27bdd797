"""The chef de table's audit view: the journal, its verification, the marque, the statistics
against theory, the alarms, and the corrections behind the PIN."""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import tzinfo

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
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

from journal.chef import Correction, Refusal, Refused
from ui.audit_data import AlarmLine, AuditReport
from ui.audit_words import scope_text, statistic_text, verdict_text
from ui.corrections_panel import CorrectionsPanel
from ui.device_alarms import alarm_text
from ui.i18n import Lang, tr
from ui.journal_table import JOURNAL_COLUMNS, JOURNAL_STYLE, SEARCH_ROLE, JournalModel
from ui.notation import local_time
from ui.phrases import detail_text, row_text
from ui.refusals import chef_refusal_text, refusal_text
from ui.widgets import ALARM, STYLE, big_button

STATS_COLUMNS = ("scope", "test", "observed", "expected", "p")
RESOLVED = "#9fb8ad"  # an alarm answered: read, but no longer calling for the eye


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
        header = self._header(refresh)
        self.alarms = QListWidget()
        self.tabs = QTabWidget()
        self.tabs.addTab(self._journal_tab(zone), "")
        self.tabs.addTab(self._stats_tab(), "")
        self.tabs.addTab(self.alarms, "")
        self.tabs.addTab(self._corrections_tab(correct, set_pin), "")
        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addWidget(self.tabs, 1)
        self.set_lang(lang)

    def _header(self, refresh: Callable[[], None]) -> QHBoxLayout:
        self.verdict_label = QLabel("")
        self.verdict_label.setStyleSheet("font-size: 22pt; font-weight: bold;")
        self.refresh_button = big_button("", refresh)
        self.refresh_button.setMaximumWidth(260)
        header = QHBoxLayout()
        header.addWidget(self.verdict_label, 1)
        header.addWidget(self.refresh_button)
        return header

    def _journal_tab(self, zone: tzinfo | None) -> QWidget:
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
        return journal_tab

    def _stats_tab(self) -> QWidget:
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
        return stats_tab

    def _corrections_tab(
        self,
        correct: Callable[[str, Correction], None],
        set_pin: Callable[[str, str | None], None],
    ) -> QWidget:
        self.corrections_log = QListWidget()
        self.corrections = CorrectionsPanel(correct, set_pin)
        corrections_tab = QWidget()
        corrections_layout = QVBoxLayout(corrections_tab)
        corrections_layout.addWidget(self.corrections)
        corrections_layout.addWidget(self.corrections_log, 1)
        return corrections_tab

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
