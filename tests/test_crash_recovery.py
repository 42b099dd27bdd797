"""A live `croupier table` killed (SIGKILL) at random points restarts from its journal
exactly where it stood, and the shoe then ends as if nothing had happened."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

from croupier.events import CardDrawn, CutCard
from croupier.fixtures import render_shoe
from croupier.shuffle import regulation_shoe
from journal.live import JournaledTable
from journal.store import Journal, verify

TRIALS = 8


def _table(fixture: Path, journal: Path) -> list[str]:
    return [sys.executable, "-m", "croupier", "table", "--shoe", str(fixture), "--backend",
            "replay", "--journal", str(journal)]


def _rows(path: Path) -> list[tuple[str, str]]:
    with Journal(path) as journal:
        return [(row.kind, row.body) for row in journal.rows()]


def _shoe_inputs(path: Path) -> int:
    with Journal(path) as journal:
        return sum(1 for row in journal.rows("input") if row.data()["type"] in ("card", "cut"))


def test_a_killed_table_restarts_where_it_stood(tmp_path: Path) -> None:
    events = [e for e in regulation_shoe(random.Random(11), face_up_rate=0.01)
              if isinstance(e, CardDrawn | CutCard)]
    fixture = tmp_path / "shoe.shoe"
    fixture.write_text(render_shoe(events))
    reference = tmp_path / "reference.db"
    empty = tmp_path / "empty.shoe"
    empty.write_text("")
    start = time.monotonic()
    subprocess.run(_table(empty, tmp_path / "empty.db"), capture_output=True, timeout=60,
                   check=True)
    starting = time.monotonic() - start  # the process's own start, before any card
    start = time.monotonic()
    subprocess.run(_table(fixture, reference), capture_output=True, timeout=60, check=True)
    whole_run = time.monotonic() - start
    expected_rows = _rows(reference)
    expected = JournaledTable.restore(Journal(reference))
    expected_state, expected_stakes = expected.table.shoe.state(), expected.table.ledger.stakes
    expected.close()

    rng = random.Random(7)
    kill_points = []
    for trial in range(TRIALS):
        journal = tmp_path / f"crash{trial}.db"
        process = subprocess.Popen(_table(fixture, journal), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(starting * 0.8, whole_run))
        process.kill()  # a power cut: no handler runs
        process.wait(timeout=30)
        recorded = _shoe_inputs(journal) if journal.exists() else 0
        kill_points.append(recorded)
        rest = tmp_path / f"rest{trial}.shoe"
        rest.write_text(render_shoe(events[recorded:]))
        subprocess.run(_table(rest, journal), capture_output=True, timeout=60, check=True)

        assert verify(journal).intact
        assert _rows(journal) == expected_rows, f"trial {trial}, killed after {recorded} cards"
        restored = JournaledTable.restore(Journal(journal))
        assert restored.table.shoe.state() == expected_state
        assert restored.table.ledger.stakes == expected_stakes
        restored.close()
    # The kills fell at different points of the shoe, some of them mid-deal.
    assert len(set(kill_points)) >= 3, kill_points
    assert any(0 < k < len(events) for k in kill_points), kill_points
