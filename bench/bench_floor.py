"""The floor: lag from a row written at a table to it seen on the page's API, with many tables
dealing; how many tables' worth of rows one PostgreSQL takes flat out; a day of 50 tables
loaded and its statistics computed.

`CROUPIER_BENCH_FLOOR_SECONDS` (default 60; the target run is 600; 0 for the day alone) and
`CROUPIER_BENCH_FLOOR_TABLES` (default 50) size the live run.
"""

from __future__ import annotations

import http.cookiejar
import json
import multiprocessing
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime
from pathlib import Path

import psycopg

from bench.bench_floor_capacity import SHIPPING_PROCESSES, ship_in_threads
from floor.auth import set_password
from floor.embedded import EmbeddedPostgres, free_port
from floor.schema import migrate
from floor.shipper import Shipper
from floor.simtable import deal

PACE = 0.2
DAY_TABLES = 50
DAY_CARDS = 30 * 312  # 30 shoes of a sixain: one table's day
PASSWORD = "bench-password"
WARM_UP = 5.0  # seconds of live dealing once the shippers have settled, before measuring
LOADERS = 4  # shipping processes for the day's load: the two cores, each waiting on the other


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class _Api:
    def __init__(self, url: str) -> None:
        self.url = url
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        deadline = time.monotonic() + 30
        while True:
            try:
                self.opener.open(urllib.request.Request(
                    url + "/api/login", data=json.dumps({"password": PASSWORD}).encode(),
                    headers={"Content-Type": "application/json"}), timeout=5).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def get(self, path: str) -> object:
        with self.opener.open(self.url + path, timeout=30) as answer:
            return json.loads(answer.read())


def _serve(dsn: str) -> tuple[subprocess.Popen[bytes], _Api]:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "croupier", "floor", "serve", "--floor",
                               dsn, "--listen", f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL)
    return server, _Api(f"http://127.0.0.1:{port}")


def _live(dsn: str, place: Path, tables: int, seconds: float) -> None:
    """Tables dealing a card every PACE s, their shippers, and the API polled for new rows.

    A real floor's tables and shippers run on the tables' own machines: here the tables deal
    in one process (a thread each, journalling with full synchronous writes) and the
    shippers follow them as threads of SHIPPING_PROCESSES processes, so that this machine's
    two cores are left to what the floor runs — PostgreSQL and the page."""
    journals = [place / f"live-{n}.db" for n in range(tables)]
    dealer = multiprocessing.Process(target=_deal_all, args=(journals,))
    dealer.start()
    stop = multiprocessing.Event()
    shippers: list[multiprocessing.Process] = []
    server = None
    try:
        while not all(j.exists() for j in journals):
            time.sleep(0.1)
        time.sleep(1)
        named = list(zip(journals, [f"L{n}" for n in range(tables)], strict=True))
        shippers = [multiprocessing.Process(target=ship_in_threads, args=(
            named[n::SHIPPING_PROCESSES], dsn, stop)) for n in range(SHIPPING_PROCESSES)]
        for process in shippers:
            process.start()
        server, api = _serve(dsn)
        # Everything starting at once on two cores takes a while: the lag measured is that
        # of a floor running, once every shipper is connected and caught up.
        deadline = time.monotonic() + 120
        while not _steady(api.get("/api/tables"), tables):  # type: ignore[arg-type]
            assert time.monotonic() < deadline, "the shippers did not settle in 120 s"
            time.sleep(0.5)
        time.sleep(WARM_UP)
        _poll(api, tables, seconds)
    finally:
        stop.set()
        dealer.terminate()
        if server:
            server.terminate()
            server.wait(10)
        for process in [dealer, *shippers]:
            process.join(30)


def _poll(api: _Api, tables: int, seconds: float) -> None:
    """Polls the API for `seconds`, noting how long each table's new row took to show."""
    lags: list[float] = []
    stored: list[float] = []  # of which: from the row written to it stored on the floor
    seen: dict[str, int] = {}
    end = time.monotonic() + seconds
    answers: list[float] = []
    while time.monotonic() < end:
        asked = time.time()
        lines = api.get("/api/tables")
        now = time.time()
        answers.append(now - asked)
        for table in lines:  # type: ignore[attr-defined]
            if table["rows"] != seen.get(table["table"]) and table["last_row_at"]:
                seen[table["table"]] = table["rows"]
                written = datetime.fromisoformat(table["last_row_at"]).timestamp()
                lags.append(now - written)
                stored.append(table["lag"])
        time.sleep(0.05)
    print(f"floor: {tables} tables, a card every {PACE} s each, {seconds:.0f} s: "
          f"lag from row written to seen on the API p50 "
          f"{statistics.median(lags) * 1000:.0f} ms, p99 "
          f"{_percentile(lags, 0.99) * 1000:.0f} ms, max {max(lags) * 1000:.0f} ms "
          f"({len(lags)} observations, polled every 50 ms; of which written to stored "
          f"p50 {statistics.median(stored) * 1000:.0f} ms, p99 "
          f"{_percentile(stored, 0.99) * 1000:.0f} ms; the API answered in p50 "
          f"{statistics.median(answers) * 1000:.0f} ms, p99 "
          f"{_percentile(answers, 0.99) * 1000:.0f} ms; load average "
          f"{os.getloadavg()[0]:.1f})")


def _deal_all(journals: list[Path]) -> None:
    threads = [threading.Thread(target=deal, args=(journal, n, None, PACE), daemon=True)
               for n, journal in enumerate(journals)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _steady(lines: list[dict[str, object]], tables: int) -> bool:
    return len(lines) == tables and all(
        line["connected"] and isinstance(line["lag"], float) and line["lag"] < 1
        for line in lines)


def _day(server: EmbeddedPostgres, place: Path) -> None:
    """A day of DAY_TABLES tables shipped by LOADERS processes at once, then the page's
    statistics; wall time, and the CPU time of the shippers and of PostgreSQL."""
    dsn = server.dsn
    one = place / "day.db"
    deal(one, seed=99, cards=DAY_CARDS, pace=0, durable=False)
    journals = []
    for n in range(DAY_TABLES):
        journals.append(place / f"day-{n}.db")
        shutil.copy(one, journals[-1])
    with sqlite3.connect(one) as db:
        rows = int(db.execute("SELECT count(*) FROM rows").fetchone()[0]) * DAY_TABLES
    pg_before, ours_before = server.cpu_seconds(), _children_cpu()
    start = time.perf_counter()
    with ProcessPoolExecutor(LOADERS) as pool:
        list(pool.map(_ship_all, journals, [f"D{n}" for n in range(DAY_TABLES)],
                      [dsn] * DAY_TABLES))
    loaded = time.perf_counter() - start
    pg_cpu, ship_cpu = server.cpu_seconds() - pg_before, _children_cpu() - ours_before
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
        shoes = conn.execute("SELECT count(DISTINCT (table_id, shoe)) FROM coup "
                             "WHERE table_id LIKE 'D%'").fetchone()
    serving, api = _serve(dsn)
    try:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            api.get("/api/stats")
            times.append(time.perf_counter() - start)
        money_start = time.perf_counter()
        api.get("/api/money")
        money = time.perf_counter() - money_start
    finally:
        serving.terminate()
        serving.wait(10)
    stats = statistics.median(times)
    print(f"floor: a day of {DAY_TABLES} tables ({shoes[0] if shoes else 0} shoes, "
          f"{rows:,} rows) verified, derived and stored by {LOADERS} shipping processes in "
          f"{loaded:.1f} s ({rows / loaded:,.0f} rows/s; CPU: shippers {ship_cpu:.1f} s, "
          f"PostgreSQL {pg_cpu:.1f} s; load average {os.getloadavg()[0]:.1f}); statistics "
          f"across tables {stats:.2f} s; in all {loaded + stats:.1f} s; money per shift "
          f"{money:.2f} s")


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _ship_all(journal: Path, table: str, dsn: str) -> None:
    shipper = Shipper(journal, table, dsn)
    try:
        shipped = shipper.ship_available()
        assert shipped.refused is None, shipped.refused
    finally:
        shipper.close()


def main() -> None:
    tables = int(os.environ.get("CROUPIER_BENCH_FLOOR_TABLES", "50"))
    seconds = float(os.environ.get("CROUPIER_BENCH_FLOOR_SECONDS", "60"))
    with tempfile.TemporaryDirectory(prefix="croupier-bench-floor-") as scratch:
        place = Path(scratch)
        server = EmbeddedPostgres(place / "pg")
        dsn = server.start()
        try:
            migrate(dsn)
            set_password(dsn, PASSWORD)
            if seconds > 0:
                _live(dsn, place, tables, seconds)
            _day(server, place)
        finally:
            server.stop()
