"""The shipper: follows a table's journal and sends its new rows to the floor.

Store and forward: the table writes its journal whatever the network does, and the shipper
catches up when it can. Its position is the floor's (the last row the floor holds), so a
restarted shipper, or a second one, resumes where the floor stands. Each batch starts with
the row the floor already holds last: a journal rewritten at the table shows as a fork.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import psycopg

from floor.arrival import Refused, arrive, position
from floor.connect import connect, one_line, where
from floor.errors import FloorError
from floor.reader import JournalReader

BATCH = 5000
POLL = 0.05
HEARTBEAT = 1.0
BACKOFF_FIRST = 0.25
BACKOFF_MOST = 1.0


@dataclass(frozen=True, slots=True)
class Shipped:
    head: int
    refused: Refused | None = None


class Shipper:
    """Ships one journal to one table's place on the floor."""

    def __init__(self, journal: str | Path, table: str, dsn: str, *, batch: int = BATCH) -> None:
        self.reader = JournalReader(journal)
        self.table, self.dsn, self.batch = table, dsn, batch
        self.keyed = self.reader.keyed()
        self._conn: psycopg.Connection[Any] | None = None
        self._head: int | None = None
        self._following = False

    def ship_available(self) -> Shipped:
        """Send every row the journal holds now; stops at the first row the floor refuses."""
        conn = self._connection()
        # Our own last answer will do: rows another shipper stored meanwhile come back as
        # already there, and the floor's answer carries its true head.
        head = position(conn, self.table) if self._head is None else self._head
        while True:
            rows = self.reader.rows_from(max(head, 1), self.batch)
            if not rows and head:
                # The journal ends before the floor's head: its last row must be the floor's.
                rows = self.reader.last_rows(1)
            if not rows or (len(rows) == 1 and rows[0].seq == head):
                arrival = arrive(conn, self.table, rows, keyed=self.keyed)
                return Shipped(arrival.head, arrival.refused)
            arrival = arrive(conn, self.table, rows, keyed=self.keyed)
            head = self._head = arrival.head
            if arrival.refused or len(rows) < self.batch:  # all there was, in one transaction
                return Shipped(arrival.head, arrival.refused)

    def follow(self, stop: threading.Event, log: Callable[[str], None]) -> None:
        """Ship as the journal grows until `stop`; reconnect with back-off when cut off."""
        self._following = True
        self._drop()
        delay = BACKOFF_FIRST
        refused_seen: Refused | None = None
        last_contact = 0.0
        while not stop.is_set():
            try:
                shipped = self._ship_new(force=time.monotonic() - last_contact > HEARTBEAT)
            except (psycopg.Error, FloorError) as err:
                self._drop()
                log(f"{where(self.dsn)} unreachable ({one_line(err)}); retrying in {delay:g} s")
                stop.wait(delay)
                delay = min(delay * 2, BACKOFF_MOST)
                continue
            if shipped is not None:
                last_contact = time.monotonic()
                if shipped.refused and shipped.refused != refused_seen:
                    log(f"row {shipped.refused.seq} refused by the floor: "
                        f"{shipped.refused.reason}")
                refused_seen = shipped.refused
            if delay != BACKOFF_FIRST:
                log(f"{where(self.dsn)} reached again; shipping")
                delay = BACKOFF_FIRST
            stop.wait(POLL if refused_seen is None else HEARTBEAT)
        if refused_seen is None:
            # Told to stop: the table's last rows go first, if the floor can be reached.
            with contextlib.suppress(psycopg.Error, FloorError):
                self.ship_available()
        self.close()

    def _ship_new(self, *, force: bool) -> Shipped | None:
        """Ships when the journal holds rows past the floor's head, or to say it is alive."""
        if self._head is not None and not force and not self.reader.touched():
            return None
        try:
            shipped = self.ship_available()
        except (psycopg.Error, FloorError):
            self.reader.forget()  # what changed is still to be shipped
            self._head = None  # and the floor may have moved on: ask it again
            raise
        self._head = shipped.head
        return shipped

    def _connection(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed or self._conn.broken:
            self._drop()
            self._conn = connect(self.dsn)
            if self._following:
                # The floor is a copy and its head is the shipper's position: rows a crash of
                # the floor loses from its last instant are shipped again from the table's
                # journal, so a follower's batch need not wait for the floor's disk. `--once`
                # does wait: its exit status says the floor holds the rows.
                self._conn.execute("SET synchronous_commit = off")
                self._conn.commit()
        return self._conn

    def _drop(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
            self._conn = None

    def close(self) -> None:
        self._drop()
        self.reader.close()


def ship_once(journal: str, table: str, dsn: str, out: TextIO = sys.stdout) -> int:
    """`croupier ship --once`: 0 when the floor holds every row, 1 naming the refused row."""
    shipper = Shipper(journal, table, dsn)
    try:
        shipped = shipper.ship_available()
    except psycopg.Error as err:
        raise FloorError(f"{where(dsn)}: {one_line(err)}") from err
    finally:
        shipper.close()
    if shipped.refused:
        print(f"{journal}: row {shipped.refused.seq} refused by the floor: "
              f"{shipped.refused.reason}", file=out)
        return 1
    print(f"{journal}: the floor holds rows 1 to {shipped.head} of table {table}", file=out)
    return 0

