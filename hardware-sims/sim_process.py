"""Running the shoe simulator as its own process, for tests, benchmarks and the `sim`
backend: start it, learn the port it serves, and make sure it is gone afterwards."""

from __future__ import annotations

import selectors
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from drivers.errors import ShoeError

START_TIMEOUT = 10.0
STOP_TIMEOUT = 3.0


class SimulatorError(ShoeError, RuntimeError):
    """The simulator did not start; the message holds what it said."""


@contextmanager
def running_simulator(
    fixture: str | Path, dialect: str, *options: str, listen: str | None = None
) -> Iterator[str]:
    """Yields the URL to open (a pty path or `socket://…`); the process is stopped on exit.
    `options` are more simulator flags (`--pace`, `--faults`, `--seed`, …)."""
    where = ["--listen", listen] if listen else ["--pty"]
    command = [
        sys.executable,
        "-m",
        "hardware_sims.shoe_sim",
        str(fixture),
        "--dialect",
        dialect,
        *where,
        "--exit-with-parent",
        *options,
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        yield _first_line(process)
    finally:
        process.terminate()
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def _first_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    assert process.stderr is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(START_TIMEOUT):
            raise SimulatorError(f"the simulator said nothing in {START_TIMEOUT} s")
    url = process.stdout.readline().strip()
    if not url:
        process.wait(STOP_TIMEOUT)
        raise SimulatorError(f"the simulator did not start: {process.stderr.read().strip()}")
    return url
