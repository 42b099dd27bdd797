"""The live camera (`drivers.camera.CameraShoe`) over a whole deal, frame by frame: on the
built-in design with the cards laid a gap apart, and on each SVG test design (never used in
tuning) laid at speed — overlapping, touching, turned.

Per deal: cards dealt; emitted exactly as dealt; sent for confirmation (`CardUnread`, the
tailleur's alarm); named wrong; lost or invented silently (the stream one card off: every
card after the first one out of step counts); the other alarms raised on a clean deal (there
should be none); the slowest answer after a card came to rest, at 15 frames a second; and
the milliseconds per 1280×720 frame on one core.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from croupier.events import CardDrawn, CardUnread, DeviceAlarm, ShoeEvent
from croupier.fixtures import parse_shoe
from drivers.camera import CameraShoe
from hardware_sims.camera_sim import coups_of, deal_frames, rest_frames
from hardware_sims.scene_render import AT_SPEED, GENTLE, Laying, load_faces
from hardware_sims.svg_designs import TEST_DESIGNS, SvgUnavailableError, write_design
from vision.design import BUILTIN

SEED = 29_000  # seeds tuning never used
FPS = 15.0
DEAL = (
    "4C KD 9S 2H QC  8S 7C KD 9H AD 2S JH QC TD  TS 9D KC 3H JS 5C 8D 9H  "
    "QD 8C 6S 9C KH 7D 4S TC  AS AH 2D 3C 4S 5H 6D 7C 8S  2S 3H 4D 5C 6S 7H 8D 9C"
)


@dataclass(frozen=True)
class Watched:
    """What the camera made of one deal."""

    dealt: int
    exact: int
    unread: int
    wrong: int
    off: int  # cards lost or invented without an alarm: the stream out of step from there
    alarms: tuple[str, ...]
    slowest: float  # seconds from a card's rest to its event
    ms_per_frame: float  # wall clock over the whole stream: the reader's CPU is bench_vision's

    def line(self, what: str) -> str:
        return (
            f"{what:<50} dealt {self.dealt}: exact {self.exact}  confirm {self.unread}  "
            f"wrong {self.wrong}  lost or invented silently {self.off}  "
            f"other alarms {len(self.alarms)}  slowest {self.slowest:.2f} s  "
            f"{self.ms_per_frame:.1f} ms/frame (wall clock, mean over the stream)"
            + "".join(f"\n    alarm: {text}" for text in self.alarms)
        )


def watch(faces: dict[str, np.ndarray], deck: Path | None, seed: int,
          laying: Laying | None) -> Watched:
    shoe = parse_shoe(DEAL)
    coups = coups_of(shoe)
    frames = list(deal_frames(coups, faces, np.random.default_rng(seed), size=(1280, 720),
                              disturbance=GENTLE, laying=laying))
    shown = [0]

    def counted() -> Iterator[np.ndarray]:
        for shown[0], frame in enumerate(frames):
            yield frame

    start = time.perf_counter()
    events: list[tuple[ShoeEvent, int]] = [
        (e, shown[0]) for e in CameraShoe(counted(), deck, burned_unseen=0).events()
    ]
    elapsed = time.perf_counter() - start
    cards = [(e, at) for e, at in events if isinstance(e, CardDrawn | CardUnread)]
    dealt = [e for e in shoe[5:] if isinstance(e, CardDrawn)]
    exact = unread = wrong = 0
    off = abs(len(cards) - len(dealt))
    slowest = 0
    for k, ((event, at), want, rest) in enumerate(
        zip(cards, dealt, rest_frames(coups), strict=False)
    ):
        if at < rest:  # emitted before it was laid: the stream is out of step from here
            off += min(len(cards), len(dealt)) - k
            break
        slowest = max(slowest, at - rest)
        if isinstance(event, CardUnread):
            unread += 1
        elif event == want:
            exact += 1
        else:
            wrong += 1
    alarms = tuple(e.text for e, _ in events if isinstance(e, DeviceAlarm))
    return Watched(len(dealt), exact, unread, wrong, off, alarms, slowest / FPS,
                   1000 * elapsed / len(frames))


def main() -> None:
    cv2.setNumThreads(1)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        built_in = watch(load_faces(BUILTIN), None, SEED + 999, None)
        print(built_in.line("built-in design, cards a gap apart"), flush=True)
        worst = 0.0
        totals = [0] * 5
        try:
            for k, name in enumerate(TEST_DESIGNS):
                deck = write_design(name, Path(tmp) / name)
                seen = watch(load_faces(deck), deck, SEED + 100 * k, AT_SPEED)
                print(seen.line(f"test design {name}, laid at speed"), flush=True)
                worst = max(worst, seen.slowest)
                for i, n in enumerate((seen.dealt, seen.exact, seen.unread, seen.wrong, seen.off)):
                    totals[i] += n
        except SvgUnavailableError as err:
            print(f"test designs skipped: {err}")
            return
        dealt, exact, unread, wrong, off = totals
        print(f"live camera, {len(TEST_DESIGNS)} test designs laid at speed: dealt {dealt}, "
              f"exact {exact}, confirm {unread}, wrong {wrong}, lost or invented silently "
              f"{off}, slowest answer {worst:.2f} s after a card lay at rest")
