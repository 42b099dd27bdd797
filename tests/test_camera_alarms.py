"""The live camera's alarms that stand: a card switched or taken after it was emitted, a card
in the wrong row; and rows laid touching or overlapping, every card accounted for."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

import croupier
from croupier.cards import Card
from croupier.events import BurnUnseen, CardDrawn, CardUnread, DeviceAlarm, ShoeEvent
from croupier.fixtures import parse_shoe
from croupier.rulebook import load_rulebook
from croupier.value import replace
from drivers.camera import CameraShoe
from hardware_sims.camera_sim import Mislaying, Pace, coups_of, deal_frames, rest_frames
from hardware_sims.scene_render import GENTLE, Laying
from tests.camera_table import SIZE, Table, run_camera

# Two coups after the burn: noir 8S 7C KD 9H (34), rouge AD 2S JH QC TD (33); then
# noir TS 9D KC 3H (32), rouge JS 5C 8D 9H (30).
FIXTURE = """
4C KD 9S 2H QC
8S 7C KD 9H  AD 2S JH QC TD
TS 9D KC 3H  JS 5C 8D 9H
"""


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "vision-cache"))


def _alarms(events: list[ShoeEvent]) -> list[str]:
    return [e.text for e in events if isinstance(e, DeviceAlarm)]


def _switched_and_put_back(faces: dict[str, np.ndarray], other: np.ndarray) -> list[ShoeEvent]:
    """9H and JS laid and named; JS switched for `other` for more than two reminders' time,
    then put back."""
    table = Table(faces, 4)
    table.put(0, 0, faces["9H"])
    table.put(0, 1, faces["JS"])
    first = table.frames(6)
    table.put(0, 1, other)
    switched = table.frames(70)
    table.put(0, 1, faces["JS"])
    return run_camera([first, switched, table.frames(70)])


def test_a_switched_card_keeps_raising_its_alarm_until_put_back(
    faces: dict[str, np.ndarray],
) -> None:
    events = _switched_and_put_back(faces, faces["QD"])
    assert [str(e.card) for e in events if isinstance(e, CardDrawn)] == ["9H", "JS"]
    assert _alarms(events) == ["card JS on the layout changed into QD"] * 3


def test_a_named_card_switched_for_an_unreadable_one_keeps_raising_its_alarm(
    faces: dict[str, np.ndarray],
) -> None:
    from hardware_sims.deck_maker import make_deck

    # a card of a design the camera was not calibrated on
    events = _switched_and_put_back(faces, make_deck(seed=2)["8D"])
    assert [str(e.card) for e in events if isinstance(e, CardDrawn)] == ["9H", "JS"]
    assert not any(isinstance(e, CardUnread) for e in events)
    assert _alarms(events) == ["card JS on the layout no longer reads as any card"] * 3


def test_a_named_card_read_unsure_but_still_as_itself_is_no_change(
    faces: dict[str, np.ndarray],
) -> None:
    table = Table(faces, 4)
    table.put(0, 0, faces["9H"])
    table.put(0, 1, faces["JS"])
    first = table.frames(6)
    chipped = faces["JS"].copy()
    height, width = chipped.shape[:2]
    dark = (40,) * (chipped.shape[2] - 1) + (255,) if chipped.shape[2] == 4 else (40, 40, 40)
    cv2.circle(chipped, (width // 2, height // 2), int(0.32 * width), dark, -1)
    table.put(0, 1, chipped)  # a chip over its middle: declined, its best fit still JS
    events = run_camera([first, table.frames(50)])
    assert [str(e.card) for e in events if isinstance(e, CardDrawn)] == ["9H", "JS"]
    assert _alarms(events) == []


def test_a_taken_card_keeps_raising_its_alarm_until_put_back(
    faces: dict[str, np.ndarray],
) -> None:
    table = Table(faces, 1)
    for slot, name in enumerate(("8S", "7C", "KD")):
        table.put(0, slot, faces[name])
    first = table.frames(6)
    table.take(0, 1)
    table.put(0, 3, faces["2H"])  # the coup goes on without it
    taken = table.frames(70)
    table.put(0, 1, faces["7C"])
    events = run_camera([first, taken, table.frames(70)])
    assert [str(e.card) for e in events if isinstance(e, CardDrawn)] == ["8S", "7C", "KD", "2H"]
    assert _alarms(events) == ["card 7C was taken off the layout"] * 3


def test_an_unread_card_taken_keeps_raising_its_alarm(faces: dict[str, np.ndarray]) -> None:
    from hardware_sims.deck_maker import make_deck

    table = Table(faces, 6)
    table.put(0, 0, faces["3S"])
    table.put(0, 1, make_deck(seed=2)["8D"])  # a design the camera was not calibrated on
    first = table.frames(14)
    table.take(0, 1)
    table.put(0, 2, faces["4H"])
    events = run_camera([first, table.frames(50)])
    assert [type(e) for e in events[:2]] == [CardDrawn, CardUnread]
    assert [str(e.card) for e in events if isinstance(e, CardDrawn)] == ["3S", "4H"]
    assert _alarms(events) == ["card unconfirmed card was taken off the layout"] * 2


def _watched(faces: dict[str, np.ndarray], mislaying: Mislaying) -> list[tuple[ShoeEvent, int]]:
    """The camera alone over the fixture's deal as the simulator lays it: each event with
    the frame it came after."""
    coups = coups_of(parse_shoe(FIXTURE))
    frames = deal_frames(coups, faces, np.random.default_rng(3), size=SIZE,
                         disturbance=GENTLE, mislaying=mislaying)
    shown = [0]

    def counted() -> Iterator[np.ndarray]:
        for shown[0], frame in enumerate(frames):
            yield frame

    return [(e, shown[0]) for e in CameraShoe(counted(), burned_unseen=0).events()]


def test_a_card_laid_in_the_wrong_row_is_alarmed_by_its_place(
    faces: dict[str, np.ndarray],
) -> None:
    """The second card of the first coup laid below the first (two rows: the lower is
    rouge), and the first card of the second coup laid alone where rouge lies: a lone row
    is not taken for noir once the camera has seen where the rows lie."""
    events = _watched(faces, Mislaying(wrong_row=frozenset({(0, 1), (1, 0)})))
    dealt = parse_shoe(FIXTURE)[5:]
    assert [e for e, _ in events if not isinstance(e, DeviceAlarm)] == dealt
    assert _alarms([e for e, _ in events]) == [
        "card 7C lies in the rouge row, but the noir row stands at 8: it counts for noir",
        "card TS lies in the rouge row, but the noir row stands at 0: it counts for noir",
    ]
    # Each at once, with the card it concerns.
    for k, (event, _) in enumerate(events):
        if isinstance(event, DeviceAlarm):
            assert isinstance(events[k - 1][0], CardDrawn)
            assert events[k - 1][1] == events[k][1]


def test_the_first_card_of_all_laid_where_rouge_lies_is_alarmed_once_the_rows_are_seen(
    faces: dict[str, np.ndarray],
) -> None:
    """Alone on the layout, the first coup's first card is taken for noir's wherever it lies;
    when the second comes to lie above it, the camera sees where the rows lie and says that
    the first lies in the rouge row."""
    events = _watched(faces, Mislaying(wrong_row=frozenset({(0, 0)})))
    assert [e for e, _ in events if not isinstance(e, DeviceAlarm)] == parse_shoe(FIXTURE)[5:]
    assert _alarms([e for e, _ in events]) == [
        "card 8S lies in the rouge row, but the noir row stands at 0: it counts for noir",
    ]
    alarm = next(k for k, (e, _) in enumerate(events) if isinstance(e, DeviceAlarm))
    assert events[alarm - 1][0] == CardDrawn(Card.parse("7C"))
    assert events[alarm - 1][1] == events[alarm][1]


def test_a_clean_deal_raises_no_row_alarm(faces: dict[str, np.ndarray]) -> None:
    events = [e for e, _ in _watched(faces, Mislaying())]
    assert events == parse_shoe(FIXTURE)[5:]


def test_the_witness_sees_a_lone_row_where_it_lies(faces: dict[str, np.ndarray]) -> None:
    """Beside a shoe the camera reports rows by place: the second coup's first card, laid
    alone where the rouge row lay, is a rouge card on the layout."""
    coups = coups_of(parse_shoe(FIXTURE))
    frames = deal_frames(coups, faces, np.random.default_rng(3), size=SIZE, disturbance=GENTLE,
                         mislaying=Mislaying(wrong_row=frozenset({(1, 0)})))
    layouts = list(CameraShoe(frames).layouts())
    lone = [lay for lay in layouts if len(lay.noir) + len(lay.rouge) == 1]
    # No rows seen yet: a lone row is noir, as a coup's first card opens it.
    assert {(lay.clearing, len(lay.noir), len(lay.rouge)) for lay in lone} == {(0, 1, 0), (1, 0, 1)}
    assert Card.parse("TS") in {c for lay in lone for c in lay.rouge}


def test_the_burn_the_camera_counts_is_the_rulebooks() -> None:
    three = replace(load_rulebook(), burn_cards=3)
    assert list(CameraShoe(iter([]), rulebook=three).events()) == [BurnUnseen()] * 3
    france = load_rulebook("france")
    events = list(CameraShoe(iter([]), rulebook=france).events())
    assert events == [BurnUnseen()] * france.burn_cards


TOUCHING = Laying(overlap=0.0, gap=0.0)
OVERLAPPING = Laying(overlap=0.2, gap=-0.05)


@pytest.mark.parametrize(("laying", "seed"), [(TOUCHING, 11), (OVERLAPPING, 12)],
                         ids=["touching", "overlapping"])
def test_rows_touching_or_overlapping_lose_no_card(
    faces: dict[str, np.ndarray], laying: Laying, seed: int
) -> None:
    """Every card emitted as dealt or sent for confirmation, in its place, within half a
    second (7 frames at 15 a second) of lying at rest; no alarm, none invented."""
    shoe = parse_shoe(FIXTURE)
    coups = coups_of(shoe)
    pace = Pace()
    frames = deal_frames(coups, faces, np.random.default_rng(seed), size=(1280, 720),
                         disturbance=GENTLE, pace=pace, laying=laying)
    shown = [0]

    def counted() -> Iterator[np.ndarray]:
        for shown[0], frame in enumerate(frames):
            yield frame

    emitted = [(e, shown[0]) for e in CameraShoe(counted(), burned_unseen=0).events()]
    assert not _alarms([e for e, _ in emitted])
    dealt = shoe[5:]
    assert len(emitted) == len(dealt)
    for (event, at), want, rest in zip(emitted, dealt, rest_frames(coups, pace), strict=True):
        assert event == want or isinstance(event, CardUnread), (event, want)
        assert at - rest <= 7, (event, at, rest)


def test_a_row_parted_anew_is_no_new_card(tmp_path: Path) -> None:
    """The bench's deal on a test design whose first coup came out one card long: the
    fourth rouge card's outline, parted anew a fifth narrower once the fifth card lay beside
    it, was taken for a card that had just joined the layout."""
    pytest.importorskip("resvg_py", reason="the SVG test designs need resvg-py to rasterise")
    from bench.bench_camera import DEAL, SEED
    from hardware_sims.scene_render import AT_SPEED, load_faces
    from hardware_sims.svg_designs import TEST_DESIGNS, write_design

    name = "aguilar-four-framed-courts"
    deck = write_design(name, tmp_path / name)
    shoe = parse_shoe(DEAL)
    coups = coups_of(shoe)
    frames = deal_frames(coups, load_faces(deck), np.random.default_rng(SEED + 100 * list(
        TEST_DESIGNS).index(name)), size=(1280, 720), disturbance=GENTLE, laying=AT_SPEED)
    first_coup = itertools.islice(frames, rest_frames(coups)[len(coups[0])])
    events = list(CameraShoe(first_coup, deck, burned_unseen=0).events())
    dealt = shoe[5 : 5 + len(coups[0])]
    assert len(events) == len(dealt)
    for event, want in zip(events, dealt, strict=True):
        assert event == want or isinstance(event, CardUnread), (event, want)


def test_a_camera_table_burns_as_its_rulebook_says(tmp_path: Path) -> None:
    # The table's --rules reach the camera: a house rulebook burning three.
    venezia = (Path(croupier.__file__).parent / "rulebooks" / "venezia.toml").read_text()
    house = tmp_path / "three.toml"
    house.write_text(venezia.replace('name = "venezia"', 'name = "three"').replace(
        "[burn_cards]\nvalue = 5", "[burn_cards]\nvalue = 3"), encoding="utf-8")
    frames = tmp_path / "frames"
    frames.mkdir()
    for k in range(3):  # an empty baize
        cv2.imwrite(str(frames / f"{k:03}.png"), np.full((360, 640, 3), (40, 110, 40), np.uint8))
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "table", "--camera", str(frames), "--rules",
         str(house), "--no-journal"], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "burned - and 3 unseen" in done.stdout, done.stdout
