"""Bad input anywhere is a one-line error with exit 2 (or an alarm on a live line), never a
traceback or a hang: the cases a second reader found."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.reading import pump
from croupier.cards import Card
from croupier.events import CardDrawn, DeviceAlarm
from drivers.serial_shoe import Batch

DECK = Path(__file__).resolve().parents[1] / "vision" / "designs" / "heruka-2color"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=60,
                          check=False)


def one_line(done: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr
    lines = [ln for ln in done.stderr.splitlines() if "propagateSizeHints" not in ln]
    assert len(lines) == 1, done.stderr
    return lines[0]


def _sliver(path: Path) -> Path:
    import cv2
    import numpy as np

    cv2.imwrite(str(path), np.full((1, 5000, 3), 200, np.uint8))
    return path


def test_a_sliver_of_an_image_names_nothing(tmp_path: Path) -> None:
    done = run("-m", "vision", "classify", str(_sliver(tmp_path / "thin.png")), "--json")
    assert done.returncode == 0, done.stderr
    assert '"card": null' in done.stdout


def test_a_deck_face_that_is_no_card_is_named(tmp_path: Path) -> None:
    deck = tmp_path / "deck"
    shutil.copytree(DECK, deck)
    _sliver(deck / "QH.png")
    line = one_line(run("-m", "vision", "classify", str(DECK / "QH.png"), "--json", "--deck",
                        str(deck)))
    assert "QH.png" in line
    assert "not a card face" in line


def test_a_reader_that_fails_says_so_instead_of_falling_silent() -> None:
    def broken() -> Iterator[Batch]:
        yield Batch((CardDrawn(Card.parse("AS")),))
        raise ValueError("a frame the reader could not take")

    items = list(pump("camera 0", broken()))
    assert len(items) == 2
    (alarm,) = items[1].events
    assert isinstance(alarm, DeviceAlarm)
    assert "could not take" in alarm.text


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["table", "--shoe", "foo://bar", "--no-journal"], "not a port"),
        (["table", "--backend", "sim", "--shoe", "/no/such.shoe", "--no-journal"],
         "did not start"),
        (["table", "--no-journal"], "--shoe, --camera, or both"),
        (["table", "--shoe", "/dev/null", "--camera", "/no/such/frames", "--no-journal"],
         "no such camera"),
        (["screenshot", "OUT.png", "--after", "999"], "has no coup 999"),
        (["ui", "--demo", "--pace", "nan"], "--pace"),
    ],
)
def test_croupier_commands_refuse_bad_values(tmp_path: Path, args: list[str], words: str) -> None:
    args = [str(tmp_path / a) if a == "OUT.png" else a for a in args]
    assert words in one_line(run("-m", "croupier", *args))


@pytest.mark.parametrize(
    ("module", "args", "words"),
    [
        ("hardware_sims.shoe_sim", ["--dialect", "bee", "--pace", "nan"], "--pace"),
        ("hardware_sims.shoe_sim", ["--dialect", "bee", "--linger", "-1"], "--linger"),
        ("hardware_sims.shoe_sim", ["--dialect", "bee", "--listen", "127.0.0.1:99999"],
         "--listen"),
        ("hardware_sims.camera_sim", ["OUT", "--size", "0x0"], "--size"),
        ("hardware_sims.camera_sim", ["OUT", "--fps", "nan"], "--fps"),
    ],
)
def test_simulators_refuse_bad_values(
    tmp_path: Path, module: str, args: list[str], words: str
) -> None:
    fixture = tmp_path / "f.shoe"
    fixture.write_text("2C 3C 4C 5C 6C KS KC KD AS KH KD TS 2H\n")
    args = [str(tmp_path / a) if a == "OUT" else a for a in args]
    assert words in one_line(run("-m", module, str(fixture), *args))


def test_decode_without_stdin_or_room_for_its_output(tmp_path: Path) -> None:
    # A program started with its standard input closed (`<&-`) has `sys.stdin` None.
    closed = run("-c", "import sys; sys.stdin = None; from app.cli import main; "
                       "sys.exit(main(['decode', '-', '--dialect', 'bee']))")
    assert "no standard input" in one_line(closed)
    noise = tmp_path / "noise.bin"
    noise.write_bytes(bytes(range(256)) * 20)
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "croupier", "decode", str(noise),
                               "--dialect", "bee"], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert "cannot write the output" in done.stderr
    assert "Traceback" not in done.stderr
