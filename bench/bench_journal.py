"""Journal: append rate with full synchronous writes, restart of a full day, verify time."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from decimal import Decimal
from pathlib import Path

from croupier.decisions import Chance
from croupier.events import CardDrawn, NewShoe, PlaceStake, SetTable, ShoeEmpty
from croupier.rulebook import load_rulebook
from croupier.shuffle import regulation_shoe
from croupier.table import Event
from journal.live import JournaledTable
from journal.store import verify

DAY_SHOES = 30
APPENDS = 400
RUNS = 5


def _day_events(rng: random.Random) -> list[Event]:
    events: list[Event] = [SetTable(None, Decimal(10), Decimal(10_000))]
    for _ in range(DAY_SHOES):
        for event in [*regulation_shoe(rng, face_up_rate=0.002), ShoeEmpty(), NewShoe()]:
            if isinstance(event, CardDrawn) and rng.random() < 0.1:
                events.append(PlaceStake(rng.randint(1, 7), rng.choice(list(Chance)),
                                         Decimal(rng.choice([10, 50, 100])), rng.random() < 0.2))
            events.append(event)
    return events


def main() -> None:
    rulebook = load_rulebook("venezia")
    rng = random.Random(6)
    with tempfile.TemporaryDirectory(dir=Path.cwd()) as tmp:
        rates = []
        for run in range(RUNS):
            live = JournaledTable.open(Path(tmp) / f"rate{run}.db", rulebook)
            events = regulation_shoe(rng)[:APPENDS]
            start = time.perf_counter()
            for event in events:
                live.apply(event)
            rates.append(APPENDS / (time.perf_counter() - start))
            live.close()
        rate = statistics.median(rates)
        print(f"journal: {APPENDS} events x {RUNS} runs, each input and its decisions in two "
              f"durable transactions, anchored outside the file: median {rate:,.0f} events/s "
              f"({1000 / rate:.2f} ms per event)")

        day = Path(tmp) / "day.db"
        live = JournaledTable.open(day, rulebook, durable=False)
        for day_event in _day_events(rng):
            live.apply(day_event)
        rows = live.journal.head[0]
        live.close()
        restarts, checks = [], []
        for _ in range(3):
            start = time.perf_counter()
            JournaledTable.open(day, rulebook).close()
            restarts.append(time.perf_counter() - start)
            start = time.perf_counter()
            assert verify(day).intact
            checks.append(time.perf_counter() - start)
        print(f"journal: a day of {DAY_SHOES} shoes, {rows:,} rows, "
              f"{day.stat().st_size / 1e6:.1f} MB: restart to ready median "
              f"{statistics.median(restarts):.2f} s; audit verify median "
              f"{statistics.median(checks):.2f} s")
