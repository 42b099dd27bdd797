"""A shipper beside a live table: its own process, so the table never waits on the network
and never shares its interpreter with the shipper's."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def shipper_beside(journal: str | Path, table: str, dsn: str) -> Iterator[None]:
    """Follows `journal` to the floor while the block runs; stops it after."""
    command = [sys.executable, "-m", "croupier", "ship", str(journal), "--table", table,
               "--floor", dsn]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL)
    try:
        yield
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.returncode == -signal.SIGTERM:
            # Stopped while still starting, before it could catch the signal and send the
            # table's last rows: they go now, once, if the floor answers.
            with contextlib.suppress(subprocess.TimeoutExpired):
                subprocess.run([*command, "--once"], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, timeout=30, check=False)
