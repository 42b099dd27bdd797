"""Connections to the floor's PostgreSQL, with errors that name the server, not the password."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict

from floor.errors import FloorError

CONNECT_TIMEOUT = 5


def where(dsn: str) -> str:
    """The server a DSN points at, without its password, for messages."""
    try:
        parts = conninfo_to_dict(dsn)
    except psycopg.Error:
        return "the floor (an unreadable DSN)"
    host = parts.get("host") or "localhost"
    port = parts.get("port") or "5432"
    return f"the floor at {host}:{port}/{parts.get('dbname') or parts.get('user') or ''}"


def connect(dsn: str, **options: Any) -> psycopg.Connection[tuple[Any, ...]]:
    try:
        return psycopg.connect(dsn, connect_timeout=CONNECT_TIMEOUT, **options)
    except psycopg.Error as err:
        raise FloorError(f"cannot reach {where(dsn)}: {one_line(err)}") from err


def one_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0] if text else type(err).__name__
