"""`croupier floor verify`: every table's chain walked again from the rows the floor holds."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from floor.connect import connect
from journal.store import GENESIS, row_hash


@dataclass(frozen=True, slots=True)
class TableVerdict:
    table: str
    rows: int
    bad_row: int | None = None
    reason: str = ""
    hashes_checked: bool = True


def verify_floor(dsn: str) -> list[TableVerdict]:
    verdicts: list[TableVerdict] = []
    with connect(dsn) as conn:
        tables = conn.execute("SELECT table_id, head_seq, head_hash, keyed, secret "
                              "FROM floor_table ORDER BY table_id").fetchall()
        for table, head, head_hash, keyed, secret in tables:
            checks = secret is not None or not keyed
            with conn.cursor(name=f"walk_{len(verdicts)}") as cur:
                cur.itersize = 5000
                cur.execute("SELECT seq, at, kind, body, prev, hash FROM journal_row "
                            "WHERE table_id = %s ORDER BY seq", (table,))
                verdicts.append(_walk(table, cur, (head, head_hash), secret, checks=checks))
    return verdicts


def _walk(table: str, records: Iterable[tuple[Any, ...]], head: tuple[int, str],
          secret: bytes | None, *, checks: bool) -> TableVerdict:
    expected, prev, count = 1, GENESIS, 0
    for seq, at, kind, body, row_prev, digest in records:
        count += 1
        if seq != expected:
            return TableVerdict(table, count, seq, f"row {expected} is missing before it")
        if row_prev != prev:
            return TableVerdict(table, count, seq, "does not follow the row before it")
        if checks and row_hash(seq, at, kind, body, row_prev, secret=secret) != digest:
            return TableVerdict(table, count, seq, "its contents were changed")
        expected, prev = seq + 1, digest
    if (expected - 1, prev) != head:
        return TableVerdict(table, count, head[0], "the floor's recorded head does not match its "
                                                f"last row ({expected - 1})")
    return TableVerdict(table, count, hashes_checked=checks)
