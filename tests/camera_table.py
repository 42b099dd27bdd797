"""What the camera tests share: a table whose cards are put down and taken up at will,
shot through the simulator's camera."""

from __future__ import annotations

import numpy as np

from croupier.events import ShoeEvent
from drivers.camera import CameraShoe
from hardware_sims.scene_render import GENTLE, Camera, baize, card_corners, paste

SIZE = (960, 540)


class Table:
    """Hand-made frames: cards put down and taken up at will, through a fixed camera."""

    def __init__(self, faces: dict[str, np.ndarray], seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.faces = faces
        self.felt = baize(SIZE[1], SIZE[0], self.rng)
        self.camera = Camera.draw(SIZE, self.rng, GENTLE)
        self.cards: dict[tuple[int, int], np.ndarray] = {}

    def put(self, row: int, slot: int, face: np.ndarray) -> None:
        self.cards[(row, slot)] = face

    def take(self, row: int, slot: int) -> None:
        del self.cards[(row, slot)]

    def frames(self, count: int) -> list[np.ndarray]:
        """`count` frames of the layout as it lies now."""
        table = self.felt.copy()
        for (row, slot), face in sorted(self.cards.items()):
            centre = (140 + slot * 130, 150 + row * 240)
            paste(table, face, card_corners(centre, 105, 1.4, 0.0))
        return [self.camera.shoot(table, self.rng) for _ in range(count)]


def run_camera(script: list[list[np.ndarray]]) -> list[ShoeEvent]:
    """What the camera makes of the frames, with no burn."""
    frames = (frame for part in script for frame in part)
    return list(CameraShoe(frames, burned_unseen=0).events())
