"""The chef's report process and its messages."""

from __future__ import annotations

import io

import pytest

from croupier.errors import CroupierError
from croupier.rulebook import load_rulebook
from journal.live import JournaledTable
from tests.test_ui_support import BURN, cards
from ui.audit_process import ReportProcess, read_message, write_message

VENEZIA = load_rulebook("venezia")


def test_messages_round_trip_and_end() -> None:
    stream = io.BytesIO()
    write_message(stream, ("a", 1))
    write_message(stream, None)
    stream.seek(0)
    assert read_message(stream) == ("a", 1)
    assert read_message(stream) is None
    assert read_message(stream) is None  # the other end has gone
    half = io.BytesIO(b"\x00\x00")
    assert read_message(half) is None


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
