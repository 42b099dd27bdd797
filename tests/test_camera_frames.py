"""Frames a camera or a capture hands over that cannot be looked at: the live camera says so
and loses nothing it had; the reader sees nothing in an empty frame."""

from __future__ import annotations

import numpy as np
import pytest

from croupier.events import CardDrawn, CardUnread, DeviceAlarm, ShoeEvent
from drivers.frames import frame_fault
from tests.camera_table import Table, run_camera
from vision.design import builtin_design
from vision.geometry import find_cards
from vision.layout import read_layout

BAD = {
    "empty (0x0 pixels)": np.zeros((0, 0, 3), np.uint8),
    "empty (1280x0 pixels)": np.zeros((0, 1280, 3), np.uint8),
    "not a colour image (shape (540, 960))": np.zeros((540, 960), np.uint8),
    "not a colour image (shape (540, 960, 4))": np.zeros((540, 960, 4), np.uint8),
    "uint16 pixels, not 8-bit": np.zeros((540, 960, 3), np.uint16),
}


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "vision-cache"))


def _alarms(events: list[ShoeEvent]) -> list[str]:
    return [e.text for e in events if isinstance(e, DeviceAlarm)]


@pytest.mark.parametrize("fault", sorted(BAD))
def test_what_is_wrong_with_a_frame_is_said(fault: str) -> None:
    assert frame_fault(BAD[fault]) == fault
    assert frame_fault(np.zeros((2, 2, 3), np.uint8)) is None
    assert frame_fault(None) == "not an image but NoneType"


@pytest.mark.parametrize("fault", sorted(BAD))
def test_unusable_frames_between_cards_lose_and_double_nothing(
    faces: dict[str, np.ndarray], fault: str
) -> None:
    table = Table(faces, 7)
    table.put(0, 0, faces["9H"])
    first = table.frames(2)
    table.put(0, 1, faces["JS"])
    second = table.frames(12)
    table.put(0, 2, faces["4D"])
    bad = [BAD[fault]] * 3
    # The card laid while the camera's frames were unusable is read once they come back;
    # the ones before are not read twice.
    events = run_camera([first, bad, second, bad, table.frames(12)])
    assert [str(e.card) for e in events if isinstance(e, CardDrawn)] == ["9H", "JS", "4D"]
    assert not any(isinstance(e, CardUnread) for e in events)
    assert _alarms(events) == [
        f"camera frame 2: {fault}; not looked at",
        f"camera frame 17: {fault}; not looked at",
    ]


def test_a_camera_that_keeps_failing_is_alarmed_again_every_reminder(
    faces: dict[str, np.ndarray],
) -> None:
    table = Table(faces, 8)
    table.put(0, 0, faces["9H"])
    events = run_camera([table.frames(8), [BAD["empty (0x0 pixels)"]] * 65])
    assert [str(e.card) for e in events if isinstance(e, CardDrawn)] == ["9H"]
    assert _alarms(events) == [
        f"camera frame {n}: empty (0x0 pixels); not looked at" for n in (8, 38, 68)
    ]


def test_an_empty_frame_shows_no_card() -> None:
    assert read_layout(BAD["empty (0x0 pixels)"], builtin_design()) == []
    assert read_layout(BAD["empty (1280x0 pixels)"], builtin_design()) == []
    assert find_cards(np.zeros((720, 0, 3), np.uint8)) == []
