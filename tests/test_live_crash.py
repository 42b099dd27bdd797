"""A live `croupier table` (and `croupier ui`) on a simulated shoe, killed with SIGKILL at
random points of the shoe while the shoe goes on dealing, and started again on the same
port: on the native
protocol the journal then holds exactly the shoe as dealt (the restarted table asks the shoe
to resend from the first frame it had not journaled); on angel and bee, which cannot resend,
it holds the shoe with at most one gap, where a "table was down" alarm stands — never a card
doubled or invented. `make crash` runs 30 kills a dialect; `make test` a few."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from croupier.decision_records import decision_record
from croupier.events import CardDrawn, CutCard
from croupier.fixtures import render_shoe
from croupier.jsonout import dumps
from croupier.rulebook import load_rulebook
from croupier.shuffle import regulation_shoe
from croupier.table import Table
from hardware_sims.sim_process import running_simulator
from journal.store import Journal, JournalError, verify

KILLS = int(os.environ.get("CROUPIER_CRASH_KILLS", "2"))
PACE = 0.005  # a card every 5 ms: a whole shoe in under two seconds


def _tokens(events: list[CardDrawn | CutCard]) -> list[str]:
    return ["cut" if isinstance(e, CutCard) else str(e.card) for e in events]


def _until_settled(journal: Path, count: int, within: float) -> None:
    """Until the whole shoe is journaled, or no card has come for three seconds (a shoe that
    cannot resend: what it dealt while the table was down is not coming)."""
    deadline = time.monotonic() + within
    seen, quiet_since = -1, time.monotonic()
    while time.monotonic() < deadline:
        with contextlib.suppress(JournalError):
            now = len(_journaled(journal)[0])
            if now >= count:
                return
            if now != seen:
                seen, quiet_since = now, time.monotonic()
        if time.monotonic() - quiet_since > 3.0:
            return
        time.sleep(0.05)


def _until_still(journal: Path, still: float, within: float) -> None:
    deadline = time.monotonic() + within
    rows, since = -1, time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - since < still:
        with contextlib.suppress(JournalError), Journal(journal, readonly=True) as opened:
            now = sum(1 for _ in opened.rows())
            if now != rows:
                rows, since = now, time.monotonic()
        time.sleep(0.05)


def _coups(path: Path) -> list[dict[str, object]]:
    """The coups the journal's decisions announced."""
    with Journal(path, readonly=True) as journal:
        return [d for row in journal.rows("decisions") for d in row.data()["decisions"]
                if d.get("event") == "coup"]


def _uninterrupted(shoe: list[CardDrawn | CutCard]) -> list[dict[str, object]]:
    table = Table(load_rulebook("venezia"))
    records = [decision_record(d) for event in shoe for d in table.apply(event)]
    return [json.loads(dumps(r)) for r in records if r.get("event") == "coup"]


def _journaled(path: Path) -> tuple[list[str], list[int]]:
    """The shoe's cards and cut as journaled, and where "table was down" alarms stand."""
    tokens: list[str] = []
    gaps: list[int] = []
    with Journal(path, readonly=True) as journal:
        for row in journal.rows("input"):
            body = row.data()
            if body["type"] == "card":
                tokens.append(body["card"])
            elif body["type"] == "cut":
                tokens.append("cut")
            elif body["type"] == "device_alarm" and "the table was down" in body["text"]:
                gaps.append(len(tokens))
    return tokens, gaps


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _table(command: str, url: str, dialect: str, journal: Path) -> subprocess.Popen[bytes]:
    # The screen on Qt's VNC platform: a real window that nobody needs to be at.
    env = {**os.environ, "QT_QPA_PLATFORM": f"vnc:port={_free_port()}"}
    return subprocess.Popen(
        [sys.executable, "-m", "croupier", command, "--shoe", url, "--dialect", dialect,
         "--journal", str(journal)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env=env)


def _until_dealt(journal: Path, count: int, within: float) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        with contextlib.suppress(JournalError):  # a journal the table is still making
            if len(_journaled(journal)[0]) >= count:
                return
        time.sleep(0.02)
    raise AssertionError(f"{journal}: fewer than {count} cards after {within} s")


@pytest.mark.timeout(120 + 60 * KILLS)
@pytest.mark.parametrize(("command", "dialect"), [
    ("table", "native"), ("table", "angel"), ("table", "bee"), ("ui", "native"), ("ui", "bee"),
])
def test_a_live_table_killed_mid_shoe_resumes_it(
    tmp_path: Path, command: str, dialect: str,
) -> None:
    rng = random.Random(f"crash {command} {dialect}")
    kill_points = []
    for trial in range(KILLS):
        shoe = [e for e in regulation_shoe(random.Random(rng.random()), face_up_rate=0.0)
                if isinstance(e, CardDrawn | CutCard)]
        expected = _tokens(shoe)
        fixture = tmp_path / f"shoe{trial}.shoe"
        fixture.write_text(render_shoe(shoe))
        journal = tmp_path / f"{dialect}{trial}.db"
        with running_simulator(fixture, dialect, "--pace", str(PACE)) as url:
            first = _table(command, url, dialect, journal)
            try:
                # each trial is killed in a stretch of the shoe of its own: on a loaded
                # machine a table reads in bursts, and two kills timed at random had
                # landed on the same card
                stretch = 0.9 * len(expected) / KILLS
                kill_at = rng.randint(int(trial * stretch) + 1, int((trial + 1) * stretch))
                _until_dealt(journal, kill_at, within=60)
            finally:
                first.send_signal(signal.SIGKILL)  # a power cut: nothing of the table runs
                first.wait(timeout=30)
            time.sleep(rng.uniform(0.0, 0.3))  # the shoe deals on while the table is down
            kill_points.append(len(_journaled(journal)[0]))
            second = _table(command, url, dialect, journal)
            try:
                _until_settled(journal, len(expected), within=30)
                # the decisions on a resent batch, and anything more the table would
                # (wrongly) journal: until the journal has been still for a while
                _until_still(journal, still=0.5, within=15)
            finally:
                second.terminate()
                second.wait(timeout=30)
        tokens, gaps = _journaled(journal)
        assert verify(journal).intact
        if dialect == "native":
            assert tokens == expected, f"trial {trial}: killed after {kill_points[-1]} cards"
            assert gaps == []
            assert _coups(journal) == _uninterrupted(shoe), f"trial {trial}"
            continue
        # Angel and bee: the shoe's order, one gap at most, and the gap alarmed.
        assert len(gaps) <= 1
        at = gaps[0] if gaps else len(tokens)
        assert tokens[:at] == expected[:at], f"trial {trial}"
        rest = tokens[at:]
        assert rest == expected[len(expected) - len(rest):], f"trial {trial}"
        if len(tokens) < len(expected):
            assert gaps, f"trial {trial}: {len(expected) - len(tokens)} cards lost silently"
    # The kills fell in the shoe, at different points.
    assert len(set(kill_points)) >= min(KILLS, 2), kill_points
