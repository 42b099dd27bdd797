"""The screen with the shoe and the camera together (`croupier ui --shoe … --camera …`): the
shoe's cards are played, the camera witnesses them, and a difference is the tailleur's alarm,
in the screen's language, before the coup's call; rien ne va plus waits for the rows to be
checked."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from app.sources import simulator_source
from croupier.cards import Card
from croupier.decisions import Alarm, Row
from croupier.rulebook import load_rulebook
from croupier.view import Allowed
from croupier.witness import Difference, Kind
from drivers.backends import CameraWitness
from hardware_sims.camera_sim import Mislaying, write_frames
from hardware_sims.sim_process import running_simulator
from journal.files import JournalError
from journal.store import Journal, verify
from tests.test_witness_table import FIXTURE, _frames
from ui.bridge import TableBridge
from ui.dealer import DealerScreen
from ui.device_alarms import WITNESS_SOURCE, alarm_text
from ui.i18n import Lang

JH, FIVE_H = Card.parse("JH"), Card.parse("5H")


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "vision-cache"))


@pytest.mark.parametrize(
    ("difference", "french"),
    [
        (Difference(Kind.SWITCHED, Row.ROUGE, 3, JH, FIVE_H),
         "coup 4, rangée rouge, carte n° 3 : le sabot a lu J♥, le tapis montre 5♥"),
        (Difference(Kind.MISPLACED, Row.NOIR, 5, None, FIVE_H),
         "coup 4, rangée noir, carte n° 5 : 5♥ est posée là, le sabot l'a donnée à une autre "
         "place — carte mal posée"),
        (Difference(Kind.MISPLACED, Row.NOIR, 5, JH, FIVE_H),
         "coup 4, rangée noir, carte n° 5 : 5♥ est posée là, le sabot l'a donnée à une autre "
         "place et y a mis J♥ — carte mal posée"),
        (Difference(Kind.NEVER_READ, Row.NOIR, 2, None, FIVE_H),
         "coup 4, rangée noir, carte n° 2 : 5♥ est sur le tapis, le sabot ne l'a jamais lue"),
        (Difference(Kind.NEVER_READ, Row.NOIR, 2, None, None),
         "coup 4, rangée noir, carte n° 2 : une carte que la caméra ne sait pas nommer est "
         "sur le tapis, le sabot ne l'a jamais lue"),
        (Difference(Kind.NOT_LAID, Row.ROUGE, 1, JH, None),
         "coup 4, rangée rouge, carte n° 1 : le sabot a lu J♥, le tapis n'en montre aucune"),
    ],
    ids=lambda value: value.kind.name if isinstance(value, Difference) else "",
)
def test_every_difference_is_said_in_the_screens_language(
    difference: Difference, french: str
) -> None:
    alarm = Alarm("baize_check", f"{WITNESS_SOURCE}: {difference.text(4)}")
    assert alarm_text(alarm, Lang.FR) == f"La caméra témoin : {french}"
    italian = alarm_text(alarm, Lang.IT)
    assert italian.startswith("La telecamera testimone")
    for english in ("shoe", "baize", "row", "card "):
        assert english not in italian, italian


def test_the_screen_alarms_a_switched_card_before_the_call(
    qtbot, tmp_path: Path, faces: dict[str, np.ndarray]  # type: ignore[no-untyped-def]
) -> None:
    fixture = tmp_path / "three.shoe"
    fixture.write_text(FIXTURE, encoding="utf-8")
    # The shoe on a pty (the simulator, native), the camera over a deal where the rouge
    # row's third card of coup 1 is not the one the shoe read.
    camera = CameraWitness(_frames(faces, Mislaying(switched={(0, 6): "5H"})))
    bridge = TableBridge(tmp_path / "t.db", load_rulebook("venezia"),
                         (simulator_source(fixture, pace=0.0),), camera=camera)
    screen = DealerScreen(bridge.submit)
    qtbot.addWidget(screen)
    boards = []
    bridge.board_changed.connect(boards.append)
    bridge.board_changed.connect(screen.show_board)
    bridge.start()
    try:
        qtbot.waitUntil(lambda: bool(boards) and boards[-1].coup is not None
                        and boards[-1].coup.number == 3, timeout=60000)
    finally:
        bridge.stop()
    # The alarm was on the screen, with rien ne va plus refused, before coup 1 was called.
    first_call = next(i for i, b in enumerate(boards) if b.coup is not None)
    alarmed = [b for b in boards[:first_call] if b.banner is not None
               and "the shoe read JH, the baize shows 5H" in b.banner.message]
    assert alarmed, "\n".join(f"{b.number} {b.coup is not None} {b.banner}" for b in boards[:8])
    assert Allowed.CHECK_BAIZE in alarmed[0].view.allowed
    assert Allowed.CLOSE_BETS not in alarmed[0].view.allowed
    said = [screen.alarm_list.item(i).text() for i in range(screen.alarm_list.count())]
    assert any("le sabot a lu J♥, le tapis montre 5♥" in line for line in said), said
    # The shoe keeps the record: coup 1 is played as the shoe read it.
    coup_one = next(b.coup for b in boards if b.coup is not None and b.coup.number == 1)
    assert JH in coup_one.rouge


def test_croupier_ui_wants_no_demo_with_a_shoe(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "ui", "--demo", "--shoe", "/dev/null"],
        capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert "--demo deals its own shoe: not with --shoe or --camera" in done.stderr


def test_croupier_ui_names_a_camera_it_cannot_open(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-camera"
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "ui", "--shoe", "/dev/null", "--camera",
         str(missing), "--first-frame", "--journal", str(tmp_path / "t.db")],
        capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 2, done.stderr
    assert f"croupier ui: --camera {missing}:" in done.stderr
    assert "no such camera" in done.stderr
    assert not (tmp_path / "t.db").exists()  # nothing was opened


def test_a_camera_beside_the_shoe_that_stops_is_the_camera_not_the_shoe() -> None:
    # app.runtime names the camera beside the shoe by its source, path and all.
    alarm = Alarm("device", "camera /dev/video2: the camera stopped: no frame")
    assert alarm_text(alarm, Lang.FR) == "La caméra : la lecture s'est arrêtée"
    assert alarm_text(alarm, Lang.IT) == "La telecamera: la lettura si è fermata"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _witnessed(journal: Path) -> tuple[list[str], int]:
    """The witness's alarms journaled before coup 1 was decided, and the coups decided."""
    alarms: list[str] = []
    coups = 0
    with contextlib.suppress(JournalError), Journal(journal, readonly=True) as rows:
        for row in rows.rows():
            body = row.data()
            if row.kind == "input" and body.get("type") == "device_alarm" and not coups:
                alarms.append(str(body.get("text")))
            if row.kind == "decisions":
                coups += sum(d.get("event") == "coup" for d in body["decisions"])
    return alarms, coups


@pytest.mark.timeout(240)
def test_croupier_ui_with_a_shoe_and_a_camera_journals_the_alarm_before_the_call(
    tmp_path: Path, faces: dict[str, np.ndarray]
) -> None:
    fixture = tmp_path / "three.shoe"
    fixture.write_text(FIXTURE, encoding="utf-8")
    frames = tmp_path / "frames"
    write_frames(_frames(faces, Mislaying(switched={(0, 6): "5H"})), frames)
    journal = tmp_path / "table.db"
    # The window on Qt's VNC platform: a real window that nobody needs to be at.
    env = {**os.environ, "QT_QPA_PLATFORM": f"vnc:port={_free_port()}"}
    with running_simulator(fixture, "native") as url:
        table = subprocess.Popen(
            [sys.executable, "-m", "croupier", "ui", "--shoe", url, "--camera", str(frames),
             "--journal", str(journal)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env=env)
        try:
            deadline = time.monotonic() + 180
            while _witnessed(journal)[1] < 3 and time.monotonic() < deadline:
                time.sleep(0.2)
        finally:
            table.send_signal(signal.SIGTERM)
            _, stderr = table.communicate(timeout=60)
    assert table.returncode == 0, stderr
    alarms, coups = _witnessed(journal)
    assert coups == 3
    assert any("the shoe read JH, the baize shows 5H" in alarm for alarm in alarms), alarms
    assert verify(journal).intact
