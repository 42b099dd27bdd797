"""The floor flat out: how many live tables one PostgreSQL keeps up with on this machine.

Steps of more and more tables, each dealing a card every 0.2 s: the tables' journals grow by
a real table's rows (copied from a dealt journal, so their chains hold), their shippers
follow them as `croupier ship` does, and the floor's head of each table is polled every
50 ms. A step keeps up when the lag from a card's rows written to them on the floor has a
p99 under one second. The table processes of a real floor run on their own machines: here
one process writes every journal, so that this machine's two cores go to the floor.

`CROUPIER_BENCH_FLOOR_STEP_SECONDS` (default 20) is each step's length;
`CROUPIER_BENCH_FLOOR_STEPS` (default "50,100,150,200,300") the steps.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from multiprocessing.synchronize import Event as ProcessEvent
from pathlib import Path

import psycopg

from floor.embedded import EmbeddedPostgres
from floor.schema import migrate
from floor.shipper import Shipper
from floor.simtable import deal

PACE = 0.2
SHIPPING_PROCESSES = 4
OPENING_ROWS = 3  # each journal starts with the table's opening rows

Stored = tuple[int, str, str, str, str, str]


def _ticks(template: Path) -> list[list[Stored]]:
    """The template's rows grouped by card dealt: what a table writes every PACE s."""
    with contextlib.closing(sqlite3.connect(template)) as db:
        rows = db.execute("SELECT seq, at, kind, body, prev, hash FROM rows ORDER BY seq "
                          "LIMIT -1 OFFSET ?", (OPENING_ROWS,)).fetchall()
    ticks: list[list[Stored]] = [[]]
    for row in rows:
        ticks[-1].append(row)
        if row[2] == "decisions" and '"event": "card"' in row[3]:
            ticks.append([])
    return ticks[:-1]


def ship_in_threads(journals: list[tuple[Path, str]], dsn: str, stop: ProcessEvent) -> None:
    halt = threading.Event()
    threads = [threading.Thread(target=Shipper(path, table, dsn).follow, args=(
        halt, lambda line, t=table: print(f"{t}: {line}", file=sys.stderr)))
        for path, table in journals]
    for thread in threads:
        thread.start()
    stop.wait()
    halt.set()
    for thread in threads:
        thread.join(30)


def _step(server: EmbeddedPostgres, place: Path, template: Path, tables: int,
          seconds: float) -> tuple[float, float, float, float]:
    """p50 and p99 lag, the rows still to arrive at the end, PostgreSQL's CPU share."""
    ticks = _ticks(template)
    names = [f"S{tables}-{n}" for n in range(tables)]
    paths = [place / f"{name}.db" for name in names]
    for path in paths:
        shutil.copy(template, path)
        # Closed now, not when the collector gets to it: a connection closed later, while the
        # shippers and the writer have the journal open, would take its shared index away.
        with contextlib.closing(sqlite3.connect(path)) as db:
            db.execute("DELETE FROM rows WHERE seq > ?", (OPENING_ROWS,))
            db.commit()
    stop = multiprocessing.Event()
    shippers = [multiprocessing.Process(target=ship_in_threads, args=(
        list(zip(paths, names, strict=True))[n::SHIPPING_PROCESSES], server.dsn, stop))
        for n in range(SHIPPING_PROCESSES)]
    for process in shippers:
        process.start()
    writers = [sqlite3.connect(path, isolation_level=None) for path in paths]
    for db in writers:
        db.execute("PRAGMA synchronous = OFF")
    written: list[dict[int, float]] = [{} for _ in names]
    heads = [OPENING_ROWS] * tables
    lags: list[float] = []
    floor = psycopg.connect(server.dsn, autocommit=True)
    cpu_before, start = server.cpu_seconds(), time.monotonic()
    tick = 0
    while (now := time.monotonic()) - start < seconds:
        due = int((now - start) / PACE)
        while tick <= due and tick < len(ticks):
            for n, db in enumerate(writers):  # every table deals its card
                db.executemany("INSERT INTO rows VALUES (?, ?, ?, ?, ?, ?)", ticks[tick])
                written[n][ticks[tick][-1][0]] = time.monotonic()
            tick += 1
        seen = time.monotonic()
        for name, head in floor.execute("SELECT table_id, head_seq FROM floor_table "
                                        "WHERE table_id LIKE %s", (f"S{tables}-%",)):
            n = int(name.split("-")[1])
            for seq in [s for s in written[n] if heads[n] < s <= head]:
                lags.append(seen - written[n].pop(seq))
            heads[n] = max(heads[n], head)
        time.sleep(0.05)
    cpu = server.cpu_seconds() - cpu_before
    behind = sum(len(w) for w in written)
    stop.set()
    for process in shippers:
        process.join(60)
    for db in writers:
        db.close()
    floor.close()
    lags.sort()
    share = cpu / (time.monotonic() - start)
    return (statistics.median(lags) if lags else float("inf"),
            lags[int(0.99 * len(lags))] if lags else float("inf"), behind, share)


def main() -> None:
    seconds = float(os.environ.get("CROUPIER_BENCH_FLOOR_STEP_SECONDS", "20"))
    steps = [int(n) for n in os.environ.get("CROUPIER_BENCH_FLOOR_STEPS",
                                            "50,100,150,200,300").split(",")]
    with tempfile.TemporaryDirectory(prefix="croupier-bench-capacity-") as scratch:
        place = Path(scratch)
        template = place / "template.db"
        deal(template, seed=5, cards=int(seconds / PACE * 1.2) + 50, pace=0, durable=False)
        server = EmbeddedPostgres(place / "pg")
        server.start()
        kept_up = 0
        try:
            migrate(server.dsn)
            for tables in steps:
                p50, p99, behind, share = _step(server, place, template, tables, seconds)
                keeps = p99 < 1.0
                kept_up = tables if keeps else kept_up
                print(f"floor flat out: {tables} tables, a card every {PACE} s each, "
                      f"{seconds:.0f} s: lag p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
                      f"{behind:.0f} cards still on their way at the end, PostgreSQL "
                      f"{share * 100:.0f}% of a core, load average "
                      f"{os.getloadavg()[0]:.1f}: {'keeps up' if keeps else 'falls behind'}",
                      flush=True)
                if not keeps:
                    break
        finally:
            server.stop()
        print(f"floor flat out: one PostgreSQL on this machine kept up with {kept_up} live "
              f"tables (with their shippers on the same two cores)")
