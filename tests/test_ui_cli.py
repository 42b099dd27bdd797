"""`croupier screenshot` and `croupier ui`: pictures offscreen, the demo with and without a
display."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from app.ui_commands import has_display, main
from tests.test_ui_support import FIXTURES

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("view", ["dealer", "audit", "replay"])
def test_screenshot_writes_a_png_of_the_view(qtbot, tmp_path, view, capsys) -> None:
    out = tmp_path / f"{view}.png"
    args = [str(out), "--view", view, "--after", "2", "--size", "1600x1000",
            "--fixture", str(FIXTURES / "couleur_calls.shoe")]
    assert main("screenshot", args) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1600, 1000)
    assert f"the {view} view after coup 2 of couleur_calls.shoe" in capsys.readouterr().out


def test_screenshot_default_is_the_demo_shoe_after_the_first_coup(qtbot, tmp_path,
                                                                  capsys) -> None:
    assert main("screenshot", [str(tmp_path / "shot.png")]) == 0
    assert "dealer view after coup 1 of demo shoe" in capsys.readouterr().out
    assert not QImage(str(tmp_path / "shot.png")).isNull()


def test_screenshot_of_a_bad_fixture_exits_2_naming_it(qtbot, tmp_path, capsys) -> None:
    bad = tmp_path / "bad.shoe"
    bad.write_text("QH ZZ\n", encoding="utf-8")
    assert main("screenshot", [str(tmp_path / "x.png"), "--fixture", str(bad)]) == 2
    assert "bad token 'ZZ'" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_screenshot_to_an_unwritable_place_exits_2(qtbot, tmp_path, capsys) -> None:
    assert main("screenshot", [str(tmp_path / "no-such-folder" / "x.png")]) == 2
    assert "cannot write" in capsys.readouterr().err


def _headless(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)


def test_demo_without_a_display_prints_the_transcript(monkeypatch, capsys) -> None:
    _headless(monkeypatch)
    assert main("ui", ["--demo", "--seed", "7"]) == 0
    captured = capsys.readouterr()
    assert "no display" in captured.err
    assert "Demo shoe, seed 7" in captured.out
    assert "End of the shoe" in captured.out


def test_an_offscreen_platform_is_no_display_for_the_window(monkeypatch, capsys) -> None:
    _headless(monkeypatch)
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert main("ui", ["--demo", "--seed", "3"]) == 0
    assert "Demo shoe, seed 3" in capsys.readouterr().out


def test_ui_for_a_real_table_without_a_display_exits_2(monkeypatch, capsys) -> None:
    _headless(monkeypatch)
    assert main("ui", ["--shoe", "/dev/null"]) == 2
    assert "no display" in capsys.readouterr().err


def test_demo_window_paints_its_first_frame(tmp_path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "ui", "--demo", "--first-frame", "--pace", "0.05",
         "--journal", str(tmp_path / "demo.db")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=30, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("first frame at ")
    assert (tmp_path / "demo.db").exists()


@pytest.mark.parametrize(
    ("env", "shown"),
    [
        ({}, False),
        ({"DISPLAY": ":0"}, True),
        ({"WAYLAND_DISPLAY": "wayland-0"}, True),
        ({"QT_QPA_PLATFORM": "xcb"}, True),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, False),
        ({"QT_QPA_PLATFORM": "minimal:enable_fonts"}, False),
    ],
)
def test_has_display(monkeypatch, env, shown) -> None:
    _headless(monkeypatch)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "platform", "linux")
    assert has_display() is shown


def test_the_kiosk_opens_full_screen_in_the_casinos_zone(tmp_path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "ui", "--demo", "--first-frame", "--pace", "0.05",
         "--kiosk", "--tz", "Europe/Monaco", "--journal", str(tmp_path / "kiosk.db")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=30, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("first frame at ")


def test_an_unknown_time_zone_is_one_line(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main("ui", ["--demo", "--tz", "Europe/Atlantis"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("croupier ui: argument --tz: no time zone 'Europe/Atlantis'")
    assert "\n" not in err
