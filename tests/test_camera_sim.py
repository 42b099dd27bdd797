"""The camera simulator and its helpers: deals rendered from fixtures, generated designs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from croupier.decisions import Row
from croupier.fixtures import parse_shoe
from hardware_sims.camera_sim import Pace, coups_of, deal_frames
from hardware_sims.deck_maker import make_deck, write_deck
from hardware_sims.scene_render import CARD_NAMES, GENTLE, load_faces
from vision.design import BUILTIN

ROOT = Path(__file__).resolve().parents[1]
SHOE = "4C KD 9S 2H QC  8S 7C KD 9H AD 2S JH QC TD  5H 6S"


def test_coups_are_laid_noir_row_then_rouge_row_without_the_burn() -> None:
    coups = coups_of(parse_shoe(SHOE))
    assert coups[0] == [
        (Row.NOIR, "8S"),
        (Row.NOIR, "7C"),
        (Row.NOIR, "KD"),
        (Row.NOIR, "9H"),
        (Row.ROUGE, "AD"),
        (Row.ROUGE, "2S"),
        (Row.ROUGE, "JH"),
        (Row.ROUGE, "QC"),
        (Row.ROUGE, "TD"),
    ]
    assert coups[1] == [(Row.NOIR, "5H"), (Row.NOIR, "6S")]  # unfinished, still laid


def test_frames_show_the_cards_laid_one_by_one_then_cleared() -> None:
    faces = load_faces(BUILTIN)
    pace = Pace(sliding=1, resting=2, cleared=2)
    coups = [[(Row.NOIR, "AS"), (Row.ROUGE, "KH")]]
    frames = list(
        deal_frames(
            coups, faces, np.random.default_rng(0), size=(320, 240), disturbance=GENTLE, pace=pace
        )
    )
    assert len(frames) == 2 + 2 * (1 + 2) + 2
    assert all(f.shape == (240, 320, 3) and f.dtype == np.uint8 for f in frames)
    # Paper shows as a bright share of the frame: none, some, more, none again.
    paper = [float((f.min(axis=2) > 150).mean()) for f in frames]
    assert paper[0] < 0.01
    assert paper[-1] < 0.01
    assert 0.01 < paper[4] < paper[7]


def test_the_simulator_writes_a_frame_folder_and_a_video(tmp_path: Path) -> None:
    shoe = tmp_path / "short.shoe"
    shoe.write_text("4C KD 9S 2H QC\n8S 7C KD 9H AD 2S JH QC TD\n")
    for out in (tmp_path / "frames", tmp_path / "deal.avi"):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "hardware_sims.camera_sim",
                str(shoe),
                str(out),
                "--size",
                "320x180",
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "frames of 1 coups" in done.stdout
    assert len(list((tmp_path / "frames").glob("frame_*.png"))) > 40
    capture = cv2.VideoCapture(str(tmp_path / "deal.avi"))
    try:
        assert capture.isOpened()
        assert int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) > 40
    finally:
        capture.release()


def test_the_simulator_refuses_a_bad_fixture_with_one_line(tmp_path: Path) -> None:
    shoe = tmp_path / "bad.shoe"
    shoe.write_text("4C KD XX\n")
    done = subprocess.run(
        [sys.executable, "-m", "hardware_sims.camera_sim", str(shoe), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "XX" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_generated_designs_differ_by_seed_and_have_every_face(tmp_path: Path) -> None:
    write_deck(tmp_path, seed=4)
    faces = load_faces(tmp_path)
    assert sorted(faces) == sorted(CARD_NAMES)
    assert all(face.shape[2] == 4 for face in faces.values())
    other = make_deck(seed=5)
    assert not np.array_equal(other["QH"], faces["QH"])
    assert len({face.tobytes() for face in faces.values()}) == len(CARD_NAMES)
