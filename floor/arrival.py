"""Rows arriving on the floor: checked against the chain the floor holds, then stored.

One transaction per batch, holding the table's line of `floor_table` locked: two shippers
for one table take turns, and a batch is stored whole with everything derived from it, or
not at all. A row already stored counts as accepted when it is the same row; a row that
differs from it (a fork), skips ahead (a gap) or breaks the chain is refused: kept aside in
`refused_row`, raised once as a floor alarm, and nothing stored is overwritten.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from floor.derive import TableState, derive, parse_time
from journal.store import Row, row_hash

CHANNEL = "floor"
COPY_FROM = 100  # rows in a batch from which COPY beats pipelined INSERTs


@dataclass(frozen=True, slots=True)
class Refused:
    seq: int
    reason: str


@dataclass(frozen=True, slots=True)
class Arrival:
    head: int
    refused: Refused | None = None


def position(conn: psycopg.Connection[Any], table: str) -> int:
    """The last row of the table's chain that the floor holds (0 for none)."""
    found = conn.execute("SELECT head_seq FROM floor_table WHERE table_id = %s",
                         (table,)).fetchone()
    conn.commit()
    return int(found[0]) if found else 0


def arrive(conn: psycopg.Connection[Any], table: str, rows: list[Row], *, keyed: bool) -> Arrival:
    with contextlib.ExitStack() as stack:
        if len(rows) < COPY_FROM:
            # A live card's few rows: the whole arrival in two round trips, not eight.
            stack.enter_context(conn.pipeline())
        stack.enter_context(conn.transaction())
        return _arrive(conn, table, sorted(rows, key=attrgetter("seq")), keyed=keyed)


def _arrive(conn: psycopg.Connection[Any], table: str, rows: list[Row], *,
            keyed: bool) -> Arrival:
    line, stored = _locked(conn, table, rows)
    if line is None:
        conn.execute("INSERT INTO floor_table (table_id, keyed) VALUES (%s, %s) "
                     "ON CONFLICT (table_id) DO NOTHING", (table, keyed))
        line, stored = _locked(conn, table, rows)
    assert line is not None  # inserted just above, and never deleted
    head, head_hash, table_keyed, secret, shoe, coup, dealing, last_call, last_card_at = line
    accepted: list[Row] = []
    refused: Refused | None = None
    for row in rows:
        if row.seq <= head:
            if stored.get(row.seq) != row:
                refused = Refused(row.seq, f"differs from row {row.seq} already on the "
                                           "floor (a fork of the chain)")
                break
            continue
        refused = _check(row, head, head_hash, secret, table_keyed)
        if refused:
            break
        accepted.append(row)
        head, head_hash = row.seq, row.hash
    if accepted:
        state = TableState(shoe, coup, dealing, last_call, last_card_at)
        state = _store(conn, table, accepted, state)
        conn.execute(
            "UPDATE floor_table SET head_seq = %s, head_hash = %s, shoe = %s, coup = %s, "
            "dealing = %s, last_call = %s, last_card_at = %s, last_row_at = %s, "
            "arrived_at = clock_timestamp(), shipper_seen = clock_timestamp() "
            "WHERE table_id = %s",
            (head, head_hash, state.shoe, state.coup, Jsonb(state.dealing), state.last_call,
             state.last_card_at, parse_time(accepted[-1].at), table))
    else:
        conn.execute("UPDATE floor_table SET shipper_seen = clock_timestamp() "
                     "WHERE table_id = %s", (table,))
    if refused:
        _refuse(conn, table, next(r for r in rows if r.seq == refused.seq), refused)
    if accepted or refused:
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, table))
    return Arrival(head, refused)


def _locked(conn: psycopg.Connection[Any], table: str,
            rows: list[Row]) -> tuple[tuple[Any, ...] | None, dict[int, Row]]:
    """The table's line, locked, and the rows already stored under the batch's numbers:
    asked together, so that a pipeline sends both at once (the rows are read after the
    lock is held, so a shipper that stored them just before is seen)."""
    line = conn.execute(
        "SELECT head_seq, head_hash, keyed, secret, shoe, coup, dealing, last_call, "
        "last_card_at FROM floor_table WHERE table_id = %s FOR UPDATE", (table,))
    found = conn.execute(
        "SELECT seq, at, kind, body, prev, hash FROM journal_row WHERE table_id = %s "
        "AND seq BETWEEN %s AND %s", (table, rows[0].seq if rows else 0,
                                      rows[-1].seq if rows else -1))
    return line.fetchone(), {int(r[0]): Row(*r) for r in found}


def _check(
    row: Row, head: int, head_hash: str, secret: bytes | None, keyed: bool
) -> Refused | None:
    if "\x00" in row.body or "\x00" in row.at or "\x00" in row.kind:
        return Refused(row.seq, "it holds a NUL character, which no journal row may")
    if row.seq != head + 1:
        return Refused(row.seq, f"rows {head + 1} to {row.seq - 1} are missing before it "
                                "(a gap)")
    if row.prev != head_hash:
        return Refused(row.seq, f"does not follow row {head} on the floor (the chain is broken)")
    # A keyed journal's hashes are HMACs: only checkable with the table's secret.
    if (secret is not None or not keyed) and row_hash(
            row.seq, row.at, row.kind, row.body, row.prev, secret=secret) != row.hash:
        return Refused(row.seq, "its hash does not match its contents"
                       + (" under the table's key" if secret else ""))
    return None


# Each table's columns as COPY sends them, in binary: PostgreSQL then parses no text.
_COLUMNS = {
    "journal_row": (("table_id", "text"), ("seq", "int8"), ("at", "text"), ("kind", "text"),
                    ("body", "text"), ("prev", "text"), ("hash", "text")),
    "coup": (("table_id", "text"), ("seq", "int8"), ("shoe", "int4"), ("number", "int4"),
             ("at", "timestamptz"), ("result", "text"), ("couleur", "text"),
             ("noir_point", "int4"), ("rouge_point", "int4"), ("noir_cards", "text[]"),
             ("rouge_cards", "text[]"), ("calls", "text[]")),
    "card": (("table_id", "text"), ("seq", "int8"), ("idx", "int4"), ("shoe", "int4"),
             ("coup", "int4"), ("row_name", "text"), ("card", "text"), ("point", "int4"),
             ("face_up", "bool"), ("at", "timestamptz")),
    "settlement": (("table_id", "text"), ("seq", "int8"), ("idx", "int4"), ("shoe", "int4"),
                   ("coup", "int4"), ("at", "timestamptz"), ("seat", "int4"),
                   ("chance", "text"), ("stake", "numeric"), ("action", "text"),
                   ("amount", "numeric"), ("level", "int4")),
    "alarm": (("table_id", "text"), ("seq", "int8"), ("at", "timestamptz"), ("source", "text"),
              ("code", "text"), ("message", "text")),
    "correction": (("table_id", "text"), ("seq", "int8"), ("idx", "int4"),
                   ("at", "timestamptz"), ("action", "text"), ("who", "text"),
                   ("why", "text"), ("detail", "text")),
}


def _store(conn: psycopg.Connection[Any], table: str, rows: list[Row],
           state: TableState) -> TableState:
    """The rows and what they tell: by binary COPY for a catch-up (a day is a million rows),
    by pipelined INSERTs for a live card's few rows."""
    derived, state = derive(table, rows, state)
    journal = [(table, r.seq, r.at, r.kind, r.body, r.prev, r.hash) for r in rows]
    with conn.cursor() as cur:
        for target, records in (("journal_row", journal), ("coup", derived.coups),
                                ("card", derived.cards), ("settlement", derived.settlements),
                                ("alarm", derived.alarms), ("correction", derived.corrections)):
            if len(rows) >= COPY_FROM:
                _copy(cur, target, records)
            elif records:
                names = [name for name, _type in _COLUMNS[target]]
                cur.executemany(f"INSERT INTO {target} ({', '.join(names)}) "
                                f"VALUES ({', '.join(['%s'] * len(names))})", records)
        if derived.retracted:
            shoes, numbers = zip(*derived.retracted, strict=True)
            cur.execute("UPDATE coup SET retracted = true WHERE table_id = %s AND NOT retracted "
                        "AND (shoe, number) IN (SELECT * FROM unnest(%s::int[], %s::int[]))",
                        (table, list(shoes), list(numbers)))
    return state


def _copy(cur: psycopg.Cursor[Any], target: str, records: list[tuple[Any, ...]]) -> None:
    if not records:
        return
    names, types = zip(*_COLUMNS[target], strict=True)
    with cur.copy(f"COPY {target} ({', '.join(names)}) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(list(types))
        for record in records:
            copy.write_row(record)


def _refuse(conn: psycopg.Connection[Any], table: str, row: Row, refused: Refused) -> None:
    kept = conn.execute(
        "INSERT INTO refused_row (table_id, seq, at, kind, body, prev, hash, reason) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING id",
        # PostgreSQL's text cannot hold NUL: such a row is kept with its NULs spelt out.
        (table, row.seq, *(f.replace("\x00", "\\u0000")
                           for f in (row.at, row.kind, row.body, row.prev, row.hash)),
         refused.reason),
    ).fetchone()
    if kept:  # raised once, however often a shipper offers the same row again
        conn.execute(
            "INSERT INTO alarm (table_id, seq, at, source, code, message) "
            "VALUES (%s, %s, clock_timestamp(), 'floor', 'row_refused', %s)",
            (table, row.seq, f"row {row.seq} refused: {refused.reason}"))
