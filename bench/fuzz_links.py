"""`make fuzz`: the shoe links under mutated real frames and random bytes, every dialect.

    python -m bench.fuzz_links [--seconds S] [--inputs N] [--seed K]

Each input is a short stream a shoe sends (cards, cut card, failed reads, alarms; numbered
by a counter of 10 to 65536 values that may restart), with its frames and bytes dropped,
doubled, flipped, stale copies and heartbeats put back, noise between them. It is decoded
as a capture (and again under a random split of the reads, which must give the same
messages) and live (with idle calls on a clock; a native shoe answers resend requests
over the same bad line). What was delivered is aligned exactly against what was sent:
each sent message is delivered, delivered as a misread, reported missing (`lost`, or a
restart alarm), or lost silently; each delivered card that matches nothing sent is
invented (damaged copies as good as sent, which no receiver can tell, are counted apart:
`bench.fuzz_forged`). Random bytes are decoded too. No input may crash or hang.

Exit status 1 when an invariant breaks: a crash, a hang, a split that changes the output;
a silent loss, an invented card or a link alarm on a clean input (no byte damaged: a false
alarm) in native or angel with a verified check; a silent loss or a link alarm on a clean
input in angel without one (whose invented cards are counted: two copies damaged alike).
Bee has no sequence and no check: its undetectable cases are counted.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from types import FrameType as StackFrame

from bench.fuzz_align import Tally, align
from bench.fuzz_clean import CLEAN_ALARM, clean_alarms
from bench.fuzz_decode import decode_capture, decode_live
from bench.fuzz_forged import received_frames
from bench.fuzz_inputs import (
    COUNTERS,
    Faults,
    Span,
    Stream,
    angel_frames,
    bee_frames,
    damage,
    native_frames,
    shoe_stream,
)
from drivers.messages import CardRead
from drivers.native_frames import SEQ_MODULUS, FrameType

# CPU seconds one input may take: a decoder that hangs spins; a busy machine that leaves a
# worker waiting for a core is no hang (one was counted so, on wall-clock time, at load 9)
HANG_AFTER = 2.0
CASES = ("native", "angel-check", "angel-none", "bee")
CHUNK = 2000  # inputs a worker runs before the next chunk is handed out
FORBIDDEN = {
    "native": ("CRASH", "HANG", "split changed the output", "SILENT LOSS", "INVENTED",
               CLEAN_ALARM),
    "angel-check": ("CRASH", "HANG", "split changed the output", "SILENT LOSS", "INVENTED",
                    CLEAN_ALARM),
    "angel-none": ("CRASH", "HANG", "split changed the output", "SILENT LOSS", CLEAN_ALARM),
    "bee": ("CRASH", "HANG", "split changed the output"),
}


class HangError(Exception):
    """An input took longer than `HANG_AFTER`."""


def _sent(case: str, rng: random.Random) -> tuple[Stream, list[bytes]]:
    """A shoe's messages drawn for `case`, and the frames its dialect sends them in."""
    if case == "native":
        stream = shoe_stream(rng, SEQ_MODULUS, 0)
        return stream, native_frames(stream, rng)
    if case.startswith("angel"):
        values = rng.choice(COUNTERS)
        first = 0x30 if values == 10 and rng.random() < 0.5 else rng.randrange(257 - values)
        stream = shoe_stream(rng, values, first)
        return stream, angel_frames(stream)
    stream = shoe_stream(rng, 1, 0)
    return stream, bee_frames(stream)


def run_input(case: str, seed: int, tally: Tally) -> None:
    rng = random.Random(seed)
    if rng.random() < 0.1:
        data = rng.randbytes(rng.randint(0, 400))
        decoded, same = decode_capture(case, data, [rng.randrange(401) for _ in range(5)])
        tally.random_inputs += 1
        tally.add("split changed the output", int(not same), seed)
        tally.add("card from random bytes", sum(isinstance(m, CardRead) for m in decoded), seed)
        return
    stream, frames = _sent(case, rng)
    faults = Faults.draw(rng)
    angel = case.startswith("angel")
    checked = case == "angel-check"
    # a stale frame long after it was sent: only native numbers can tell it from news
    stale = frames[:1] if case == "native" else []
    stale_data = bool(stale) and frames[0][4] != FrameType.HEARTBEAT.value
    spans: list[Span] = []  # where each frame received came from, for the accounting
    if rng.random() < 0.5:
        data = damage(frames, faults, rng, stale, spans)
        cuts = [rng.randrange(len(data) + 1) for _ in range(rng.randint(0, 8))]
        decoded, same = decode_capture(case, data, cuts)
        tally.add("split changed the output", int(not same), seed)
        intact = data == b"".join(frames)
        frames_read = (
            received_frames(stream, data, checked=checked, spans=spans) if angel else None
        )
        align(
            stream, decoded, tally, seed,
            capture=True, tail=True, bee_alarms=case == "bee", stale=stale_data,
            received=frames_read,
        )
    else:
        received = bytearray()
        decoded, intact = decode_live(
            case, stream, frames, faults, rng, stale=stale, received=received, spans=spans
        )
        frames_read = (
            received_frames(stream, bytes(received), checked=checked, spans=spans)
            if angel
            else None
        )
        # a native shoe's heartbeat tells of its last frame; the dialects have none
        # a native table knows the first number; the dialects cannot know what came before
        # their first message, nor, with no heartbeat, what came after their last
        edges = case != "native"
        align(
            stream, decoded, tally, seed,
            capture=edges, tail=edges, bee_alarms=case == "bee", stale=stale_data,
            received=frames_read,
        )
    tally.add(CLEAN_ALARM, clean_alarms(stream, decoded) if intact else 0, seed)


def _hang(signum: int, frame: StackFrame | None) -> None:
    raise HangError


def fuzz_case(case: str, seeds: range, deadline: float) -> Tally:
    """Runs the inputs of `seeds`, until `deadline` (time.time(), so that every worker
    process agrees)."""
    tally = Tally()
    began = time.monotonic()
    previous = signal.signal(signal.SIGVTALRM, _hang)
    try:
        for seed in seeds:
            if time.time() >= deadline:
                break
            tally.inputs += 1
            signal.setitimer(signal.ITIMER_VIRTUAL, HANG_AFTER)
            try:
                run_input(case, seed, tally)
            except HangError:
                tally.add("HANG", 1, seed)
            except Exception:  # every failure is counted, with its seed to replay it
                tally.add("CRASH", 1, seed)
            finally:
                signal.setitimer(signal.ITIMER_VIRTUAL, 0)
    finally:
        signal.signal(signal.SIGVTALRM, previous)
    tally.seconds = time.monotonic() - began
    return tally


def fuzz(
    cases: list[str], first: int, inputs: int, seconds: float, *, workers: int, chunk: int = CHUNK
) -> dict[str, Tally]:
    """Every case's `inputs` from seed `first`, in chunks of `chunk` seeds shared by
    `workers` processes, until `seconds` have passed; the cases take turns, so that each
    gets its share."""
    deadline = time.time() + seconds
    began = time.monotonic()
    tallies = {case: Tally() for case in cases}
    chunks = [
        (case, range(start, min(start + chunk, first + inputs)))
        for start in range(first, first + inputs, chunk)
        for case in cases
    ]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        runs = [(case, pool.submit(fuzz_case, case, seeds, deadline)) for case, seeds in chunks]
        for done, (case, run) in enumerate(runs, 1):
            tallies[case].merge(run.result())
            if done % (10 * len(cases)) == 0:  # a line now and then, for a long run
                so_far = ", ".join(f"{c} {t.inputs}" for c, t in tallies.items())
                print(f"[{time.monotonic() - began:.0f} s] {so_far}", file=sys.stderr, flush=True)
    for tally in tallies.values():
        tally.seconds = time.monotonic() - began
    return tallies


def report(case: str, tally: Tally) -> bool:
    rate = tally.inputs / tally.seconds if tally.seconds else 0.0
    print(
        f"{case}: {tally.inputs} inputs ({tally.random_inputs} of random bytes) in "
        f"{tally.seconds:.0f} s, {rate:.0f}/s",
        flush=True,
    )
    for name, count in sorted(tally.counts.items()):
        print(f"  {name:48} {count:>10}   (seed {tally.examples[name]})")
    broken = [name for name in FORBIDDEN[case] if tally.counts[name]]
    if broken:
        print(f"  FAILED: {', '.join(broken)}")
    return not broken


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fuzz_links", description=__doc__)
    parser.add_argument("--seconds", type=float, default=600.0, help="total time, shared")
    parser.add_argument("--inputs", type=int, default=1_000_000, help="at most, per dialect")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--case", choices=CASES, action="append", help="default: all")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="processes (default: one a core)"
    )
    parser.add_argument("--replay", type=int, metavar="SEED", help="run one seed, show it")
    options = parser.parse_args(argv)
    cases = options.case or list(CASES)
    if options.replay is not None:
        for case in cases:
            tally = Tally()
            run_input(case, options.replay, tally)
            tally.inputs = 1
            report(case, tally)
        return 0
    tallies = fuzz(cases, options.seed, options.inputs, options.seconds, workers=options.workers)
    results = [report(case, tally) for case, tally in tallies.items()]
    done = sum(t.inputs for t in tallies.values())
    seconds = max(t.seconds for t in tallies.values())
    print(f"in all: {done} inputs in {seconds:.0f} s, {done / seconds:.0f}/s, "
          f"{options.workers} worker process(es)")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
