"""The floor's secrets: the page's password as a salted scrypt hash, and tables' keys.

The password hash is the same salted scrypt the chef de table's PIN uses (`journal.chef`).
"""

from __future__ import annotations

from floor.connect import connect
from floor.errors import FloorError
from journal.chef import hash_pin, pin_matches

MIN_PASSWORD = 8


def set_password(dsn: str, password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise FloorError(f"a floor password is at least {MIN_PASSWORD} characters")
    with connect(dsn) as conn:
        conn.execute("INSERT INTO floor_setting VALUES ('password', %s) "
                     "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                     (hash_pin(password),))


def password_matches(stored: str | None, password: str) -> bool:
    return stored is not None and pin_matches(password, stored)


def set_table_key(dsn: str, table: str, secret: bytes) -> None:
    with connect(dsn) as conn:
        conn.execute("INSERT INTO floor_table (table_id, keyed, secret) VALUES (%s, true, %s) "
                     "ON CONFLICT (table_id) DO UPDATE SET secret = excluded.secret",
                     (table, secret))
