"""The camera backend: a dealt layout read frame by frame into the shoe's event stream."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from croupier.cards import Card
from croupier.engine import play
from croupier.events import BurnUnseen, CardDrawn, CardUnread, DeviceAlarm, ShoeEmpty, ShoeEvent
from croupier.fixtures import parse_shoe
from croupier.jsonout import decision_json
from croupier.rulebook import load_rulebook
from drivers.camera import CameraShoe
from drivers.errors import PortError
from drivers.frames import open_camera_source
from hardware_sims.camera_sim import Pace, coups_of, deal_frames, rest_frames, write_frames
from hardware_sims.scene_render import AT_SPEED, GENTLE, HARSH
from tests.camera_table import SIZE, Table, run_camera

# Three coups after the burn, with a rouge win, a noir win and an après.
FIXTURE = """
4C KD 9S 2H QC            # burn
8S 7C KD 9H  AD 2S JH QC TD
TS 9D KC 3H  JS 5C 8D 9H
QD 8C 6S 9C  KH 7D 4S TC
"""


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "vision-cache"))


def _decisions(events: list[ShoeEvent]) -> list[dict[str, object]]:
    out = [decision_json(d) for d in play([*events, ShoeEmpty()], load_rulebook("venezia"))]
    return [d for d in out if d is not None]


def test_a_simulated_deal_yields_what_replay_yields(faces: dict[str, np.ndarray]) -> None:
    shoe = parse_shoe(FIXTURE)
    burn = [e.card for e in shoe[:5] if isinstance(e, CardDrawn)]
    frames = deal_frames(
        coups_of(shoe),
        faces,
        np.random.default_rng(12),
        size=SIZE,
        disturbance=HARSH,
        pace=Pace(sliding=2, resting=4, cleared=3),
    )
    events = list(CameraShoe(frames, burn=burn).events())
    assert all(isinstance(e, CardDrawn) for e in events), events
    assert events == shoe
    expected = _decisions(shoe)
    assert [d["event"] for d in expected] == ["burn", "coup", "coup", "coup", "shoe_end"]
    assert _decisions(events) == expected


def test_a_card_picked_up_mid_coup_raises_an_alarm(faces: dict[str, np.ndarray]) -> None:
    table = Table(faces, 1)
    table.put(0, 0, faces["8S"])
    table.put(0, 1, faces["7C"])
    table.put(0, 2, faces["KD"])
    first = table.frames(6)
    table.take(0, 1)
    events = run_camera([first, table.frames(20)])
    cards = [str(e.card) for e in events if isinstance(e, CardDrawn)]
    assert cards == ["8S", "7C", "KD"]
    alarms = [e for e in events if isinstance(e, DeviceAlarm)]
    assert len(alarms) == 1
    assert "7C" in alarms[0].text


def test_a_hand_passing_over_a_card_is_no_alarm(faces: dict[str, np.ndarray]) -> None:
    table = Table(faces, 2)
    table.put(0, 0, faces["8S"])
    table.put(0, 1, faces["7C"])
    first = table.frames(6)
    table.take(0, 1)
    hidden = table.frames(4)  # shorter than the clearing window
    table.put(0, 1, faces["7C"])
    events = run_camera([first, hidden, table.frames(20)])
    assert [str(e.card) for e in events if isinstance(e, CardDrawn)] == ["8S", "7C"]
    assert not [e for e in events if isinstance(e, DeviceAlarm)]


def test_clearing_the_layout_is_no_alarm(faces: dict[str, np.ndarray]) -> None:
    table = Table(faces, 3)
    table.put(0, 0, faces["AD"])
    table.put(0, 1, faces["2S"])
    first = table.frames(6)
    table.take(0, 0)
    table.take(0, 1)
    events = run_camera([first, table.frames(20)])
    assert [str(e.card) for e in events] == ["AD", "2S"]


def test_a_card_taken_while_the_coup_goes_on_raises_an_alarm_at_once(
    faces: dict[str, np.ndarray],
) -> None:
    table = Table(faces, 8)
    table.put(0, 0, faces["4D"])
    table.put(0, 1, faces["5S"])
    first = table.frames(6)
    table.take(0, 0)
    gone = table.frames(5)
    table.put(0, 2, faces["6C"])
    frames = [*first, *gone, *table.frames(30)]
    shown = 0

    def counted() -> Iterator[np.ndarray]:
        nonlocal shown
        for frame in frames:
            shown += 1
            yield frame

    for event in CameraShoe(counted()).events():
        if isinstance(event, DeviceAlarm):
            assert "4D" in event.text
            break
    # As soon as the new card lies still, long before the clearing window runs out.
    assert shown <= len(first) + len(gone) + 6


def test_clearing_card_by_card_is_no_alarm(faces: dict[str, np.ndarray]) -> None:
    table = Table(faces, 9)
    for slot, name in enumerate(("7S", "8H", "9D")):
        table.put(0, slot, faces[name])
    script = [table.frames(6)]
    for slot in range(3):
        table.take(0, slot)
        script.append(table.frames(10))  # the rake takes a card every third of a second
    events = run_camera(script)
    assert [str(e.card) for e in events] == ["7S", "8H", "9D"]


def test_a_card_swapped_in_place_raises_an_alarm(faces: dict[str, np.ndarray]) -> None:
    table = Table(faces, 4)
    table.put(0, 0, faces["9H"])
    table.put(0, 1, faces["JS"])
    first = table.frames(6)
    table.put(0, 1, faces["QD"])
    events = run_camera([first, table.frames(25)])
    assert [str(e.card) for e in events if isinstance(e, CardDrawn)] == ["9H", "JS"]
    alarms = [e.text for e in events if isinstance(e, DeviceAlarm)]
    assert alarms == ["card JS on the layout changed into QD"]


def test_cards_appearing_together_come_noir_row_first(faces: dict[str, np.ndarray]) -> None:
    table = Table(faces, 5)
    table.put(1, 0, faces["5C"])
    table.put(0, 1, faces["6H"])
    table.put(0, 2, faces["KS"])
    table.put(0, 0, faces["TD"])
    table.put(0, 3, faces["8C"])
    events = run_camera([table.frames(8)])
    assert [str(e.card) for e in events] == ["TD", "6H", "KS", "8C", "5C"]


def test_an_unsure_card_asks_the_tailleur_to_confirm(faces: dict[str, np.ndarray]) -> None:
    from hardware_sims.deck_maker import make_deck

    table = Table(faces, 6)
    table.put(0, 0, faces["3S"])
    table.put(0, 1, make_deck(seed=2)["8D"])  # a design the camera was not calibrated on
    table.put(0, 2, faces["4H"])
    events = run_camera([table.frames(14)])
    assert isinstance(events[0], CardDrawn)
    assert str(events[0].card) == "3S"
    assert isinstance(events[1], CardUnread)
    assert events[1].source == "camera"
    assert events[1].confidence < 0.5
    assert isinstance(events[2], CardDrawn)
    assert str(events[2].card) == "4H"
    assert len(events) == 3


def test_the_burn_comes_first_when_the_table_knows_it(faces: dict[str, np.ndarray]) -> None:
    burn = [Card.parse(c) for c in ("4C", "KD", "9S", "2H", "QC")]
    events = list(CameraShoe(iter([]), burn=burn).events())
    assert events == [CardDrawn(c) for c in burn]


def test_a_camera_alone_counts_the_burn_unseen_and_deals_the_coups(
    faces: dict[str, np.ndarray],
) -> None:
    shoe = parse_shoe(FIXTURE)
    frames = deal_frames(coups_of(shoe), faces, np.random.default_rng(5), size=SIZE,
                         disturbance=HARSH, pace=Pace(sliding=2, resting=4, cleared=3))
    events = list(CameraShoe(frames).events())
    assert events[:5] == [BurnUnseen()] * 5
    assert events[5:] == shoe[5:]
    seen, dealt = _decisions(events), _decisions(shoe)
    assert seen[0] == {"event": "burn", "cards": [], "exposed": [], "unseen": 5}
    assert seen[1:] == dealt[1:]


def test_sources_folder_and_video_file(faces: dict[str, np.ndarray], tmp_path: Path) -> None:
    table = Table(faces, 7)
    table.put(0, 0, faces["KC"])
    frames = list(table.frames(6))
    folder = tmp_path / "frames"
    video = tmp_path / "deal.avi"
    assert write_frames(iter(frames), folder) == 6
    assert write_frames(iter(frames), video) == 6
    (folder / "notes.txt").write_text("not a frame")
    for source in (str(folder), str(video)):
        assert len(list(open_camera_source(source))) == 6
        events = list(CameraShoe(source, burned_unseen=0).events())
        assert [str(e.card) for e in events] == ["KC"]  # type: ignore[union-attr]


def test_bad_sources_raise_port_error(tmp_path: Path) -> None:
    with pytest.raises(PortError, match="no such camera"):
        open_camera_source(str(tmp_path / "nothing"))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(PortError, match="no image files"):
        open_camera_source(str(empty))
    text = tmp_path / "film.avi"
    text.write_text("not a video")
    with pytest.raises(PortError, match="cannot open"):
        open_camera_source(str(text))


@pytest.mark.parametrize("seed", [4])
def test_rows_laid_at_speed_lose_no_card_silently(faces: dict[str, np.ndarray], seed: int) -> None:
    """Overlapping, touching, turned: every card is emitted as dealt or sent for confirmation,
    in its place, within half a second (15 frames a second) of lying at rest; none is named
    wrong, none invented."""
    shoe = parse_shoe(FIXTURE)
    coups = coups_of(shoe)
    pace = Pace()
    frames = deal_frames(coups, faces, np.random.default_rng(seed), size=(1280, 720),
                         disturbance=GENTLE, pace=pace, laying=AT_SPEED)
    counted = [0]

    def count(frames: Iterator[np.ndarray]) -> Iterator[np.ndarray]:
        for frame in frames:
            yield frame
            counted[0] += 1

    emitted: list[tuple[ShoeEvent, int]] = [
        (event, counted[0] - 1) for event in CameraShoe(count(frames), burned_unseen=0).events()
    ]
    dealt = shoe[5:]
    assert not [e for e, _ in emitted if isinstance(e, DeviceAlarm)]
    assert len(emitted) == len(dealt)
    for (event, at), want, rest in zip(emitted, dealt, rest_frames(coups, pace), strict=True):
        assert event == want or isinstance(event, CardUnread), (event, want)
        assert at - rest <= 7, (event, at, rest)
    assert sum(isinstance(e, CardDrawn) for e, _ in emitted) >= len(dealt) * 3 // 4
