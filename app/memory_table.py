"""A table kept in memory only, where a journaled one (`journal.live.JournaledTable`) would
record everything: `croupier table --no-journal`, `croupier replay` without `--journal`, tests
and demonstrations. It imports nothing beyond the core, so that a replay starts at once."""

from __future__ import annotations

from collections.abc import Sequence

from croupier.decisions import Decision
from croupier.rulebook import Rulebook
from croupier.table import Event, Table


class MemoryTable:
    """A table that keeps nothing: a journaled table's calls, without the journal."""

    link: int | None = None  # where the shoe's link stood: no journal remembers it

    def __init__(self, rulebook: Rulebook) -> None:
        self.table = Table(rulebook)

    def apply(self, event: Event) -> list[Decision]:
        return self.table.apply(event)

    def answer_batch(self, events: Sequence[Event], link: int | None) -> list[list[Decision]]:
        return [self.table.apply(event) for event in events]

    def note_rejected(self, line: int, reason: str) -> None:
        """Nothing to note: the table lives in memory only."""

    def close(self) -> None:
        """Nothing to close: the table lives in memory only."""
