"""Exact odds: the computation for each shoe size, and `croupier odds --json` as a process."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from croupier import odds

PROCESS_RUNS = 7


def computation() -> None:
    for decks in range(odds.MIN_DECKS, odds.MAX_DECKS + 1):
        counts = odds.shoe_counts(decks)
        start = time.perf_counter()
        odds.row_distribution(counts)
        row = time.perf_counter()
        odds.coup_distribution(counts, ((point, point) for point in odds.POINTS))
        ties = time.perf_counter()
        odds.coup_distribution(counts)
        every = time.perf_counter()
        print(f"odds: {decks} decks: one row {(row - start) * 1000:.0f} ms, "
              f"ties {(ties - row) * 1000:.0f} ms, whole coup table {(every - ties) * 1000:.0f} ms")


def process() -> None:
    command = [sys.executable, "-m", "croupier", "odds", "--json"]
    times = []
    for _ in range(PROCESS_RUNS):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    print(f"odds: `croupier odds --json` (6 decks), whole process, {PROCESS_RUNS} runs: "
          f"median {statistics.median(times) * 1000:.0f} ms (max {max(times) * 1000:.0f} ms; "
          "target well under 2 s)")


def main() -> None:
    computation()
    process()
