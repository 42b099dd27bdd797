"""Naming single cards: bare faces, photos of one card on baize, and what must be declined."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware_sims.scene_render import (
    CARD_NAMES,
    HARSH,
    Camera,
    baize,
    card_corners,
    paste,
    render_single,
)
from vision.design import BUILTIN, Design
from vision.errors import ImageError
from vision.images import read_picture
from vision.layout import read_layout, read_one


def test_every_bare_face_is_named_surely(design: Design) -> None:
    for name in CARD_NAMES:
        picture = read_picture(BUILTIN / f"{name}.png")
        assert picture.bare_face
        reading = read_one(picture.pixels, design, bare_face=True)
        assert str(reading.card) == name
        assert reading.confidence >= 0.9


def test_bare_face_turned_half_round_is_named(design: Design) -> None:
    image = read_picture(BUILTIN / "7C.png").pixels[::-1, ::-1]
    assert str(read_one(np.ascontiguousarray(image), design, bare_face=True).card) == "7C"


def test_every_card_on_baize_in_two_poses(design: Design, faces: dict[str, np.ndarray]) -> None:
    named = wrong = 0
    for seed, name in enumerate(CARD_NAMES * 2):
        scene = render_single(faces, name, np.random.default_rng(1000 + seed), disturbance=HARSH)
        reading = read_one(scene.image, design)
        if reading.card is not None:
            named += 1
            wrong += str(reading.card) != name
    assert wrong == 0
    assert named >= 2 * len(CARD_NAMES) - 2


def test_close_up_filling_the_frame_is_named(design: Design, faces: dict[str, np.ndarray]) -> None:
    face = faces["QH"]
    photo = cv2.resize(face[:, :, :3], (300, 420), interpolation=cv2.INTER_AREA)
    reading = read_one(photo, design)
    assert str(reading.card) == "QH"


def _felt(seed: int, size: tuple[int, int] = (640, 480)) -> tuple[np.ndarray, Camera]:
    rng = np.random.default_rng(seed)
    return baize(size[1], size[0], rng), Camera.draw(size, rng, HARSH)


def test_empty_felt_names_nothing(design: Design) -> None:
    for seed in range(5):
        table, camera = _felt(seed)
        frame = camera.shoot(table, np.random.default_rng(seed))
        assert read_one(frame, design).card is None
        assert read_layout(frame, design) == []


def test_a_blank_card_is_declined(design: Design) -> None:
    table, camera = _felt(7)
    blank = np.full((336, 240, 4), 245, np.uint8)
    paste(table, blank, card_corners((320, 240), 150, 1.4, 3.0))
    frame = camera.shoot(table, np.random.default_rng(7))
    reading = read_one(frame, design)
    assert reading.card is None
    assert reading.confidence < 0.5


def test_a_card_of_another_design_is_declined(design: Design) -> None:
    from hardware_sims.deck_maker import make_deck

    other = make_deck(seed=11)
    for seed, name in enumerate(("AS", "7H", "KD", "TC")):
        scene = render_single(other, name, np.random.default_rng(seed), disturbance=HARSH)
        assert read_one(scene.image, design).card is None


def test_unreadable_files_raise_image_error(tmp_path: Path) -> None:
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not an image at all")
    with pytest.raises(ImageError, match=r"junk\.png"):
        read_picture(junk)
    with pytest.raises(ImageError, match=r"missing\.png"):
        read_picture(tmp_path / "missing.png")
    clear = tmp_path / "clear.png"
    cv2.imwrite(str(clear), np.zeros((20, 20, 4), np.uint8))
    with pytest.raises(ImageError, match="transparent"):
        read_picture(clear)


def test_grey_and_sixteen_bit_images_are_read(tmp_path: Path) -> None:
    grey = tmp_path / "grey.png"
    cv2.imwrite(str(grey), np.full((30, 20), 200, np.uint8))
    assert read_picture(grey).pixels.shape == (30, 20, 3)
    deep = tmp_path / "deep.png"
    cv2.imwrite(str(deep), np.full((30, 20, 3), 60000, np.uint16))
    pixels = read_picture(deep).pixels
    assert pixels.dtype == np.uint8
    assert int(pixels.max()) == 233


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_are_an_image_or_an_image_error(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    path = tmp_path_factory.mktemp("bytes") / "file.png"
    path.write_bytes(data)
    try:
        picture = read_picture(path)
    except ImageError:
        return
    assert picture.pixels.dtype == np.uint8
    assert picture.pixels.ndim == 3


def _fits(design: Design, card: int, face_rival: float) -> np.ndarray:
    """Best fits (whole, index alone, face alone; per blur level and card) that name
    `card` clearly on the whole and on its index, while its face alone fits card 0 as
    well as it plus `face_rival`."""
    levels = design.gram.shape[0]
    fits = np.full((3, levels, len(design.cards)), 0.5, np.float32)
    fits[:, :, card] = 0.95
    fits[2, :, 0] = 0.95 + face_rival
    return fits


def test_a_card_whose_face_alone_fits_another_as_well_is_still_named(design: Design) -> None:
    """Seen partly hidden, a card's face alone may fit another card of its rank as well
    as its own, to a hair: its index and the whole card decide."""
    from vision.classifier import _best_fit

    card = design.cards.index("7S")
    reading = _best_fit(_fits(design, card, 0.001), design.gram, design)
    assert str(reading.card) == "7S"


def test_a_card_whose_face_alone_fits_another_better_is_declined(design: Design) -> None:
    from vision.classifier import _best_fit

    card = design.cards.index("7S")
    reading = _best_fit(_fits(design, card, 0.02), design.gram, design)
    assert reading.card is None
    assert str(reading.guess) == "7S"


def _index_slips(design: Design, card: str, to: str, by: float) -> np.ndarray:
    """Best fits naming `card` surely on the whole and on its face, its index alone fitting
    `to` better by `by`."""
    named = design.cards.index(card)
    fits = _fits(design, named, 0.0)
    fits[2, :, 0] = 0.5
    fits[1, :, design.cards.index(to)] = 0.95 + by
    return fits


@pytest.mark.parametrize(("to", "named"), [("9S", True), ("9C", False), ("4C", False)])
def test_a_named_card_whose_index_alone_slips_to_another_rank_of_its_suit_is_named(
    design: Design, to: str, named: bool
) -> None:
    """The index's rank glyph is a few pixels wide: blurred, a 4 may pass for a 9. The card
    named on its whole score and face stands when its index alone fits another rank of its
    own suit better; not when it fits another suit (its twin, or any card of it) better."""
    from vision.classifier import _best_fit

    reading = _best_fit(_index_slips(design, "4S", to, 0.02), design.gram, design)
    assert str(reading.guess) == "4S"
    assert (reading.card is not None) == named


def test_an_unsure_card_whose_index_alone_slips_to_another_rank_is_declined(
    design: Design,
) -> None:
    from vision.classifier import _best_fit

    fits = _index_slips(design, "4S", "9S", 0.02)
    fits[0, :, design.cards.index("5S")] = 0.94  # a rival on the whole: not named
    fits[2, :, design.cards.index("5S")] = 0.5
    reading = _best_fit(fits, design.gram, design)
    assert reading.card is None
