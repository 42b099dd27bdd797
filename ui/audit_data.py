"""What the chef de table's audit view shows, gathered from the journal off the GUI thread.

No Qt here: the worker builds an `AuditReport` (journal rows, verification, marque, statistics
against the theory, alarms, correction attempts) and the view only displays it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from croupier.cards import DECKS_IN_SIXAIN, SIXAIN_SIZE
from croupier.decision_records import decision_from_record
from croupier.decisions import Alarm
from croupier.engine import BAIZE_CHECK
from croupier.errors import CroupierError, FixtureError
from croupier.jsonout import dumps
from croupier.odds import table_odds
from croupier.rulebook import Rulebook
from croupier.table import Table
from journal.chef import ChefDesk
from journal.live import JournaledTable
from journal.stats import Theory, report
from journal.store import Journal, Row, Verdict, verify
from ui.i18n import LANGS
from ui.phrases import row_words


@dataclass(frozen=True, slots=True)
class JournalLine:
    """A journal row as stored: `text` is its body (a PIN's hash left out), shown raw on a
    tap; `words`, the row as the chef says it in each language (`ui.i18n.LANGS`), put into
    words here rather than on the screen's thread."""

    seq: int
    at: str
    kind: str
    text: str
    words: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AlarmLine:
    """An alarm the table raised at row `seq`, and the row that resolved it (None: open)."""

    seq: int
    at: str
    alarm: Alarm
    resolved_by: int | None = None


@dataclass(frozen=True, slots=True)
class TestLine:
    scope: str
    test: str
    observed: str
    expected: str
    p_value: float
    flagged: bool


@dataclass(frozen=True, slots=True)
class AuditReport:
    """`lines`: the journal's rows after row `after` (0: every row); the rest is whole."""

    path: str
    after: int
    rows: int
    lines: tuple[JournalLine, ...]
    verdict: Verdict | None
    verdict_error: str
    marques: tuple[tuple[str, str, str], ...]  # (shoe, rouge/noir line, couleur line)
    tests: tuple[TestLine, ...]
    stats_note: str
    alarms: tuple[AlarmLine, ...]  # the open ones first, each group the latest first
    corrections: tuple[JournalLine, ...]  # corrections made and every PIN attempt
    pin_set: bool
    locked_for: float


def theory() -> Theory:
    """The exact theory of a full sixain (`croupier odds`), computed once."""
    odds = table_odds(DECKS_IN_SIXAIN)
    return Theory({point: float(p) for point, p in odds.row.items()}, float(odds.refait),
                  float(odds.apres))


def report_after(path: str, rulebook: Rulebook, secret: bytes | None,
                 after: int) -> AuditReport:
    """`build_report` on a connection of its own: what the chef's report process runs."""
    view = JournaledTable(Journal(path, secret=secret, readonly=True), Table(rulebook))
    try:
        return build_report(view, ChefDesk(view), after=after)
    finally:
        view.close()


def build_report(live: JournaledTable, desk: ChefDesk, *, after: int = 0) -> AuditReport:
    """Everything the audit view shows, read from the table's journal; the journal's rows
    only from row `after` on, since a journal only grows."""
    path = live.journal.path
    lines: list[JournalLine] = []
    alarms = _Alarms()
    corrections: list[JournalLine] = []
    rows = 0
    pin_set = False
    for row in live.journal.rows():
        rows += 1
        if row.seq <= after and row.kind == "decisions" and '"warning"' not in row.body \
                and '"correction"' not in row.body:
            continue  # already shown, and holds no alarm or correction
        body = _body(row)
        if row.seq > after:
            text = dumps(_shown(body))
            lines.append(JournalLine(row.seq, row.at, row.kind, text,
                                     row_words(row.kind, text, LANGS)))
        if row.kind == "input":
            alarms.input(row.seq, body)
        elif row.kind == "auth":
            corrections.append(JournalLine(row.seq, row.at, row.kind, dumps(_shown(body))))
            if body.get("action") == "set_pin" and body.get("result") == "granted":
                pin_set = True
        elif row.kind == "decisions":
            found = body.get("decisions")
            for decision in found if isinstance(found, list) else ():
                if not isinstance(decision, dict):
                    continue
                event = decision.get("event")
                if event == "warning" and decision.get("code") != "coup_retracted":
                    alarms.raised(row.seq, row.at, decision)
                elif event == "correction":
                    alarms.corrected(row.seq)
                    # its own row kind: the view words it as the correction alone
                    corrections.append(JournalLine(row.seq, row.at, "correction",
                                                   dumps(decision)))
    verdict, verdict_error = _verify(path, live)
    marques, tests, note = _statistics(path)
    return AuditReport(
        path=str(path),
        after=after,
        rows=rows,
        lines=tuple(lines),
        verdict=verdict,
        verdict_error=verdict_error,
        marques=marques,
        tests=tests,
        stats_note=note,
        alarms=alarms.shown(),
        corrections=tuple(reversed(corrections)),
        pin_set=pin_set,
        locked_for=desk.locked_for(),
    )


# What resolves an alarm, by its code: the inputs that answer it; a correction or a new shoe
# answers the rest (a card twice too many, a talon miscounted).
_CARD_INPUTS = frozenset({"card", "card_dropped", "correct_card"})
_ANSWERS: dict[str, frozenset[str]] = {
    "card_unread": _CARD_INPUTS,
    "device": frozenset({"card"}),  # the device reads again
    BAIZE_CHECK: frozenset({"baize_checked"}),
}
_BY_THE_CHEF = frozenset({"new_shoe"})


class _Alarms:
    """The alarms in the order raised, each marked resolved by the row that answered it."""

    def __init__(self) -> None:
        self.found: list[AlarmLine] = []

    def raised(self, seq: int, at: str, record: dict[str, Any]) -> None:
        try:
            alarm = decision_from_record(record)
        except FixtureError:
            alarm = Alarm(str(record.get("code")), str(record.get("message")))
        if isinstance(alarm, Alarm):
            self.found.append(AlarmLine(seq, at, alarm))

    def input(self, seq: int, record: dict[str, Any]) -> None:
        kind = record.get("type")
        self.found = [
            replace(line, resolved_by=seq)
            if line.resolved_by is None and kind in _ANSWERS.get(line.alarm.code, _BY_THE_CHEF)
            else line for line in self.found]

    def corrected(self, seq: int) -> None:
        self.found = [replace(line, resolved_by=seq)
                      if line.resolved_by is None and line.alarm.code not in _ANSWERS else line
                      for line in self.found]

    def shown(self) -> tuple[AlarmLine, ...]:
        latest = self.found[::-1]
        return (tuple(line for line in latest if line.resolved_by is None)
                + tuple(line for line in latest if line.resolved_by is not None))


def _body(row: Row) -> dict[str, Any]:
    """A row's body; one that is not a JSON object (a tampered row) is shown as its text,
    and the verification names it."""
    try:
        body = row.data()
    except (CroupierError, ValueError):
        body = None
    return body if isinstance(body, dict) else {"unreadable": row.body}


def _shown(body: dict[str, Any]) -> dict[str, Any]:
    """A row's body as the screen shows it: a PIN's hash is nobody's business there."""
    return {key: "…" if key == "pin_hash" else value for key, value in body.items()}


def _verify(path: Path, live: JournaledTable) -> tuple[Verdict | None, str]:
    try:
        return verify(path, secret=live.journal.secret), ""
    except CroupierError as err:
        return None, str(err)


def _statistics(
    path: Path,
) -> tuple[tuple[tuple[str, str, str], ...], tuple[TestLine, ...], str]:
    try:
        scopes = report([path], theory(), SIXAIN_SIZE)["scopes"]
    except (CroupierError, KeyError, TypeError, ValueError) as err:
        # A changed row can break the reading of the coups; the verification says which.
        return (), (), f"cannot read the coups: {err!r}"
    # A shoe's scope is "<journal> shoe <n>": the view is of one journal.
    marques = tuple(("shoe " + scope["scope"].rsplit(" ", 1)[-1], scope["marque"]["results"],
                     scope["marque"]["couleur"]) for scope in scopes if "marque" in scope)
    lines: list[TestLine] = []
    for scope in scopes:
        names = {t["test"] for t in scope["tests"]}
        lines += [TestLine(scope["scope"], t["test"], t["observed"], t["expected"],
                           float(t["p"]), bool(t["flagged"])) for t in scope["tests"]]
        # Flags that are no test of chance, such as a shoe whose cards do not add up.
        lines += [TestLine(scope["scope"], flag, "", "", math.nan, True)
                  for flag in scope["flagged"] if flag not in names]
    return marques, tuple(lines), ""
