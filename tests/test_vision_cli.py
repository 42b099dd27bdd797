"""`python -m vision classify|read` exactly as docs/FORMATS.md (vision) says."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware_sims.deck_maker import write_deck
from hardware_sims.scene_render import HARSH, load_faces, render_coup, render_single
from vision.design import BUILTIN

ROOT = Path(__file__).resolve().parents[1]


def _vision(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    return subprocess.run(
        [sys.executable, "-m", "vision", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env=env,
        check=False,
    )


def _lines(stdout: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in stdout.splitlines()]


def test_classify_prints_one_object_per_image_in_order(tmp_path: Path) -> None:
    photo = tmp_path / "photo.jpg"
    scene = render_single(load_faces(BUILTIN), "9D", np.random.default_rng(4), disturbance=HARSH)
    cv2.imwrite(str(photo), scene.image)
    images = [str(BUILTIN / "QH.png"), str(photo), str(BUILTIN / "7C.png")]
    done = _vision("classify", *images, "--json", cache=tmp_path)
    assert done.returncode == 0, done.stderr
    out = _lines(done.stdout)
    assert [o["image"] for o in out] == images
    assert [o["card"] for o in out] == ["QH", "9D", "7C"]
    assert all(isinstance(o["confidence"], float) and 0.5 <= o["confidence"] <= 1 for o in out)


def test_classify_declines_empty_felt_with_null(tmp_path: Path) -> None:
    felt = tmp_path / "felt.png"
    rng = np.random.default_rng(1)
    scene = render_coup(load_faces(BUILTIN), [], rng, size=(640, 480), disturbance=HARSH)
    cv2.imwrite(str(felt), scene.image)
    done = _vision("classify", str(felt), "--json", cache=tmp_path)
    assert done.returncode == 0, done.stderr
    (out,) = _lines(done.stdout)
    assert out["card"] is None
    assert isinstance(out["confidence"], float)


def test_read_prints_rows_top_down(tmp_path: Path) -> None:
    rows = [["8S", "7C", "KD", "9H"], ["AD", "2S", "JH", "QC", "TD"]]
    coup = tmp_path / "coup.png"
    scene = render_coup(load_faces(BUILTIN), rows, np.random.default_rng(9), disturbance=HARSH)
    cv2.imwrite(str(coup), scene.image)
    done = _vision("read", str(coup), "--json", cache=tmp_path)
    assert done.returncode == 0, done.stderr
    assert _lines(done.stdout) == [{"image": str(coup), "rows": rows}]


def test_deck_calibrates_on_another_design(tmp_path: Path) -> None:
    deck = tmp_path / "deck"
    write_deck(deck, seed=8)
    faces = load_faces(deck)
    coup = tmp_path / "coup.jpg"
    rows = [["KS", "4H", "TD"], ["2C", "QD", "7S", "AH"]]
    scene = render_coup(faces, rows, np.random.default_rng(2), disturbance=HARSH)
    cv2.imwrite(str(coup), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    done = _vision("read", str(coup), "--json", "--deck", str(deck), cache=tmp_path)
    assert done.returncode == 0, done.stderr
    assert _lines(done.stdout)[0]["rows"] == rows
    done = _vision("classify", str(deck / "JD.png"), "--json", "--deck", str(deck), cache=tmp_path)
    assert _lines(done.stdout)[0]["card"] == "JD"


@pytest.mark.parametrize("command", ["classify", "read"])
def test_an_unreadable_image_exits_2_with_one_line(tmp_path: Path, command: str) -> None:
    done = _vision(
        command, str(BUILTIN / "AS.png"), str(tmp_path / "gone.png"), "--json", cache=tmp_path
    )
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert "gone.png" in done.stderr
    out = _lines(done.stdout)
    assert len(out) == 2
    assert out[1]["image"] == str(tmp_path / "gone.png")


def test_a_bad_deck_exits_2_with_one_line(tmp_path: Path) -> None:
    done = _vision(
        "classify", str(BUILTIN / "AS.png"), "--json", "--deck", str(tmp_path), cache=tmp_path
    )
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert "no face image for" in done.stderr


def test_vision_imports_neither_qt_nor_the_engine() -> None:
    probe = (
        "import sys, vision.__main__, vision.layout\n"
        "bad = [m for m in sys.modules if m.startswith('PySide6')]\n"
        "assert not bad, bad\n"
        "import vision.__main__ as v\n"
        "mods = [m for m in sys.modules if m.startswith('croupier') and m not in "
        "('croupier', 'croupier.cards', 'croupier.errors', 'croupier.value')]\n"
        "assert not mods, mods\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
