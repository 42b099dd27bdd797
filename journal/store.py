"""The journal: an append-only SQLite file whose rows are chained by hashes.

Each row's hash covers its number, time, kind, body and the previous row's hash, so a row
changed, removed, inserted or moved breaks the chain where it happened. With a per-table
secret the hashes are HMACs, which nobody without the secret can recompute. The head (last
row number and hash) is kept beside the rows, so cutting rows off the end shows too.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from croupier.jsonout import dumps
from journal.anchor import AnchorFile, anchor_breach
from journal.chain import GENESIS, Accepted, Verdict, head_record, row_hash, walk
from journal.files import JournalError, WriterLock, connect_readonly, private_folder

__all__ = [
    "FORMAT",
    "GENESIS",
    "Accepted",
    "Journal",
    "JournalError",
    "Row",
    "Verdict",
    "head_record",
    "row_hash",
    "utc_now",
    "verify",
]

FORMAT = "croupier-journal/1"

_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE rows (
        seq INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        body TEXT NOT NULL,
        prev TEXT NOT NULL,
        hash TEXT NOT NULL
    )""",
)


@dataclass(frozen=True, slots=True)
class Row:
    seq: int
    at: str
    kind: str
    body: str
    prev: str
    hash: str

    def data(self) -> Any:
        try:
            return json.loads(self.body, parse_float=Decimal)
        except (ValueError, TypeError, ArithmeticError, RecursionError) as err:
            raise JournalError(f"row {self.seq}: its body is not JSON: {err!s:.120}") from None


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Journal:
    """One table's journal file. Every append is its own durable transaction.

    A writer (the default) holds the file's lock for as long as it is open, and anchors
    every append outside the file; `readonly=True` opens it for reading only, from any
    number of processes, on read-only media too.
    """

    def __init__(
        self, path: str | Path, *, secret: bytes | None = None, durable: bool = True,
        create: bool = True, readonly: bool = False,
    ) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._lock: WriterLock | None = None
        if (readonly or not create) and not self.path.is_file():
            raise JournalError(f"no journal at {str(path)!r}")
        try:
            self._open(create=create, durable=durable, secret=secret)
        except (sqlite3.Error, OSError) as err:
            self.close()
            raise JournalError(f"cannot open journal {str(self.path)!r}: {err}") from err
        except BaseException:
            # a journal refused at any step lets go of its file and its lock: a table
            # retrying its open would otherwise lock itself out
            self.close()
            raise

    def _open(self, *, create: bool, durable: bool, secret: bytes | None) -> None:
        self._db = self._connect(create=create, durable=durable, keyed=bool(secret))
        meta = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
        last = self._db.execute("SELECT seq, hash FROM rows ORDER BY seq DESC LIMIT 1").fetchone()
        self._check_keys(meta, secret)
        self.secret = secret
        self.head: tuple[int, str] = (last[0], last[1]) if last else (0, GENESIS)
        if not self.readonly and "id" not in meta:  # a journal from before anchors
            meta["id"] = uuid.uuid4().hex
            self.set_meta({"id": meta["id"]})
        self.meta = meta
        self._anchor = AnchorFile(meta["id"], secret) if "id" in meta else None

    def _connect(self, *, create: bool, durable: bool, keyed: bool) -> sqlite3.Connection:
        if self.readonly:
            db = connect_readonly(self.path)
        else:
            private_folder(self.path.parent)
            self._lock = WriterLock(self.path)
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        # The connection is not yet the journal's: whatever fails here must let go of the
        # file itself, or a table retrying its open piles up handles on it.
        try:
            if self.readonly:
                if not _is_journal(db):
                    raise JournalError(f"{self.path}: not a croupier journal")
            else:
                self._prepare(db, create=create, durable=durable, keyed=keyed)
        except BaseException:
            db.close()
            raise
        return db

    def _prepare(
        self, db: sqlite3.Connection, *, create: bool, durable: bool, keyed: bool,
    ) -> None:
        # Looks before touching: a file that is not a journal is left as it was. A database
        # with no table at all holds nothing: a journal killed while it was being made.
        found = _tables(db)
        if found is None or (found and not _is_journal(db)):
            raise JournalError(f"{self.path}: not a croupier journal (nothing was written)")
        if not found and not create:
            raise JournalError(f"no journal at {str(self.path)!r}")
        db.execute("PRAGMA journal_mode=WAL")
        # FULL: a row is on disk when append returns. Only bulk tools turn it off.
        db.execute(f"PRAGMA synchronous={'FULL' if durable else 'OFF'}")
        if not found:
            # The tables and the format marker in one transaction: a journal is made whole.
            with _Transaction(db, self.path):
                for statement in _SCHEMA:
                    db.execute(statement)
                db.executemany("INSERT INTO meta VALUES (?, ?)", [
                    ("format", FORMAT), ("keyed", "1" if keyed else "0"),
                    ("id", uuid.uuid4().hex)])

    def _check_keys(self, meta: dict[str, str], secret: bytes | None) -> None:
        if meta.get("format", FORMAT) != FORMAT:
            raise JournalError(f"{self.path}: not a journal of this format ({meta['format']})")
        keyed = meta.get("keyed") == "1"
        if keyed and not secret:
            raise JournalError(f"{self.path}: the journal is keyed: its table secret is needed")
        if secret and "keyed" in meta and not keyed:
            raise JournalError(f"{self.path}: the journal was started without a secret")

    def close(self) -> None:
        # Each is let go of even when the one before fails (a full or failing disk): a lock
        # kept would shut the table out of its own journal until the process ends. The
        # lock goes last, after SQLite let go of the file: see journal.files.
        with contextlib.ExitStack() as stack:
            if self._lock is not None:
                stack.callback(self._lock.release)
            if (anchor := getattr(self, "_anchor", None)) is not None:
                stack.callback(anchor.close)
            if (db := getattr(self, "_db", None)) is not None:
                stack.callback(db.close)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def set_meta(self, values: dict[str, str]) -> None:
        with self._transaction():
            self._db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", values.items())

    def append(self, kind: str, body: dict[str, Any], *, at: str | None = None) -> int:
        """Append one row durably; returns its number."""
        return self.append_many([(kind, body)], at=at)[-1]

    def append_many(
        self, entries: list[tuple[str, dict[str, Any]]], *, at: str | None = None
    ) -> list[int]:
        """Append rows in one durable transaction; returns their numbers."""
        stamp = at or utc_now()
        seq, prev = self.head
        rows = []
        for kind, body in entries:
            seq += 1
            text = dumps(body)
            digest = row_hash(seq, stamp, kind, text, prev, secret=self.secret)
            rows.append((seq, stamp, kind, text, prev, digest))
            prev = digest
        with self._transaction():
            self._db.executemany("INSERT INTO rows VALUES (?, ?, ?, ?, ?, ?)", rows)
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('head', ?)",
                             (head_record(seq, prev, self.secret),))
        self.head = (seq, prev)
        if not os.path.exists(f"{self.path}-wal"):
            # Another process deleted the WAL this connection still writes into: what is
            # appended from now on would never reach the file.
            raise JournalError(f"{self.path}: its -wal was deleted while the table wrote it; "
                               f"row {seq} may be lost: stop the table and verify the journal")
        if self._anchor is not None:
            self._anchor.write(seq, prev)
        return [r[0] for r in rows]

    def rows(self, kind: str | None = None) -> Iterator[Row]:
        query = "SELECT seq, at, kind, body, prev, hash FROM rows"
        try:
            if kind:
                cursor = self._db.execute(query + " WHERE kind = ? ORDER BY seq", (kind,))
            else:
                cursor = self._db.execute(query + " ORDER BY seq")
            for record in cursor:
                yield Row(*record)
        except sqlite3.Error as err:
            raise JournalError(f"{self.path}: cannot read rows: {err}") from err

    def check(self) -> Verdict:
        """The chain, the head and the anchor outside the file: the first row that fails."""
        try:
            records = self._db.execute(
                "SELECT seq, at, kind, body, prev, hash FROM rows ORDER BY seq")
            overrides = self._overrides()
            verdict = walk(records, self.meta, self.secret, overrides)
            if verdict.bad_row is None:
                verdict = replace(verdict, accepted=tuple(overrides.values()))
            if verdict.bad_row is not None or self._anchor is None:
                return verdict
            anchored = self._anchor.read()
            if anchored is None:
                return verdict
            found = self._db.execute("SELECT hash FROM rows WHERE seq = ?",
                                     (anchored.seq,)).fetchone()
        except sqlite3.Error as err:
            raise JournalError(f"cannot read journal {str(self.path)!r}: {err}") from err
        breach = anchor_breach(anchored, verdict.rows, found[0] if found else None)
        return verdict if breach is None else Verdict(verdict.rows, *breach)

    def _overrides(self) -> dict[int, Accepted]:
        """The breaks the chef de table accepted, by row, from the journal's override rows
        (each later than the break it names)."""
        found: dict[int, Accepted] = {}
        for seq, body in self._db.execute(
                "SELECT seq, body FROM rows WHERE kind = 'override' ORDER BY seq"):
            try:
                data = json.loads(body)
                accepted = Accepted(int(data["bad_row"]), str(data["reason"]), int(seq),
                                    str(data["who"]), str(data["why"]))
            except (ValueError, TypeError, KeyError):
                continue  # a damaged override accepts nothing (and breaks the chain itself)
            if accepted.row <= accepted.at_row:
                found.setdefault(accepted.row, accepted)
        return found

    def accept(self, verdict: Verdict, *, who: str, why: str) -> int:
        """The chef de table accepts the journal's first break so that the table deals on;
        the override row is chained like any other. Returns its number."""
        if verdict.bad_row is None:
            raise JournalError(f"{self.path}: no break to accept")
        return self.append("override", {"bad_row": verdict.bad_row, "reason": verdict.reason,
                                        "who": who, "why": why})

    def _transaction(self) -> _Transaction:
        if self.readonly:
            raise JournalError(f"{self.path}: opened for reading only")
        return _Transaction(self._db, self.path)


def _tables(db: sqlite3.Connection) -> set[str] | None:
    """The database's tables; None for a file that is not SQLite at all. Any other error (a
    full disk, an I/O error) is raised: it says nothing of what the file is."""
    try:
        return {name for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as err:
        if getattr(err, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_NOTADB:
            return None
        raise


def _is_journal(db: sqlite3.Connection) -> bool:
    tables = _tables(db)
    if tables is None or not {"meta", "rows"} <= tables:
        return False
    try:
        found = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    except sqlite3.DatabaseError:
        return False
    return found is not None and found[0] == FORMAT


class _Transaction:
    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db, self.path = db, path

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise JournalError(f"{self.path}: cannot write: {err}") from err

    def __exit__(self, kind: type | None, error: BaseException | None, *rest: object) -> None:
        try:
            if kind is None:
                self.db.execute("COMMIT")
                return
            self.db.execute("ROLLBACK")
        except sqlite3.Error as err:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise JournalError(f"{self.path}: cannot write: {err}") from err
        if isinstance(error, sqlite3.Error):
            # Nothing of the transaction was kept: the journal stands as it was.
            raise JournalError(f"{self.path}: cannot write: {error}") from error


def verify(path: str | Path, *, secret: bytes | None = None) -> Verdict:
    """Walk the chain from the first row, then the head and the anchor outside the file:
    the first row that does not hold, and why. The file is only read."""
    with Journal(path, secret=secret, readonly=True) as journal:
        return journal.check()
