"""What the floor reads from rows: nothing a row holds can crash it, and nothing is dropped
without an alarm."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import psycopg
import pytest
from hypothesis import given
from hypothesis import strategies as st

from floor.derive import TableState, derive
from floor.shipper import Shipper
from floor.simtable import deal
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


_DERIVED = {
    "coup": "seq, shoe, number, at, result, couleur, noir_point, rouge_point, noir_cards, "
            "rouge_cards, calls, retracted",
    "card": "seq, idx, shoe, coup, row_name, card, point, face_up, at",
    "settlement": "seq, idx, shoe, coup, at, seat, chance, stake, action, amount, level",
    "alarm": "seq, at, source, code, message",
    "correction": "seq, idx, at, action, who, why, detail",
    "floor_table": "head_seq, head_hash, shoe, coup, dealing, last_call, last_card_at, "
                   "last_row_at",
}


def _derived(dsn: str, table: str) -> dict[str, list[tuple[object, ...]]]:
    with psycopg.connect(dsn) as conn:
        return {name: conn.execute(f"SELECT {columns} FROM {name} WHERE table_id = %s "
                                   f"ORDER BY 1, 2", (table,)).fetchall()
                for name, columns in _DERIVED.items()}


def test_what_the_floor_derives_does_not_depend_on_the_batches(
    floor_dsn: str, tmp_path: Path
) -> None:
    journal = tmp_path / "t.db"
    deal(journal, seed=41, cards=1500, pace=0, durable=False, incidents=0.05)
    for table, batch in (("whole", 5000), ("pieces", 37)):
        shipper = Shipper(journal, table, floor_dsn, batch=batch)
        assert shipper.ship_available().refused is None
        shipper.close()
    whole = _derived(floor_dsn, "whole")
    assert all(whole.values()), {name: len(found) for name, found in whole.items()}
    assert whole == _derived(floor_dsn, "pieces")


@pytest.mark.parametrize(("column", "value"), [("body", '{"type": "cut"}\x00'),
                                                ("body", b'{"type": "cut"}'),
                                                ("at", None)])
def test_a_row_no_journal_writes_is_refused_not_a_crash(
    floor_dsn: str, tmp_path: Path, column: str, value: object
) -> None:
    journal = tmp_path / "t.db"
    deal(journal, seed=42, cards=20, pace=0, durable=False)
    with sqlite3.connect(journal) as db:
        if value is None:  # a NOT NULL column: only a rebuilt table can hold a NULL
            db.executescript("CREATE TABLE r2 (seq INTEGER PRIMARY KEY, at TEXT, kind TEXT, "
                             "body TEXT, prev TEXT, hash TEXT); INSERT INTO r2 SELECT * FROM "
                             "rows; DROP TABLE rows; ALTER TABLE r2 RENAME TO rows;")
        db.execute(f"UPDATE rows SET {column} = ? WHERE seq = 5", (value,))
    shipper = Shipper(journal, "t", floor_dsn)
    shipped = shipper.ship_available()
    shipper.close()
    assert shipped.refused is not None
    assert shipped.refused.seq == 5
    assert shipped.head == 4
    with psycopg.connect(floor_dsn) as conn:
        assert conn.execute("SELECT count(*) FROM refused_row").fetchone() == (1,)
