"""Engine throughput over random regulation shoes, and `croupier replay` as a whole process."""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from croupier.engine import Shoe
from croupier.events import CardDrawn, ShoeEmpty
from croupier.fixtures import render_shoe
from croupier.rulebook import load_rulebook
from croupier.shuffle import regulation_shoe

SHOES = 1000
RUNS = 5
PROCESS_RUNS = 15


def engine_throughput() -> None:
    rulebook = load_rulebook("venezia")
    rng = random.Random(2026)
    shoes = [[*regulation_shoe(rng, face_up_rate=0.002), ShoeEmpty()] for _ in range(SHOES)]
    cards = sum(1 for shoe in shoes for e in shoe if isinstance(e, CardDrawn))
    rates = []
    for _ in range(RUNS):
        start = time.perf_counter()
        for events in shoes:
            apply = Shoe(rulebook).apply
            for event in events:
                apply(event)
        rates.append(cards / (time.perf_counter() - start))
    print(f"engine: {SHOES} regulation shoes, {cards} cards per run, {RUNS} runs")
    print(f"engine: median {statistics.median(rates):,.0f} cards/s "
          f"(min {min(rates):,.0f}, max {max(rates):,.0f}; target 500,000)")


def replay_process() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        fixture = Path(tmp) / "regulation.shoe"
        fixture.write_text(render_shoe(regulation_shoe(random.Random(7))))
        command = [sys.executable, "-m", "croupier", "replay", str(fixture), "--json"]
        times = []
        for _ in range(PROCESS_RUNS):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    print(f"replay: one regulation shoe, whole process, {PROCESS_RUNS} runs: "
          f"median {statistics.median(times) * 1000:.0f} ms (max {max(times) * 1000:.0f} ms; "
          "target under 150 ms)")


def main() -> None:
    engine_throughput()
    replay_process()
