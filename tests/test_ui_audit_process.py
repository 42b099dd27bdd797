"""The chef's report process and its messages."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from croupier.errors import CroupierError
from croupier.rulebook import load_rulebook
from journal.live import JournaledTable
from tests.test_ui_support import BURN, cards
from ui.audit_process import ReportProcess

VENEZIA = load_rulebook("venezia")


def test_the_process_reports_only_rows_not_yet_sent(tmp_path) -> None:
    live = JournaledTable.open(tmp_path / "t.db", VENEZIA, durable=False)
    for event in cards(*BURN):
        live.apply(event)
    process = ReportProcess()
    try:
        first = process.report(str(tmp_path / "t.db"), VENEZIA, None, 0)
        rows = live.journal.head[0]
        assert first.rows == rows
        assert [line.seq for line in first.lines] == list(range(1, rows + 1))
        live.apply(cards("9H")[0])
        second = process.report(str(tmp_path / "t.db"), VENEZIA, None, rows)
        assert [line.seq for line in second.lines] == [rows + 1, rows + 2]
        assert second.verdict is not None
        assert second.verdict.intact
        JournaledTable.open(tmp_path / "k.db", VENEZIA, secret=b"s", durable=False).close()
        with pytest.raises(CroupierError, match="keyed"):  # an error comes back as one
            process.report(str(tmp_path / "k.db"), VENEZIA, None, 0)
    finally:
        process.close()
        live.close()


def test_a_report_process_that_dies_is_said_and_started_again(tmp_path) -> None:  # type: ignore[no-untyped-def]
    JournaledTable.open(tmp_path / "t.db", VENEZIA, durable=False).close()
    process = ReportProcess()
    try:
        process.report(str(tmp_path / "t.db"), VENEZIA, None, 0)
        children = [int(pid) for task in Path(f"/proc/{os.getpid()}/task").iterdir()
                    for pid in (task / "children").read_text().split()]
        workers = [pid for pid in children
                   if b"resource_tracker" not in Path(f"/proc/{pid}/cmdline").read_bytes()]
        assert workers
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        with pytest.raises(CroupierError, match="the report process is gone"):
            process.report(str(tmp_path / "t.db"), VENEZIA, None, 0)
        assert process.report(str(tmp_path / "t.db"), VENEZIA, None, 0).rows == 1
    finally:
        process.close()
