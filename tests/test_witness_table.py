"""The shoe and the camera together: the shoe's cards are played, the camera witnesses them,
and every fault on either side is alarmed before the coup's call; a clean shoe raises none."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from app.memory_table import MemoryTable
from app.reading import opened
from app.runtime import Runtime, TextSink
from croupier.engine import play
from croupier.events import CardDrawn, ShoeEvent
from croupier.fixtures import parse_shoe
from croupier.rulebook import load_rulebook
from croupier.transcript import describe
from drivers.backends import CameraWitness, ShoeSource, open_backend
from drivers.serial_shoe import Batch
from hardware_sims.camera_sim import Mislaying, Pace, coups_of, deal_frames, write_frames
from hardware_sims.scene_render import GENTLE
from hardware_sims.sim_process import running_simulator

SIZE = (960, 540)
PACE = Pace(sliding=2, resting=4, cleared=4)
# Three coups after the burn: noir 34 / rouge 33 (rouge wins), an après at 32, rouge at 31.
FIXTURE = """
4C KD 9S 2H QC            # burn
8S 7C KD 9H  AD 2S JH QC TD
TS 9D KC 3H  JS 5C 8D 9H
QD 8C 6S 9C  KH 7D 4S TC
"""
WITNESS = "camera witness"
CLEAN = Mislaying()


class _Counted:
    """A live shoe, ended once it has sent so many cards (a live shoe never ends)."""

    def __init__(self, shoe: ShoeSource, cards: int) -> None:
        self._shoe, self._cards = shoe, cards

    def events(self) -> Iterator[ShoeEvent]:
        return (e for b in self.batches() for e in b.events)

    def batches(self) -> Iterator[Batch]:
        for batch in self._shoe.batches():
            yield batch
            self._cards -= sum(isinstance(e, CardDrawn) for e in batch.events)
            if self._cards <= 0:
                self._shoe.close()
                return

    def close(self) -> None:
        self._shoe.close()


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "vision-cache"))


def _frames(faces: dict[str, np.ndarray], mislaying: Mislaying) -> Iterator[np.ndarray]:
    coups = coups_of(parse_shoe(FIXTURE))
    return deal_frames(coups, faces, np.random.default_rng(5), size=SIZE, disturbance=GENTLE,
                       pace=PACE, mislaying=mislaying)


def _play(faces: dict[str, np.ndarray], shoe: str, mislaying: Mislaying = CLEAN, *,
          dialect: str = "", cards: int = 0) -> list[str]:
    """The lines the table prints, dealt by the fixture file `shoe` (or by the shoe at the
    port `shoe` in `dialect`, until it has sent `cards`) and witnessed by the camera over a
    deal laid with `mislaying`."""
    source: ShoeSource
    if dialect:
        source = _Counted(open_backend("serial", shoe, dialect=dialect), cards)
    else:
        source = open_backend("replay", shoe)
    out = io.StringIO()
    table = MemoryTable(load_rulebook("venezia"))
    Runtime(lambda: table, [opened("shoe", source, resends=None)], TextSink(out, out, ""),
            camera=CameraWitness(_frames(faces, mislaying)), until_sources_end=True).run()
    return out.getvalue().splitlines()


@pytest.fixture
def fixture(tmp_path: Path) -> str:
    path = tmp_path / "three.shoe"
    path.write_text(FIXTURE, encoding="utf-8")
    return str(path)


def _before_the_call(lines: list[str]) -> list[str]:
    """The witness's alarms printed before the first coup is called."""
    call = next(i for i, line in enumerate(lines) if line.startswith("Coup 1"))
    return [line for line in lines[:call] if WITNESS in line]


def test_a_clean_shoe_raises_no_alarm(faces: dict[str, np.ndarray], fixture: str) -> None:
    lines = _play(faces, fixture)
    assert not [line for line in lines if "alarm" in line.lower() or WITNESS in line], lines
    assert lines == _replayed()


def _replayed() -> list[str]:
    """What the table prints for the fixture with no camera."""
    decisions = play(parse_shoe(FIXTURE), load_rulebook("venezia"))
    return [line for d in decisions for line in describe(d)]


@pytest.mark.parametrize(
    ("mislaying", "words"),
    [
        (Mislaying(switched={(0, 6): "5H"}),
         "rouge row's 3rd card: the shoe read JH, the baize shows 5H"),
        # The card that decides the coup, switched: alarmed before it is played.
        (Mislaying(switched={(0, 8): "5D"}),
         "rouge row's 5th card: the shoe read TD, the baize shows 5D"),
        # The first card of the rouge row laid at the end of the noir row.
        (Mislaying(wrong_row=frozenset({(0, 4)})), "noir row's 5th card: AD lies there"),
    ],
    ids=["switched", "switched-decisive", "wrong-row"],
)
def test_a_fault_on_the_baize_is_alarmed_before_the_call(
    faces: dict[str, np.ndarray], fixture: str, mislaying: Mislaying, words: str
) -> None:
    lines = _play(faces, fixture, mislaying)
    alarms = _before_the_call(lines)
    assert len(alarms) == 1, lines
    assert "coup 1" in alarms[0]
    assert words in alarms[0]
    # The shoe keeps the record: the coup is played as the shoe read it.
    assert [line for line in lines if WITNESS not in line] == _replayed()


def test_a_frame_lost_on_a_bee_link_is_alarmed_before_the_call(
    faces: dict[str, np.ndarray], fixture: str
) -> None:
    # With this seed the simulator loses the ninth message (9H, coup 1's fourth card) whole,
    # which the bee protocol cannot tell: the shoe then deals AD to the noir row.
    with running_simulator(fixture, "bee", "--faults", "drop-frame=0.05", "--seed", "17") as url:
        lines = _play(faces, url, dialect="bee", cards=29)
    assert "  noir   9H  -> 34" not in lines  # the shoe never read it
    alarms = _before_the_call(lines)
    assert alarms, lines
    assert "coup 1" in alarms[0]
    assert "noir row's 4th card: the shoe read AD, the baize shows 9H" in alarms[0]


def test_croupier_table_takes_a_shoe_and_a_camera_and_journals_the_alarm(
    faces: dict[str, np.ndarray], fixture: str, tmp_path: Path
) -> None:
    frames = tmp_path / "frames"
    write_frames(_frames(faces, Mislaying(switched={(0, 6): "5H"})), frames)
    journal = tmp_path / "table.db"
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "table", "--shoe", fixture, "--backend", "replay",
         "--camera", str(frames), "--journal", str(journal)],
        capture_output=True, text=True, timeout=240, check=False,
    )
    assert done.returncode == 0, done.stderr
    alarms = _before_the_call(done.stdout.splitlines())
    assert len(alarms) == 1
    assert "the shoe read JH, the baize shows 5H" in alarms[0]
    export = subprocess.run(
        [sys.executable, "-m", "croupier", "audit", "export", str(journal)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert export.returncode == 0, export.stderr
    assert "the shoe read JH, the baize shows 5H" in export.stdout
