"""What the floor reads from rows: nothing a row holds can crash it, and nothing is dropped
without an alarm."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from floor.derive import TableState, derive
from journal.store import GENESIS, Row

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["event", "decisions", "type", "number", "row", "card", "point",
                         "lines", "code", "message", "result", "calls", "noir", "rouge"]),
        inner, max_size=5),
    max_leaves=12)


def _row(seq: int, kind: str, body: str, at: str = "2026-01-01T10:00:00.000+00:00") -> Row:
    return Row(seq, at, kind, body, GENESIS, "0" * 64)


@given(kind=st.sampled_from(["decisions", "input", "auth", "opened", "other"]),
       body=_json | st.text(max_size=30),
       at=st.sampled_from(["2026-01-01T10:00:00.000+00:00", "yesterday", ""]))
def test_any_row_is_derived_or_alarmed(kind: str, body: object, at: str) -> None:
    text = json.dumps(body) if not isinstance(body, str) else body
    derived, state = derive("t", [_row(1, kind, text, at)], TableState())
    assert isinstance(state, TableState)
    for alarm in derived.alarms:
        assert alarm[0] == "t"
        assert alarm[2] is not None  # an alarm always has a time, even for a row without one


def test_an_unreadable_decision_is_a_floor_alarm_naming_the_row() -> None:
    derived, state = derive("t", [_row(7, "decisions", '{"decisions": [{"event": "coup"}]}')],
                            TableState(shoe=2))
    assert state == TableState(shoe=2)
    assert [(a[1], a[3], a[4]) for a in derived.alarms] == [(7, "floor", "unreadable_row")]
    assert "row 7 (decisions) is stored but not understood" in derived.alarms[0][5]


def test_a_shoe_end_starts_the_next_shoe_and_a_card_the_coup_being_dealt() -> None:
    rows = [
        _row(1, "decisions", json.dumps({"cause": 0, "decisions": [
            {"event": "card", "number": 4, "row": "noir", "card": "QH", "point": 10,
             "face_up": False}]})),
        _row(2, "decisions", json.dumps({"cause": 1, "decisions": [
            {"event": "shoe_end", "reason": "cut_card"}]})),
    ]
    derived, state = derive("t", rows[:1], TableState())
    assert state.dealing == {"number": 4, "noir": ["QH"], "rouge": [], "noir_point": 10,
                             "rouge_point": 0}
    assert [c[5:8] for c in derived.cards] == [("noir", "QH", 10)]
    _, state = derive("t", rows[1:], state)
    assert (state.shoe, state.coup, state.dealing) == (2, 0, {})
