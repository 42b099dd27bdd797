"""`croupier decode` and `croupier table` as a user runs them."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from croupier.cards import Card
from croupier.engine import play
from croupier.fixtures import parse_shoe
from croupier.rulebook import load_rulebook
from croupier.transcript import describe
from drivers import angel
from drivers.checks import crc16_ccitt
from drivers.messages import CardRead
from hardware_sims.sim_process import running_simulator

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "hardware-sims" / "fixtures" / "wire_faceup_short.shoe"
BEE = b" [Game]<Card:4S>  [Game]<Game>  \x00\xff [Manual Burn Cards]<Card:H3> "
KINDS = {"card", "cut", "misread", "alarm", "garbage"}


def croupier(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "croupier", *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        check=False,
    )


def test_decode_json_prints_one_object_per_message(tmp_path: Path) -> None:
    capture = tmp_path / "bee.bin"
    capture.write_bytes(BEE)
    done = croupier("decode", str(capture), "--dialect", "bee", "--json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert lines == [
        {"kind": "card", "card": "4S"},
        {"kind": "misread"},
        {"kind": "garbage", "bytes": 2},
        {"kind": "card", "card": "3H"},
    ]
    assert {line["kind"] for line in lines} <= KINDS


def test_decode_reads_stdin_and_prints_readable_lines() -> None:
    done = croupier("decode", "-", "--dialect", "bee", stdin=BEE)
    assert done.returncode == 0
    assert done.stdout.decode().splitlines() == [
        "card   4S",
        "misread",
        "garbage  2 byte(s)",
        "card   3H",
    ]


@pytest.mark.parametrize("dialect", ["native", "angel", "bee"])
def test_decode_of_pure_noise_exits_0(dialect: str) -> None:
    done = croupier("decode", "-", "--dialect", dialect, "--json", stdin=bytes(range(256)) * 4)
    assert done.returncode == 0, done.stderr
    for line in done.stdout.decode().splitlines():
        assert json.loads(line)["kind"] in KINDS


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["decode", "/no/such/capture.bin", "--dialect", "bee"], "/no/such/capture.bin"),
        (["decode", "-", "--dialect", "morse"], "morse"),
        (["decode", "-"], "--dialect"),
        (["table", "--shoe", "x", "--rules", "nowhere"], "nowhere"),
        (["table"], "--shoe"),
        (["table", "--shoe", "/no/such.shoe", "--backend", "replay"], "/no/such.shoe"),
        (["decode", "-", "--dialect", "angel", "--seq-range", "9-3"], "9-3"),
    ],
)
def test_bad_usage_exits_2_with_one_line_naming_it(args: list[str], named: str) -> None:
    done = croupier(*args)
    assert done.returncode == 2
    message = done.stderr.decode().strip()
    assert len(message.splitlines()) == 1, message
    assert named in message


def test_decode_with_angel_s_range_set_reports_a_loss_across_its_wrap() -> None:
    cards = [CardRead(Card.parse(text)) for text in ("4S", "QH")]
    data = b"".join(
        angel.encode_frame(seq, angel.message_data(card), crc16_ccitt) * 3
        for seq, card in zip((0x38, 0x31), cards, strict=True)
    )
    learned = croupier("decode", "-", "--dialect", "angel", "--json", stdin=data)
    assert [json.loads(line)["kind"] for line in learned.stdout.decode().splitlines()] == [
        "card",
        "card",
    ]
    done = croupier(
        "decode", "-", "--dialect", "angel", "--json", "--seq-range", "48-57", stdin=data
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert lines[1] == {"kind": "alarm", "text": "lost: seq 57..48 never arrived", "lost": 2}


def expected_lines() -> list[str]:
    events = parse_shoe(FIXTURE.read_text(encoding="utf-8"))
    decisions = play(events, load_rulebook("venezia"))
    return [line for d in decisions for line in describe(d)]


def test_table_on_a_fixture_prints_the_coups_as_they_unfold() -> None:
    done = croupier("table", "--shoe", str(FIXTURE), "--backend", "replay")
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines() == expected_lines()
    assert "rouge gagne, la couleur perd" in done.stdout.decode()


@pytest.mark.parametrize(
    ("dialect", "ignored"), [("native", False), ("bee", True)], ids=["native", "bee-bg-job"]
)
def test_table_on_a_live_shoe_stops_cleanly_on_ctrl_c(dialect: str, ignored: bool) -> None:
    want = expected_lines()
    with running_simulator(FIXTURE, dialect, "--pace", "0.002") as url:
        command = [sys.executable, "-m", "croupier", "table", "--shoe", url, "--dialect", dialect]
        if ignored:  # what a shell does to a background job: Ctrl-C must stop it all the same
            command = ["sh", "-c", 'trap "" INT; exec "$@"', "sh", *command]
        table = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        watchdog = threading.Timer(15.0, table.kill)  # a silent table must not hang the test
        watchdog.start()
        try:
            assert table.stdout is not None
            lines = [table.stdout.readline().rstrip("\n") for _ in want]
            table.send_signal(signal.SIGINT)
            start = time.monotonic()
            _, err = table.communicate(timeout=10)
        finally:
            watchdog.cancel()
            watchdog.join()
            if table.poll() is None:
                table.kill()
                table.communicate()
        assert time.monotonic() - start < 5
    assert lines == want
    assert table.returncode == 0, err
    assert "stopped" in err
    assert "Traceback" not in err


def test_a_serial_table_never_loads_opencv() -> None:
    script = (
        "import sys, io, contextlib\n"
        "from app import shoe_commands as cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = cli.main('table', ['--shoe', {str(FIXTURE)!r}, '--backend', 'replay'])\n"
        "print(code, 'cv2' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stdout.split() == ["0", "False"], done.stderr


def test_a_camera_that_cannot_be_opened_is_named() -> None:
    done = croupier("table", "--camera", "/no/such/camera-folder")
    assert done.returncode == 2
    assert "/no/such/camera-folder" in done.stderr.decode()
