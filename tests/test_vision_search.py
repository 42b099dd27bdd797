"""Looking for a card around its outline: what is seen there is kept, and a card a few
pixels off its outline is named there without rebuilding the outline."""

from __future__ import annotations

import numpy as np
import pytest

from hardware_sims.scene_render import NONE, Camera, baize, card_corners, paste
from vision.classifier import classify_placed
from vision.design import Design
from vision.look import Looks
from vision.quad import Quad


def _scene(design: Design, faces: dict[str, np.ndarray], name: str, seed: int) -> tuple[
    np.ndarray, np.ndarray
]:
    """A frame of one card, about the classifier's size, and the card's corners."""
    rng = np.random.default_rng(seed)
    table = baize(480, 640, rng)
    corners = card_corners((320.0, 240.0), float(design.size[0]), design.aspect, 3.0)
    paste(table, faces[name], corners)
    return Camera.draw((640, 480), rng, NONE).shoot(table, rng), corners


@pytest.mark.parametrize(("name", "seed", "shift"), [("KD", 2, (5, -4)), ("5H", 3, (-4, 5))])
def test_a_card_a_few_pixels_off_its_outline_is_named_looking_there_alone(
    design: Design, faces: dict[str, np.ndarray], name: str, seed: int, shift: tuple[int, int]
) -> None:
    frame, corners = _scene(design, faces, name, seed)
    looks: Looks = {}
    off = Quad((corners + np.array(shift, np.float32)).astype(np.float32))
    reading = classify_placed(frame, [off], design, 1.0, looks, resized=False)
    assert str(reading.card) == name
    assert reading.confidence >= 0.9
    assert len(looks) == 1  # no other outline was straightened and searched


def test_a_card_looked_at_again_is_not_searched_again(
    design: Design, faces: dict[str, np.ndarray]
) -> None:
    """The look around an outline holds for any share of the card in view: read again with
    more of it hidden, nothing new is straightened, and the reading is the one a fresh look
    gives."""
    frame, corners = _scene(design, faces, "5H", 3)
    quads = [Quad(corners), Quad((corners + np.float32(3)).astype(np.float32))]
    looks: Looks = {}
    first = classify_placed(frame, quads, design, 1.0, looks, resized=False)
    kept = dict(looks)
    again = classify_placed(frame, quads, design, 0.6, looks, resized=False)
    assert str(first.card) == "5H"
    assert looks.keys() == kept.keys()
    assert all(looks[key] is kept[key] for key in kept)
    assert again == classify_placed(frame, quads, design, 0.6, {}, resized=False)
