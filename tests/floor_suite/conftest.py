"""A real PostgreSQL for the floor's tests: `$CROUPIER_TEST_FLOOR`, else an embedded one.

Each test gets a database of its own on that server, with the floor's schema applied.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from floor.embedded import EmbeddedPostgres
from floor.errors import FloorError
from floor.schema import migrate

_names = itertools.count()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    given = os.environ.get("CROUPIER_TEST_FLOOR")
    if given:
        yield given
        return
    with _server_place() as place:
        server = EmbeddedPostgres(place / "data", durable=False)
        server.start()
        try:
            yield server.dsn
        finally:
            server.stop()


@pytest.fixture
def floor_dsn(pg_server: str) -> Iterator[str]:
    name = f"croupier_floor_test_{os.getpid()}_{next(_names)}"
    with psycopg.connect(pg_server, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name}")
    dsn = make_conninfo(pg_server, dbname=name)
    migrate(dsn)
    yield dsn
    with psycopg.connect(pg_server, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextlib.contextmanager
def _server_place() -> Iterator[Path]:
    """A folder outside pytest's own: pytest makes its base folder private to root, and as
    root the server runs as an unprivileged user that must reach its data."""
    with tempfile.TemporaryDirectory(prefix="croupier-floor-pg-") as place:
        yield Path(place)


@pytest.fixture
def embedded_server() -> Iterator[EmbeddedPostgres]:
    """A server of the test's own, for tests that stop and restart it."""
    with _server_place() as place:
        server = EmbeddedPostgres(place / "data", durable=False)
        server.start()
        migrate(server.dsn)
        yield server
        with contextlib.suppress(FloorError):  # a test may have left it stopped
            server.stop()
