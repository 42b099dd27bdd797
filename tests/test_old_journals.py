"""Journals written before rulebook format 2 still load, verify and replay as they played.

`tests/data/pre_format2.db` was written by `croupier replay pre_format2.session.jsonl --json
--journal` at the commit before rulebook format 2 (venezia, then france after a new shoe):
its first row and its second `table` input record format-1 rulebooks, with no `format` and
none of the rules format 2 added.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from croupier.decision_records import decision_record
from croupier.jsonout import dumps
from croupier.records import event_from_record
from croupier.rulebook import FORMAT, InsurancePer, PrisonerFate, rulebook_data
from croupier.table import Table
from journal.live import JournaledTable, recorded_rulebook
from journal.store import Journal, verify

OLD = Path(__file__).with_name("data") / "pre_format2.db"


def _copy(tmp_path: Path) -> Path:
    path = tmp_path / "old.db"
    shutil.copy(OLD, path)
    return path


def _spoken(decisions: list[Any]) -> str:
    """The decisions as the table made them; the English beside the French calls is the
    screen's wording, not the table's (issue 13 made the refait "one, refait")."""
    return dumps([{k: v for k, v in d.items() if k != "calls_en"} for d in decisions])


def test_the_old_journal_is_format_1_and_intact(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    first = next(Journal(path).rows()).data()["rulebook"]
    assert "format" not in first
    assert "chip" not in first
    assert verify(path).intact
    done = subprocess.run([sys.executable, "-m", "croupier", "audit", "verify", str(path)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr


def test_its_rulebook_loads_with_the_defaults_of_format_1(tmp_path: Path) -> None:
    book = recorded_rulebook(Journal(_copy(tmp_path)))
    assert (book.name, book.format) == ("venezia", 1)
    # What the code did before these rules existed.
    assert book.insurance_per is InsurancePer.STAKE
    assert book.chip == 0
    assert book.prisoners_at_reshuffle is PrisonerFate.WITHDRAW
    assert "format 1" in book.sources["chip"]
    # Recorded again, it keeps its format, so it reads back the same.
    assert rulebook_data(book)["format"] == 1 < FORMAT


def test_every_input_replays_to_the_decisions_it_recorded(tmp_path: Path) -> None:
    journal = Journal(_copy(tmp_path))
    table = Table(recorded_rulebook(journal))
    recorded, inputs = {}, []
    for row in journal.rows():
        if row.kind == "input":
            inputs.append((row.seq, row.data()))
        elif row.kind == "decisions":
            recorded[row.data()["cause"]] = row.data()["decisions"]
    assert len(inputs) > 50
    for seq, record in inputs:
        again = [decision_record(d) for d in table.apply(event_from_record(record))]
        assert _spoken(again) == _spoken(recorded[seq]), f"row {seq}: {record}"
    assert table.ended
    assert table.shoe.rulebook.name == "france"  # the second table line's format-1 rules


def test_it_restores_as_a_live_table_under_its_own_rules(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    live = JournaledTable.restore(Journal(path))
    assert live.table.ended
    assert live.table.shoe.rulebook.format == 1
    live.close()
    assert verify(path).intact
