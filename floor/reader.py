"""A table's journal read from beside the table: read-only, never locking the writer out.

The floor must never write to a table's journal, so it opens the file with SQLite's
`mode=ro` URI. Rows come back as the journal package's own `Row`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from floor.errors import FloorError
from journal.store import Row


class JournalReader:
    """Reads rows after a position from a journal that another process keeps writing."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._marks: list[tuple[int, int]] = []
        if not self.path.is_file():
            raise FloorError(f"no journal at {str(path)!r}")
        try:
            self._db = sqlite3.connect(self.path.resolve().as_uri() + "?mode=ro", uri=True,
                                       check_same_thread=False)
            self._db.execute("PRAGMA busy_timeout = 2000")
        except sqlite3.Error as err:
            raise FloorError(f"cannot open journal {str(path)!r}: {err}") from err

    def last_rows(self, count: int) -> list[Row]:
        """The journal's last `count` rows, in order."""
        try:
            found = self._db.execute("SELECT max(seq) FROM rows").fetchone()
        except sqlite3.Error as err:
            raise FloorError(f"{self.path}: cannot read rows: {err}") from err
        last = int(found[0]) if found and found[0] is not None else 0
        return self.rows_from(last - count + 1, count) if last else []

    def touched(self) -> bool:
        """Whether the journal's files changed since last asked: a stat, not a query, so
        that fifty idle shippers cost nothing."""
        marks = []
        for path in (self.path, self.path.with_name(self.path.name + "-wal")):
            try:
                stat = path.stat()
            except OSError:
                marks.append((0, 0))
            else:
                marks.append((stat.st_size, stat.st_mtime_ns))
        changed = marks != self._marks
        self._marks = marks
        return changed

    def forget(self) -> None:
        self._marks = []

    def keyed(self) -> bool:
        """Whether the journal's hashes are HMACs with the table's secret."""
        return self._meta("keyed") == "1"

    def rows_from(self, seq: int, limit: int) -> list[Row]:
        """Up to `limit` rows numbered `seq` and after, in order."""
        try:
            # SQLite keeps any value in any column: the casts make every field text (`seq` is
            # the rowid, an integer), so that a row holding something else is refused for
            # its hash, never a crash; and no row costs a Python-level check.
            found = self._db.execute(
                "SELECT seq, ifnull(CAST(at AS TEXT), ''), ifnull(CAST(kind AS TEXT), ''), "
                "ifnull(CAST(body AS TEXT), ''), ifnull(CAST(prev AS TEXT), ''), "
                "ifnull(CAST(hash AS TEXT), '') FROM rows WHERE seq >= ? "
                "ORDER BY seq LIMIT ?", (seq, limit)).fetchall()
        except sqlite3.Error as err:
            raise FloorError(f"{self.path}: cannot read rows: {err}") from err
        return [Row(*r) for r in found]

    def _meta(self, key: str) -> str | None:
        try:
            found = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as err:
            raise FloorError(f"{self.path}: not a croupier journal: {err}") from err
        return None if found is None else str(found[0])

    def close(self) -> None:
        self._db.close()
