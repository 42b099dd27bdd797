"""A table camera for a fixture's deal: the tailleur's hand lays the cards in two rows.

`python -m hardware_sims.camera_sim FIXTURE.shoe OUT` writes the frames a camera over the
layout would see while the fixture is dealt: for each coup the noir row on top, then the
rouge row, one card at a time (slid in under the tailleur's hand, then left alone for a few
frames), the layout cleared between coups. Burned cards never reach the layout. OUT is a
video file (`.avi`, `.mp4`, `.mkv`) or a folder of numbered frames.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from app.argparsing import CommandParser, frame_size
from croupier.decisions import CardPlaced, Row
from croupier.engine import play
from croupier.errors import CroupierError
from croupier.events import ShoeEmpty, ShoeEvent
from croupier.fixtures import parse_shoe
from croupier.rulebook import load_rulebook
from hardware_sims.scene_render import (
    GENTLE,
    HARSH,
    Camera,
    Disturbance,
    Laying,
    baize,
    card_corners,
    load_faces,
    paste,
)

VIDEO_TYPES = (".avi", ".mp4", ".mkv")
_SLOTS = 8  # cards a row has room for, unless the deal has a longer row
_SKIN = np.float32([105, 145, 200])  # BGR


@dataclass(frozen=True)
class Pace:
    """How many frames each step of the deal lasts."""

    sliding: int = 3  # the card moving in under the hand
    resting: int = 6  # the card alone on the layout before the next one
    cleared: int = 5  # empty baize between coups


@dataclass(frozen=True)
class Mislaying:
    """What the tailleur lays wrong, to try a camera that witnesses a shoe: a card is named
    by its coup and its place in the coup's deal, both counted from 0. A `switched` card is
    laid as another card than the shoe read; a `wrong_row` card in the other row."""

    switched: dict[tuple[int, int], str] = field(default_factory=dict)
    wrong_row: frozenset[tuple[int, int]] = frozenset()


def coups_of(events: Sequence[ShoeEvent], rules: str = "venezia") -> list[list[tuple[Row, str]]]:
    """The cards each coup lays, in order, with their row, as the engine deals the events."""
    coups: dict[int, list[tuple[Row, str]]] = {}
    for decision in play([*events, ShoeEmpty()], load_rulebook(rules)):
        if isinstance(decision, CardPlaced):
            coups.setdefault(decision.number, []).append((decision.row, str(decision.card)))
    return [coups[n] for n in sorted(coups)]


def deal_frames(
    coups: Sequence[Sequence[tuple[Row, str]]],
    faces: dict[str, np.ndarray],
    rng: np.random.Generator,
    *,
    size: tuple[int, int] = (1280, 720),
    disturbance: Disturbance = GENTLE,
    pace: Pace = Pace(),
    mislaying: Mislaying = Mislaying(),
    laying: Laying | None = None,
) -> Iterator[np.ndarray]:
    """Every frame of the deal, in order: the cards a fixed gap apart, or, with `laying`, laid
    at speed (each over the last, touching it or a little apart, and turned)."""
    width, height = size
    face = next(iter(faces.values()))
    aspect = face.shape[0] / face.shape[1]
    # Room for the longest row of the deal (eight cards at least), all coups alike.
    longest = max((sum(1 for r, _ in coup if r is row) for coup in coups for row in Row), default=0)
    slots = max(_SLOTS, longest)
    card_width = min(width * 0.94 / (slots * 1.18), height * 0.9 / (2 * aspect * 1.3))
    camera = Camera.draw(size, rng, disturbance)
    felt = baize(height, width, rng)
    gap = card_width * 0.18
    left = (width - slots * card_width - (slots - 1) * gap) / 2 + card_width / 2
    rows_y = (height / 2 - card_width * aspect * 0.62, height / 2 + card_width * aspect * 0.62)
    for _ in range(pace.cleared):
        yield camera.shoot(felt, rng)
    for c, coup in enumerate(coups):
        table = felt.copy()
        laid = {Row.NOIR: 0, Row.ROUGE: 0}
        ends = {Row.NOIR: left - card_width - gap, Row.ROUGE: left - card_width - gap}
        for k, (dealt_row, dealt) in enumerate(coup):
            name = mislaying.switched.get((c, k), dealt)
            row = dealt_row
            if (c, k) in mislaying.wrong_row:
                row = Row.ROUGE if dealt_row is Row.NOIR else Row.NOIR
            slot = laid[row]
            laid[row] += 1
            if laying is None:
                x = left + slot * (card_width + gap) + rng.uniform(-0.04, 0.04) * card_width
                turn = disturbance.rotation_deg
            else:
                x = ends[row] + card_width * (1.0 + laying.spacing(rng))
                turn = laying.rotation_deg
            ends[row] = x
            y = rows_y[row is Row.ROUGE] + rng.uniform(-0.04, 0.04) * card_width
            angle = rng.uniform(-turn, turn)
            target = card_corners((x, y), card_width, aspect, angle)
            yield from _lay(table, faces[name], target, card_width=card_width, aspect=aspect,
                            pace=pace, camera=camera, rng=rng)
        for _ in range(pace.cleared):
            yield camera.shoot(felt, rng)


def _lay(
    table: np.ndarray, face: np.ndarray, target: np.ndarray, *, card_width: float,
    aspect: float, pace: Pace, camera: Camera, rng: np.random.Generator,
) -> Iterator[np.ndarray]:
    """The card slides in from the shoe's side under a hand, then lies on `table`."""
    start = target + np.float32([0.4 * card_width, -1.2 * card_width * aspect])
    for step in range(1, pace.sliding + 1):
        corners = start + (target - start) * (step / pace.sliding)
        frame_table = table.copy()
        paste(frame_table, face, corners)
        _hand(frame_table, corners, card_width)
        yield camera.shoot(frame_table, rng)
    paste(table, face, target)
    for _ in range(pace.resting):
        yield camera.shoot(table, rng)


def rest_frames(coups: Sequence[Sequence[tuple[Row, str]]], pace: Pace = Pace()) -> list[int]:
    """The frame each card of the deal first lies at rest in, as `deal_frames` lays them."""
    frame, rests = pace.cleared, []
    for coup in coups:
        for _ in coup:
            frame += pace.sliding
            rests.append(frame)
            frame += pace.resting
        frame += pace.cleared
    return rests


def _hand(table: np.ndarray, corners: np.ndarray, card_width: float) -> None:
    """The tailleur's hand holding the card by its top right corner."""
    corner = corners[1]
    palm = corner + np.float32([0.55, -0.35]) * card_width
    shade = np.zeros(table.shape[:2], np.float32)
    skin = np.zeros(table.shape[:2], np.float32)
    axes = (round(0.5 * card_width), round(0.38 * card_width))
    for mask, shift in ((shade, 6), (skin, 0)):
        centre = (round(palm[0]) + shift, round(palm[1]) + shift)
        cv2.ellipse(mask, centre, axes, -30, 0, 360, 1.0, -1, cv2.LINE_AA)
        for k in range(4):
            tip = corner + np.float32([-0.25 + 0.12 * k, 0.1 + 0.05 * k]) * card_width
            start = (round(palm[0]) + shift, round(palm[1]) + shift)
            end = (round(tip[0]) + shift, round(tip[1]) + shift)
            cv2.line(mask, start, end, 1.0, max(2, round(0.1 * card_width)), cv2.LINE_AA)
    shade = cv2.GaussianBlur(shade, (0, 0), 4)
    table *= (1.0 - 0.4 * shade)[..., None]
    table[:] = table * (1.0 - skin[..., None]) + _SKIN * skin[..., None]


def write_frames(frames: Iterator[np.ndarray], out: Path, fps: float = 15.0) -> int:
    """Write the frames to a video file or a folder of PNGs; returns how many."""
    count = 0
    if out.suffix.lower() in VIDEO_TYPES:
        writer: cv2.VideoWriter | None = None
        try:
            for frame in frames:
                if writer is None:
                    fourcc = cv2.VideoWriter.fourcc(
                        *("MJPG" if out.suffix.lower() == ".avi" else "mp4v")
                    )
                    writer = cv2.VideoWriter(
                        str(out), fourcc, fps, (frame.shape[1], frame.shape[0])
                    )
                    if not writer.isOpened():
                        raise OSError(f"{out}: cannot write a video of this type")
                writer.write(frame)
                count += 1
        finally:
            if writer is not None:
                writer.release()
        return count
    out.mkdir(parents=True, exist_ok=True)
    for count, frame in enumerate(frames, 1):
        cv2.imwrite(str(out / f"frame_{count:05d}.png"), frame)
    return count


def main(argv: Sequence[str] | None = None) -> int:
    parser = CommandParser(
        prog="python -m hardware_sims.camera_sim", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("fixture", type=Path, help="a .shoe fixture")
    parser.add_argument("out", type=Path, help="a video file (.avi, .mp4, .mkv) or a folder")
    parser.add_argument("--deck", type=Path, help="folder of the 52 faces (default: built-in)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=frame_size, default=(1280, 720),
                        help="WIDTHxHEIGHT (default 1280x720)")
    parser.add_argument("--rules", default="venezia")
    parser.add_argument("--harsh", action="store_true", help="stronger light, noise, blur, JPEG")
    parser.add_argument("--fps", type=float, default=15.0)
    args = parser.parse_args(argv)
    if not 1 <= args.fps <= 240:  # also refuses nan
        parser.error(f"--fps is 1 to 240 frames a second, not {args.fps}")
    try:
        width, height = args.size
        deck = args.deck or Path(__file__).resolve().parents[1] / "vision/designs/heruka-2color"
        faces = load_faces(deck)
        coups = coups_of(parse_shoe(args.fixture.read_text(), origin=str(args.fixture)), args.rules)
        frames = deal_frames(
            coups,
            faces,
            np.random.default_rng(args.seed),
            size=(width, height),
            disturbance=HARSH if args.harsh else GENTLE,
        )
        count = write_frames(frames, args.out, args.fps)
    except (OSError, ValueError, CroupierError) as err:
        print(f"camera_sim: {err}", file=sys.stderr)
        return 2
    print(f"camera_sim: {count} frames of {len(coups)} coups to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
