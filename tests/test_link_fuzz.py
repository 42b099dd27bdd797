"""A short run of `make fuzz` (bench/fuzz_links.py): the same inputs, the same alignment of
what was sent against what was delivered, the same invariants."""

from __future__ import annotations

import time

import pytest

from bench.fuzz_links import CASES, FORBIDDEN, fuzz, fuzz_case

# Open: angel with no check still loses some messages silently under heavy corruption
# (README, "What the shoe links cannot detect"); `make fuzz` reports them and fails on them.
KNOWN_OPEN = {"angel-none": {"SILENT LOSS"}}


@pytest.mark.parametrize("case", CASES)
def test_a_short_fuzz_run_breaks_no_invariant(case: str) -> None:
    tally = fuzz_case(case, range(400), time.time() + 60)
    assert tally.inputs == 400
    required = set(FORBIDDEN[case]) - KNOWN_OPEN.get(case, set())
    broken = {name: tally.counts[name] for name in required if tally.counts[name]}
    assert broken == {}, f"replay with: python -m bench.fuzz_links --case {case} --replay SEED"
    assert tally.counts["delivered"] > 1000


def test_worker_processes_give_what_one_process_gives() -> None:
    """`make fuzz` hands chunks of seeds to worker processes: merged, their tallies are those
    of one process running the same seeds."""
    (tally,) = fuzz(["angel-none"], 7, 120, 60.0, workers=2, chunk=25).values()
    alone = fuzz_case("angel-none", range(7, 127), time.time() + 60)
    assert tally.inputs == alone.inputs == 120
    assert tally.counts == alone.counts
    assert tally.examples == alone.examples
