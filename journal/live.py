"""A table that journals first: each input is on disk before it is applied and shown.

After a crash, `JournaledTable.open` folds the journal's inputs back into a fresh table, so
it stands exactly where it stood — same shoe, coup, stakes and prisoners — and writes the
decisions of an input that was recorded but not yet answered.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import platformdirs

from croupier.decisions import Decision
from croupier.errors import FixtureError, RulebookError
from croupier.records import decision_record, event_from_record, event_record
from croupier.rulebook import Rulebook, rulebook_data, rulebook_from_data
from croupier.table import Event, Table
from journal.store import Journal, JournalError


def recorded_rulebook(journal: Journal) -> Rulebook:
    """The rules the journal's table was opened with: its first row."""
    first = next(journal.rows(), None)
    if first is None or first.kind != "opened":
        raise JournalError(f"{journal.path}: not a table's journal (no opening row)")
    try:
        return rulebook_from_data(first.data()["rulebook"], f"{journal.path} row 1")
    except (KeyError, TypeError, RulebookError) as err:
        raise JournalError(f"{journal.path}: the recorded rulebook is unreadable: {err}") from err


def default_journal_path() -> Path:
    """Where a live table journals unless told otherwise: the user's data folder."""
    return platformdirs.user_data_path("croupier") / "table.db"


class JournaledTable:
    """A `Table` whose every input and every decision is appended to a journal."""

    def __init__(self, journal: Journal, table: Table) -> None:
        self.journal = journal
        self.table = table

    @classmethod
    def open(
        cls, path: str | Path, rulebook: Rulebook, *, secret: bytes | None = None,
        durable: bool = True,
    ) -> JournaledTable:
        """A new journal for `rulebook`, or an existing one restored where it stood — once
        its chain, head and anchor hold: a table never deals on a journal it cannot trust."""
        journal = Journal(path, secret=secret, durable=durable)
        try:
            if journal.head[0] == 0:
                # The rules are the journal's first row, inside the chain like everything else.
                journal.append("opened", {"rulebook": rulebook_data(rulebook)})
                return cls(journal, Table(rulebook))
            verdict = journal.check()
            if not verdict.intact:
                raise JournalError(
                    f"{journal.path}: row {verdict.bad_row}: {verdict.reason}; the table will "
                    "not deal on a broken journal (the chef de table: croupier audit verify)")
            return cls.restore(journal)
        except BaseException:
            journal.close()
            raise

    @classmethod
    def restore(cls, journal: Journal) -> JournaledTable:
        """The table as its journal left it."""
        restored = cls(journal, Table(recorded_rulebook(journal)))
        restored._restore()
        return restored

    def note_rejected(self, line: int, reason: str) -> None:
        """An input refused before it reached the table (a bad line of a script)."""
        self.journal.append("rejected", {"line": line, "reason": reason})

    def apply(self, event: Event) -> list[Decision]:
        """Journal the event, apply it, journal its decisions, then hand them back to show."""
        cause = self.journal.append("input", event_record(event))
        decisions = self.table.apply(event)
        self.journal.append("decisions", _decisions_body(cause, decisions))
        return decisions

    def close(self) -> None:
        self.journal.close()

    def _restore(self) -> None:
        answered: set[int] = set()
        last_input: tuple[int, list[Decision]] | None = None
        for row in self.journal.rows():
            body = row.data()
            if row.kind == "input":
                try:
                    event = event_from_record(body)
                except FixtureError as err:
                    raise JournalError(f"{self.journal.path}: row {row.seq}: {err}") from err
                last_input = (row.seq, self.table.apply(event))
            elif row.kind == "decisions":
                try:
                    answered.add(int(body["cause"]))
                except (KeyError, TypeError, ValueError) as err:
                    raise JournalError(f"{self.journal.path}: row {row.seq}: no cause: {err}"
                                       ) from None
        if last_input is not None and last_input[0] not in answered:
            # The table stopped between recording an input and recording its answer.
            self.journal.append("decisions", _decisions_body(*last_input))


def _decisions_body(cause: int, decisions: list[Decision]) -> dict[str, Any]:
    return {"cause": cause, "decisions": [decision_record(d) for d in decisions]}
