"""What the process tests share: `croupier` run as a process, and a journal with a coup
dealt into it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from croupier.fixtures import parse_shoe
from croupier.rulebook import load_rulebook
from journal.live import JournaledTable

VENEZIA = load_rulebook("venezia")


def croupier(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "croupier", *args], input=stdin,
                          capture_output=True, text=True, timeout=60, check=False)


def dealt(path: Path, text: str = "2C 3C 4C 5C 6C KS KC 9H") -> None:
    live = JournaledTable.open(path, VENEZIA)
    for event in parse_shoe(text):
        live.apply(event)
    live.close()


