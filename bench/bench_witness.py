"""The shoe and the camera together (`croupier table --shoe … --camera …`) on the test
designs, never used in tuning: a regulation shoe's first coups dealt by the shoe and laid at
speed under the camera (overlapping, touching, turned), once clean and once with each fault —
a card switched on the baize, a card laid in the other row, a card the shoe's link lost (as a
bee shoe loses a frame: the shoe's record lacks it, the baize has it). A fault counts as
caught when the witness alarms its coup before the coup is called; a clean run should raise
nothing. Set CROUPIER_BENCH_WITNESS_DESIGNS to a number to try fewer designs."""

from __future__ import annotations

import io
import os
import random
import re
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from app.memory_table import MemoryTable
from app.reading import opened
from app.runtime import Runtime, TextSink
from croupier.decisions import CardPlaced, CoupDecided
from croupier.engine import Shoe
from croupier.events import CardDrawn, ShoeEvent
from croupier.fixtures import render_shoe
from croupier.rulebook import load_rulebook
from croupier.shuffle import regulation_shoe
from drivers.backends import CameraWitness, open_backend
from hardware_sims.camera_sim import Mislaying, Pace, coups_of, deal_frames
from hardware_sims.scene_render import AT_SPEED, GENTLE, load_faces
from hardware_sims.svg_designs import TEST_DESIGNS, SvgUnavailableError, write_design

SEED = 12_000
CLEAN_COUPS = 4  # dealt clean per design
SIZE = (1280, 720)
PACE = Pace(sliding=2, resting=4, cleared=4)
WITNESS = "camera witness"
RULES = "venezia"


@dataclass(frozen=True)
class Fault:
    """One fault in coup `coup` (from 0) at the card dealt `place`-th (from 0) in it."""

    kind: str  # "switched", "wrong row", "lost on the link"
    coup: int
    place: int
    switched_to: str = ""


def _first_coups(seed: int, coups: int) -> tuple[list[ShoeEvent], list[list[int]]]:
    """A regulation shoe's events up to the end of coup `coups`, and for each coup the
    indexes of the events that dealt its cards, in order."""
    events = regulation_shoe(random.Random(seed))
    shoe = Shoe(load_rulebook(RULES))
    dealt: list[list[int]] = []
    for index, event in enumerate(events):
        for decision in shoe.apply(event):
            if isinstance(decision, CardPlaced):
                while len(dealt) < decision.number:
                    dealt.append([])
                dealt[decision.number - 1].append(index)
            elif isinstance(decision, CoupDecided) and decision.number == coups:
                return events[: index + 1], dealt
    raise AssertionError("a regulation shoe deals more than a few coups")


def _run(shoe: Sequence[ShoeEvent], laid: Sequence[ShoeEvent], mislaying: Mislaying, *,
         faces: dict[str, np.ndarray], deck: Path, seed: int, folder: Path) -> list[str]:
    """What the table prints with the shoe's record `shoe` and the baize laid from `laid`."""
    fixture = folder / "shoe.shoe"
    fixture.write_text(render_shoe(list(shoe)), encoding="utf-8")
    frames = deal_frames(coups_of(laid, RULES), faces, np.random.default_rng(seed), size=SIZE,
                         disturbance=GENTLE, pace=PACE, mislaying=mislaying, laying=AT_SPEED)
    out = io.StringIO()
    table = MemoryTable(load_rulebook(RULES))
    Runtime(lambda: table, [opened("shoe", open_backend("replay", str(fixture)), resends=None)],
            TextSink(out, out, ""), camera=CameraWitness(frames, deck),
            until_sources_end=True).run()
    return out.getvalue().splitlines()


def _caught(lines: list[str], number: int) -> bool:
    """A witness alarm about coup `number` printed before that coup is called."""
    for line in lines:
        if re.match(rf"Coup {number}\b", line):
            return False
        if WITNESS in line and f"coup {number}," in line:
            return True
    return False


def _faults(rng: random.Random, dealt: list[list[int]], events: Sequence[ShoeEvent]
            ) -> list[Fault]:
    faults = []
    for kind in ("switched", "wrong row", "lost on the link"):
        coup = rng.randrange(2)
        place = rng.randrange(len(dealt[coup]))
        other = ""
        if kind == "switched":
            event = events[dealt[coup][place]]
            assert isinstance(event, CardDrawn)
            card = str(event.card)
            other = rng.choice([f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC"
                                if f"{r}{s}" != card])
        faults.append(Fault(kind, coup, place, other))
    return faults


def _design(name: str, k: int, folder: Path) -> tuple[int, int, int, list[str], float]:
    """One design: clean coups, false alarms, faults caught, faults missed (described),
    seconds per frame."""
    deck = write_design(name, folder / name)
    faces = load_faces(deck)
    seed = SEED + 100 * k
    events, dealt = _first_coups(seed, CLEAN_COUPS)
    start = time.process_time()
    lines = _run(events, events, Mislaying(), faces=faces, deck=deck, seed=seed, folder=folder)
    false_alarms = sum(WITNESS in line for line in lines)
    caught, missed = 0, []
    for fault in _faults(random.Random(seed), dealt, events):
        # The shoe runs a coup past the fault's, so that a lost card's coup is called.
        end = dealt[fault.coup + 1][-1] + 1
        laid = events[:end]
        shoe = list(laid)
        mislaying = Mislaying()
        match fault.kind:
            case "switched":
                mislaying = Mislaying(switched={(fault.coup, fault.place): fault.switched_to})
            case "wrong row":
                mislaying = Mislaying(wrong_row=frozenset({(fault.coup, fault.place)}))
            case _:
                del shoe[dealt[fault.coup][fault.place]]
        found = _run(shoe, laid, mislaying, faces=faces, deck=deck, seed=seed + 1,
                     folder=folder)
        if _caught(found, fault.coup + 1):
            caught += 1
        else:
            missed.append(f"{fault.kind} (coup {fault.coup + 1}, card {fault.place + 1})")
    return CLEAN_COUPS, false_alarms, caught, missed, time.process_time() - start


def main() -> None:
    cv2.setNumThreads(1)
    designs = list(TEST_DESIGNS)[: int(os.environ.get("CROUPIER_BENCH_WITNESS_DESIGNS",
                                                      len(TEST_DESIGNS)))]
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        coups = alarms = caught = faults = 0
        try:
            for k, name in enumerate(designs):
                clean, false_alarms, found, missed, seconds = _design(name, k, Path(tmp))
                coups, alarms, caught = coups + clean, alarms + false_alarms, caught + found
                faults += found + len(missed)
                print(f"witness, test design {name}: {clean} clean coups, {false_alarms} "
                      f"false alarms; faults caught before the call {found}/"
                      f"{found + len(missed)}" + (f" (missed: {', '.join(missed)})"
                                                  if missed else "")
                      + f"; {seconds:.1f} s CPU", flush=True)
        except SvgUnavailableError as err:
            print(f"witness: test designs skipped: {err}")
            return
    print(f"witness, {len(designs)} test designs: {coups} clean coups, {alarms} false alarms; "
          f"{caught}/{faults} faults caught before the call")
