"""Simulator → pty (or TCP) → driver → engine gives what `croupier replay` gives for the same
fixture, in every dialect; under injected faults the native protocol loses nothing and the
dialects report every loss they cannot recover."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from croupier.engine import play
from croupier.events import CardUnread, DeviceAlarm, ShoeEmpty, ShoeEvent
from croupier.fixtures import parse_shoe
from croupier.jsonout import decision_json
from croupier.rulebook import load_rulebook
from drivers.dialects import DecoderOptions
from drivers.serial_shoe import Backoff, SerialShoe
from hardware_sims.sim_process import running_simulator

FIXTURES = Path(__file__).resolve().parents[1] / "hardware-sims" / "fixtures"
REGULATION = FIXTURES / "regulation.shoe"
FACE_UP = FIXTURES / "wire_faceup_short.shoe"
DEADLINE = 15.0
QUIET = 1.0  # no event for this long on a lossy line: nothing more is coming
FAST = DecoderOptions(resend_after=0.05)  # a simulator on a pty answers in a millisecond
# ... when it runs. On a loaded machine its process may go unscheduled for longer than
# five requests take, and the receiver rightly gives up on a frame the simulator would have
# resent (ten of these tests at once, load average 12: lost frames with 0.05 s and 0.5 s,
# none with 1 s). A request costs nothing until it goes unanswered, so the tests that must
# lose nothing wait that long.
PATIENT = DecoderOptions(resend_after=1.0)
FLAGS = DeviceAlarm | CardUnread


def expected(fixture: Path) -> list[ShoeEvent]:
    return parse_shoe(fixture.read_text(encoding="utf-8"))


def replayed(events: list[ShoeEvent]) -> list[object]:
    """What `croupier replay --json` prints for these events."""
    decisions = play([*events, ShoeEmpty()], load_rulebook("venezia"))
    return [j for d in decisions if (j := decision_json(d)) is not None]


def read_shoe(
    url: str,
    dialect: str,
    want: int,
    options: DecoderOptions = FAST,
    *,
    quiet: float | None = None,
) -> list[ShoeEvent]:
    """Reads until `want` card, unread card and cut events came or the deadline; with `quiet`, also
    when no event came for that long (a lossy line may never deliver `want`)."""
    shoe = SerialShoe(url, dialect, options=options, backoff=Backoff(first=0.02, limit=0.2))
    got: list[ShoeEvent] = []
    thread = threading.Thread(target=lambda: got.extend(shoe.events()), name="test-reader")
    thread.start()
    start = last_change = time.monotonic()
    seen = 0
    try:
        while time.monotonic() - start < DEADLINE:
            time.sleep(0.02)
            if len(got) != seen:
                seen, last_change = len(got), time.monotonic()
            cards = sum(1 for e in list(got) if not isinstance(e, DeviceAlarm))
            silent = time.monotonic() - last_change
            if cards >= want or (quiet is not None and seen and silent > quiet):
                break
    finally:
        shoe.close()
        thread.join(5.0)
    assert not thread.is_alive()
    return got


def unreported_losses(want: list[ShoeEvent], got: list[ShoeEvent]) -> list[str]:
    """Aligns what came (`got`) with the shoe (`want`): every run of expected events missing
    must have an alarm just before the event after it, or as many unread cards; every event
    that came must be in the shoe, in order. Among all alignments the kindest is taken
    (repeated cards allow several), so a failure is a real unreported loss or a wrong reading."""
    cards: list[ShoeEvent] = []
    cover: list[int] = []  # how many missing events the flags before cards[k] account for
    alarm, unread = False, 0
    for event in got:
        if isinstance(event, DeviceAlarm):
            alarm = True
        elif isinstance(event, CardUnread):
            unread += 1
        else:
            cards.append(event)
            cover.append(len(want) if alarm else unread)
            alarm, unread = False, 0
    cover.append(len(want) if alarm else unread)
    infinity = 10 * len(want) + 10
    # cost[j]: fewest events lost without an alarm when the last card so far is want[j - 1]
    # (cost[0]: no card yet)
    cost = [0] + [infinity] * len(want)
    for k, card in enumerate(cards):
        new = [infinity] * (len(want) + 1)
        for here in range(1, len(want) + 1):
            if want[here - 1] == card:
                new[here] = min(cost[j] + max(0, here - j - 1 - cover[k]) for j in range(here))
        if min(new) >= infinity:
            return [f"{card} (arrival {k}) is not in the shoe where it could be"]
        cost = new
    lost = min(c + max(0, len(want) - j - cover[-1]) for j, c in enumerate(cost))
    return [f"{lost} event(s) lost without an alarm"] if lost else []


@pytest.mark.parametrize("dialect", ["native", "angel", "bee"])
@pytest.mark.parametrize("fixture", [REGULATION, FACE_UP], ids=["regulation", "face_up"])
def test_a_clean_line_gives_what_replay_gives(dialect: str, fixture: Path) -> None:
    want = expected(fixture)
    with running_simulator(fixture, dialect) as url:
        got = read_shoe(url, dialect, len(want))
    assert got == want
    assert replayed(got) == replayed(want)


def test_a_loopback_tcp_port_works_as_well() -> None:
    want = expected(FACE_UP)
    with running_simulator(FACE_UP, "native", listen="127.0.0.1:0") as url:
        assert url.startswith("socket://127.0.0.1:")
        got = read_shoe(url, "native", len(want))
    assert got == want


LINE_NOISE = "flip=0.003,drop-byte=0.003,dup-byte=0.003,drop-frame=0.05,dup-frame=0.05"


@pytest.mark.parametrize("seed", [1, 2])
def test_native_loses_nothing_under_line_noise(seed: int) -> None:
    want = expected(REGULATION)
    options = ("--faults", LINE_NOISE, "--seed", str(seed), "--pace", "0.002", "--heartbeat", "0.1")
    with running_simulator(REGULATION, "native", *options) as url:
        got = read_shoe(url, "native", len(want), PATIENT)
    assert got == want
    assert replayed(got) == replayed(want)


@pytest.mark.parametrize("listen", [None, "127.0.0.1:0"], ids=["pty", "tcp"])
def test_native_loses_nothing_when_the_cable_is_pulled(listen: str | None) -> None:
    want = expected(REGULATION)
    options = (
        "--faults",
        "unplug=100@0.3,drop-frame=0.02",
        "--pace",
        "0.002",
        "--heartbeat",
        "0.1",
    )
    with running_simulator(REGULATION, "native", *options, listen=listen) as url:
        got = read_shoe(url, "native", len(want), PATIENT)
    alarms = [e for e in got if isinstance(e, DeviceAlarm)]
    assert alarms, "pulling the cable must raise an alarm"
    assert all("port" in a.text for a in alarms), alarms
    clean = [e for e in got if not isinstance(e, DeviceAlarm)]
    assert clean == want
    assert replayed(clean) == replayed(want)


@pytest.mark.parametrize(
    ("dialect", "faults", "check"),
    [
        ("angel", "flip=0.004,drop-byte=0.004,dup-byte=0.004,drop-frame=0.2", "none"),
        ("angel", "flip=0.004,drop-frame=0.3,dup-frame=0.1", "crc16-ccitt"),
        ("bee", "drop-byte=0.01", "none"),
        ("angel", "unplug=60@0.2", "none"),
        ("bee", "unplug=60@0.2", "none"),
    ],
)
def test_a_dialect_reports_every_loss_it_cannot_recover(
    dialect: str, faults: str, check: str
) -> None:
    want = expected(REGULATION)
    options = ("--faults", faults, "--seed", "7", "--pace", "0.004", "--check", check)
    with running_simulator(REGULATION, dialect, *options) as url:
        got = read_shoe(url, dialect, len(want), DecoderOptions(check=check), quiet=QUIET)
    assert unreported_losses(want, got) == []
    assert len([e for e in got if not isinstance(e, FLAGS)]) > len(want) // 2


def test_angel_with_a_known_check_needs_only_one_good_copy() -> None:
    want = expected(REGULATION)
    faults = ("--faults", "drop-frame=0.2", "--seed", "3", "--pace", "0.001")
    check = ("--check", "crc16-ccitt")
    with running_simulator(REGULATION, "angel", *faults, *check) as url:
        got = read_shoe(url, "angel", len(want), DecoderOptions(check="crc16-ccitt"), quiet=QUIET)
    # only a message whose three copies were all lost (0.8 %) may be missing, and reported
    assert unreported_losses(want, got) == []
    lost = [e for e in got if isinstance(e, DeviceAlarm)]
    assert len(lost) <= 8
    assert len([e for e in got if not isinstance(e, FLAGS)]) >= len(want) - 8


def test_the_loss_checker_catches_a_silent_loss() -> None:
    want = expected(FACE_UP)
    assert unreported_losses(want, want[:3] + want[4:]) != []
    assert unreported_losses(want, [*want[:3], DeviceAlarm("t", "lost"), *want[4:]]) == []
    assert unreported_losses(want, want[:-1]) != []
    unread = CardUnread("t", guess=None)
    assert unreported_losses(want, [*want[:3], unread, *want[4:]]) == []
    assert unreported_losses(want, [*want[:3], unread, *want[5:]]) != []


def test_a_shoe_s_misreads_reach_the_engine_as_unread_cards() -> None:
    want = expected(REGULATION)
    options = ("--faults", "misread=0.05", "--seed", "5")
    with running_simulator(REGULATION, "native", *options) as url:
        got = read_shoe(url, "native", len(want))
    unread = [e for e in got if isinstance(e, CardUnread)]
    assert unread
    assert all(e.guess is None for e in unread)
    assert unreported_losses(want, got) == []
    assert len(got) == len(want)
