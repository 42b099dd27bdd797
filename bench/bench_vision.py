"""Reading cards off rendered table scenes: how many are named right, wrong or declined, how
many whole coups are read exactly, and how long a frame takes on one core.

Every scene is rendered from seeds that tuning never used (tuning and tests use seeds below
10 000). The designs: the built-in one, and generated designs the classifier meets only
through `--deck` calibration (all of them tuning designs by now), then the SVG test designs
that tuning never looked at (hardware-sims/svg_decks/DESIGNS.md). Times are CPU time on one
core (OpenCV and the matrix products kept to one thread), since the machine may be shared.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from hardware_sims.deck_maker import write_deck
from hardware_sims.scene_render import (
    AT_SPEED,
    CARD_NAMES,
    HARSH,
    Disturbance,
    load_faces,
    random_coup,
    render_coup,
    render_laid_coup,
    render_single,
)
from hardware_sims.svg_designs import TEST_DESIGNS, SvgUnavailableError, write_design
from vision.design import BUILTIN, Design, build_design, builtin_design, face_files, load_design
from vision.layout import read_layout, read_one

SEED = 20_000
UNSEEN_DESIGNS = (101, 102, 103, 107)  # deck_maker seeds tuning never saw (101, 102 framed)
HARDER = Disturbance(rotation_deg=10, perspective=0.06, noise=10, blur=2.0, jpeg_quality=50)
COUPS = 40
SINGLE_POSES = 2


@dataclass
class Tally:
    right: int = 0
    wrong: int = 0
    declined: int = 0
    missed: int = 0  # a card on the layout not even found
    coups: int = 0
    exact: int = 0
    times: list[float] = field(default_factory=list)

    def card(self, got: str | None, want: str) -> None:
        if got is None:
            self.declined += 1
        elif got == want:
            self.right += 1
        else:
            self.wrong += 1

    def line(self, what: str) -> str:
        cards = self.right + self.wrong + self.declined + self.missed
        text = (
            f"{what:<44} cards {cards:4d}: right {100 * self.right / cards:6.2f} %  "
            f"wrong {self.wrong}  declined {100 * self.declined / cards:5.2f} %  "
            f"missing without a declined entry {self.missed}"
        )
        if self.coups:
            text += f"  coups exact {self.exact}/{self.coups}"
        return text + f"  median {1000 * statistics.median(self.times):.1f} ms/frame (CPU)"


def singles(faces: dict[str, np.ndarray], design: Design, seed: int, look: Disturbance) -> Tally:
    tally = Tally()
    for k, name in enumerate(CARD_NAMES * SINGLE_POSES):
        scene = render_single(faces, name, np.random.default_rng(seed + k), disturbance=look)
        start = time.process_time()
        reading = read_one(scene.image, design)
        tally.times.append(time.process_time() - start)
        tally.card(str(reading.card) if reading.card else None, name)
    return tally


def coups(
    faces: dict[str, np.ndarray], design: Design, seed: int, look: Disturbance, count: int = COUPS
) -> Tally:
    """Random coups of two rows, two to eight cards each."""
    tally = Tally()
    for k in range(count):
        rng = np.random.default_rng(seed + k)
        _read_coup(tally, faces, design, random_coup(rng), rng=rng, look=look)
    return tally


def full_coups(faces: dict[str, np.ndarray], design: Design, seed: int) -> Tally:
    """Sixteen cards, eight a row, at 1280×720: the largest coup the issue names."""
    tally = Tally()
    for k in range(20):
        rng = np.random.default_rng(seed + k)
        names = [str(n) for n in rng.choice(CARD_NAMES, 16)]
        _read_coup(tally, faces, design, [names[:8], names[8:]], rng=rng, look=HARSH)
    return tally


def laid_coups(faces: dict[str, np.ndarray], design: Design, seed: int, count: int) -> Tally:
    """Coups of two rows laid at speed (overlapping, touching, turned, glare, clutter)."""
    tally = Tally()
    for k in range(count):
        rng = np.random.default_rng(seed + k)
        _read_coup(tally, faces, design, random_coup(rng), rng=rng, look=HARSH, laid=True)
    return tally


def _read_coup(
    tally: Tally,
    faces: dict[str, np.ndarray],
    design: Design,
    rows: list[list[str]],
    *,
    rng: np.random.Generator,
    look: Disturbance,
    laid: bool = False,
) -> None:
    """Render one coup, read it, and count: a row read with too few or too many cards
    counts all its cards as missed (a card missing without a declined entry in its place)."""
    scene = (
        render_laid_coup(faces, rows, rng, laying=AT_SPEED, disturbance=look)
        if laid
        else render_coup(faces, rows, rng, disturbance=look)
    )
    start = time.process_time()
    seen = read_layout(scene.image, design)
    tally.times.append(time.process_time() - start)
    got = [[str(s.reading.card) if s.reading.card else None for s in row] for row in seen]
    tally.coups += 1
    tally.exact += got == rows
    for k, want in enumerate(rows):
        row = got[k] if k < len(got) else []
        if len(row) != len(want):
            tally.missed += len(want)
            continue
        for name, truth in zip(row, want, strict=True):
            tally.card(name, truth)


def calibration(deck: Path) -> str:
    files = face_files(deck)
    start = time.perf_counter()
    build_design(files)
    built = time.perf_counter() - start
    load_design(deck)  # fills the cache
    start = time.perf_counter()
    load_design(deck)
    cached = time.perf_counter() - start
    return (
        f"calibration on 52 faces: built in {built:.2f} s, from the cache in {1000 * cached:.0f} ms"
    )


def main() -> None:
    cv2.setNumThreads(1)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        faces = load_faces(BUILTIN)
        design = builtin_design()
        print(calibration(BUILTIN))
        print(singles(faces, design, SEED, HARSH).line("built-in, one card 640x480"))
        print(coups(faces, design, SEED + 1000, HARSH).line("built-in, whole coups 1280x720"))
        print(full_coups(faces, design, SEED + 2000).line("built-in, 16-card coups 1280x720"))
        print(
            coups(faces, design, SEED + 3000, HARDER).line(
                "built-in, coups, harder light/blur/JPEG"
            )
        )
        for deck_seed in UNSEEN_DESIGNS:
            deck = Path(tmp) / f"design-{deck_seed}"
            write_deck(deck, deck_seed)
            unseen = load_design(deck)
            other = load_faces(deck)
            name = f"unseen design {deck_seed}"
            print(singles(other, unseen, SEED + 4000 + deck_seed, HARSH).line(f"{name}, one card"))
            print(coups(other, unseen, SEED + 5000 + deck_seed, HARSH, 20).line(f"{name}, coups"))
        print(tuning_laid(Path(tmp)))
        print(svg_test_designs(Path(tmp)))


LAID_COUPS = 8  # per test design
TUNING_LAID = (101, 102, 103, 104, 105, 106, 107, 108)  # deck_maker seeds, beside the built-in


def tuning_laid(tmp: Path) -> str:
    """Whole coups laid at speed on the tuning designs (the built-in one and designs drawn by
    `deck_maker`): one summary line over all of them, to set beside the test designs'."""
    total = Tally()
    decks = [BUILTIN]
    for deck_seed in TUNING_LAID:
        decks.append(Path(tmp) / f"tuning-{deck_seed}")
        write_deck(decks[-1], deck_seed)
    for k, deck in enumerate(decks):
        part = laid_coups(load_faces(deck), load_design(deck), SEED + 6000 + 100 * k, LAID_COUPS)
        _add(total, part)
    return total.line(f"{len(decks)} tuning designs, coups laid at speed")


def _add(whole: Tally, part: Tally) -> None:
    for attr in ("right", "wrong", "declined", "missed", "coups", "exact"):
        setattr(whole, attr, getattr(whole, attr) + getattr(part, attr))
    whole.times += part.times


def svg_test_designs(tmp: Path) -> str:
    """The SVG test designs (svg_decks/DESIGNS.md), never used in tuning: one card each,
    and whole coups laid at speed; one summary line over all of them (the live camera over
    the same designs: bench_camera)."""
    lines = []
    total, singles_all = Tally(), Tally()
    try:
        for k, name in enumerate(TEST_DESIGNS):
            deck = write_design(name, tmp / name)
            design, faces = load_design(deck), load_faces(deck)
            single = singles(faces, design, SEED + 7000 + 100 * k, HARSH)
            laid = laid_coups(faces, design, SEED + 8000 + 100 * k, LAID_COUPS)
            lines.append(laid.line(f"test design {name}, coups laid at speed"))
            for whole, part in ((total, laid), (singles_all, single)):
                _add(whole, part)
    except SvgUnavailableError as err:
        return f"test designs skipped: {err}"
    lines.append(singles_all.line(f"all {len(TEST_DESIGNS)} test designs, one card 640x480"))
    lines.append(total.line(f"all {len(TEST_DESIGNS)} test designs, coups laid at speed"))
    return "\n".join(lines)
