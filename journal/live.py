"""A table that journals first: each input is on disk before it is applied and shown.

After a crash, `JournaledTable.open` folds the journal's inputs back into a fresh table, so
it stands exactly where it stood — same shoe, coup, stakes and prisoners — and writes the
decisions of an input that was recorded but not yet answered.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import platformdirs

from croupier.decision_records import decision_record
from croupier.decisions import Decision
from croupier.errors import FixtureError, RulebookError
from croupier.events import DeviceAlarm
from croupier.records import event_from_record, event_record
from croupier.rulebook import Rulebook, rulebook_data, rulebook_from_data
from croupier.table import Event, Table
from journal.store import Journal, JournalError, utc_now

RECENT = 500  # inputs: more than a coup's cards, stakes and prison choices together


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
        self.link: int | None = None  # where the shoe's link stood at the last batch
        self.resumed = False  # restored from a journal an earlier run wrote
        # The last inputs restored and their decisions: a screen restarted mid-payout
        # draws the plan again from them.
        self.recent: deque[tuple[Event, list[Decision]]] = deque(maxlen=RECENT)
        self._last_at: str | None = None

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
            if not verdict.dealable:
                raise JournalError(
                    f"{journal.path}: row {verdict.bad_row}: {verdict.reason}; the table will "
                    "not deal on a broken journal (the chef de table: croupier audit verify, "
                    "then croupier audit accept to deal on)")
            return cls.restore(journal)
        except BaseException:
            journal.close()
            raise

    @classmethod
    def restore(cls, journal: Journal) -> JournaledTable:
        """The table as its journal left it."""
        restored = cls(journal, Table(recorded_rulebook(journal)))
        restored._restore()
        restored.resumed = True
        return restored

    def note_rejected(self, line: int, reason: str) -> None:
        """An input refused before it reached the table (a bad line of a script)."""
        self.journal.append("rejected", {"line": line, "reason": reason})

    def apply(self, event: Event) -> list[Decision]:
        """Journal the event, apply it, journal its decisions, then hand them back to show."""
        return self.apply_batch((event,), None)

    def apply_batch(self, events: Sequence[Event], link: int | None) -> list[Decision]:
        """`answer_batch`, the decisions of all the events in one list."""
        return [d for answer in self.answer_batch(events, link) for d in answer]

    def answer_batch(self, events: Sequence[Event], link: int | None) -> list[list[Decision]]:
        """Journal the events in one transaction — with `link`, where the shoe's link
        stands after them, on the last — then apply and answer each in turn: the decisions
        of each event. A table killed at any point has journaled the whole batch and its
        position, or none of it."""
        records = [event_record(event) for event in events]
        if link is not None and records:
            records[-1] = {**records[-1], "link": link}
        causes = self.journal.append_many([("input", record) for record in records])
        if link is not None:
            self.link = link
        answers = []
        for cause, event in zip(causes, events, strict=True):
            answer = self.table.apply(event)
            self.journal.append("decisions", _decisions_body(cause, answer))
            answers.append(answer)
        return answers

    def last_row_at(self) -> str | None:
        """When the journal's last row was written (UTC, ISO 8601)."""
        return self._last_at

    def close(self) -> None:
        self.journal.close()

    def _restore(self) -> None:
        # Inputs not yet answered: only ever the last few (a batch the table was killed in).
        unanswered: list[tuple[int, list[Decision]]] = []
        for row in self.journal.rows():
            self._last_at = row.at
            body = row.data()
            if row.kind == "input":
                try:
                    event = event_from_record(body)
                except FixtureError as err:
                    raise JournalError(f"{self.journal.path}: row {row.seq}: {err}") from err
                decisions = self.table.apply(event)
                unanswered.append((row.seq, decisions))
                self.recent.append((event, decisions))
                if isinstance(body.get("link"), int):
                    self.link = body["link"]
            elif row.kind == "decisions":
                try:
                    cause = int(body["cause"])
                except (KeyError, TypeError, ValueError) as err:
                    raise JournalError(f"{self.journal.path}: row {row.seq}: no cause: {err}"
                                       ) from None
                unanswered = [entry for entry in unanswered if entry[0] > cause]
        for cause, decisions in unanswered:
            # The table stopped between recording inputs and recording their answers.
            self.journal.append("decisions", _decisions_body(cause, decisions))


def gap_alarm(live: JournaledTable, *, resends: bool) -> DeviceAlarm | None:
    """The alarm for a table restarted on a shoe link that cannot give back what it dealt
    while the table was down (a shoe that resends is asked from the last journaled frame)."""
    if not live.resumed or (resends and live.link is not None):
        return None
    return DeviceAlarm("table", f"the table was down from {live.last_row_at()} to "
                       f"{utc_now()} (UTC): cards dealt meanwhile may be missing; check the "
                       "rows against the baize", check=True)


def _decisions_body(cause: int, decisions: list[Decision]) -> dict[str, Any]:
    return {"cause": cause, "decisions": [decision_record(d) for d in decisions]}
