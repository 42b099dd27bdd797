"""Versioned SQL migrations, applied in order, each once, in its own transaction.

The files `migrations/NNNN_name.sql` ship with the package; the version applied is recorded
in `floor_migration`, and an advisory lock keeps two `floor init` from racing.
"""

from __future__ import annotations

from importlib import resources

from floor.connect import connect

_LOCK = 0x466C6F6F72  # "Floor": one advisory lock number for migrations


def migrations() -> list[tuple[int, str, str]]:
    """(version, name, SQL) of every migration shipped, in order."""
    found = []
    for entry in resources.files("floor.migrations").iterdir():
        stem = entry.name.removesuffix(".sql")
        if entry.name.endswith(".sql") and stem[:4].isdigit():
            found.append((int(stem[:4]), stem, entry.read_text(encoding="utf-8")))
    return sorted(found)


def migrate(dsn: str) -> list[str]:
    """Bring the floor's schema up to date; the names of the migrations applied now."""
    applied: list[str] = []
    with connect(dsn) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS floor_migration ("
                     "version integer PRIMARY KEY, name text NOT NULL, "
                     "applied_at timestamptz NOT NULL DEFAULT now())")
        conn.commit()
        done = {v for (v,) in conn.execute("SELECT version FROM floor_migration")}
        conn.commit()
        for version, name, sql in migrations():
            if version in done:
                continue
            with conn.transaction():
                conn.execute(sql.encode())
                conn.execute("INSERT INTO floor_migration (version, name) VALUES (%s, %s)",
                             (version, name))
            applied.append(name)
        conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK,))
    return applied

