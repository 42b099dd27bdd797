"""`croupier floor demo`: a real PostgreSQL from the wheel, simulated tables, their shippers and
the page, all on this machine. A casino points `--floor` at its own PostgreSQL instead.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from floor.auth import set_password
from floor.embedded import EmbeddedPostgres
from floor.errors import FloorError
from floor.reader import JournalReader
from floor.schema import migrate
from floor.web import parse_listen, serve

DEMO_PASSWORD = "rouge-et-noir"


def run_demo(tables: int, pace: float, listen: str, data: Path | None) -> int:
    parse_listen(listen)
    with tempfile.TemporaryDirectory(prefix="croupier-floor-") as scratch:
        place = (data or Path(scratch)).resolve()
        place.mkdir(parents=True, exist_ok=True)
        server = EmbeddedPostgres(place / "postgres")
        dsn = server.start()
        children: list[subprocess.Popen[bytes]] = []
        try:
            migrate(dsn)
            set_password(dsn, DEMO_PASSWORD)
            journals = [place / f"table-{n}.db" for n in range(1, tables + 1)]
            for n, journal in enumerate(journals, 1):
                children.append(subprocess.Popen(
                    [sys.executable, "-m", "floor.simtable", str(journal), "--seed",
                     str(n + int(time.time())), "--pace", str(pace), "--incidents", "0.004"],
                    stdout=subprocess.DEVNULL))
            _wait_for(journals)
            for n, journal in enumerate(journals, 1):
                children.append(subprocess.Popen(
                    [sys.executable, "-m", "croupier", "ship", str(journal), "--table",
                     f"T{n}", "--floor", dsn]))
            print(f"floor demo: {tables} tables dealing into {place}\n"
                  f"  floor:    {dsn}\n"
                  f"  password: {DEMO_PASSWORD}", flush=True)
            return serve(dsn, listen, 8 * 3600)
        finally:
            for child in children:
                child.terminate()
            for child in children:
                child.wait(10)
            server.stop()


def _wait_for(journals: list[Path]) -> None:
    """Until every journal holds its first row: a shipper needs a journal to follow."""
    deadline = time.monotonic() + 30
    waiting = list(journals)
    while waiting:
        if time.monotonic() > deadline:
            raise FloorError("the simulated tables did not open their journals within 30 s")
        time.sleep(0.05)
        waiting = [j for j in waiting if not _started(j)]


def _started(journal: Path) -> bool:
    try:
        reader = JournalReader(journal)
    except FloorError:
        return False
    try:
        return bool(reader.rows_from(1, 1))
    except FloorError:
        return False
    finally:
        reader.close()
