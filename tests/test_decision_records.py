"""Every decision a table makes survives its journal record both ways, and journals written
before a retracted coup had a record kind of its own still read."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from croupier.decision_records import decision_from_record, decision_record
from croupier.decisions import CoupRetracted
from croupier.errors import FixtureError
from croupier.jsonout import dumps
from croupier.records import event_record
from croupier.rulebook import load_rulebook
from croupier.table import Event, Table
from journal.store import Row
from tests.test_ledger_properties import sessions


@settings(max_examples=60, deadline=None)
@given(sessions())
def test_every_decision_reads_back_from_its_journal_record(
    session: tuple[str, list[Event]],
) -> None:
    rules, events = session
    table = Table(load_rulebook(rules))
    for event in events:
        event_record(event)
        for decision in table.apply(event):
            # Through the JSON text, as the journal keeps it (amounts as exact decimals).
            text = dumps(decision_record(decision))
            again = decision_from_record(Row(1, "", "decisions", text, "", "").data())
            assert again == decision


def test_a_retracted_coup_of_an_older_journal_reads() -> None:
    old = {"event": "warning", "code": "coup_retracted", "number": 7, "message": "…"}
    assert decision_from_record(old) == CoupRetracted(7)
    assert decision_record(CoupRetracted(7)) == {"event": "coup_retracted", "number": 7}


@pytest.mark.parametrize("record", [{}, {"event": "coup"}, {"event": "nonsense"},
                                    {"event": "card", "card": "4\u017f"}, []])
def test_a_bad_record_is_named(record: object) -> None:
    with pytest.raises(FixtureError, match="not a decision record"):
        decision_from_record(record)  # type: ignore[arg-type]
