"""The demo's path end to end: the shoe simulator as its own process on a pty, read by the
serial driver on a reader thread, applied by the bridge's worker, shown by the screen."""

from __future__ import annotations

from app.sources import camera_source, serial_source, simulator_source
from croupier.events import DeviceAlarm
from croupier.rulebook import load_rulebook
from croupier.table import Event
from journal.store import Journal, verify
from tests.test_ui_support import BURN, FIXTURES, apply, cards
from ui.bridge import TableBridge
from ui.dealer import DealerScreen


def test_simulated_shoe_on_a_pty_reaches_the_dealer_screen(qtbot, tmp_path) -> None:
    feed = simulator_source(FIXTURES / "couleur_calls.shoe", pace=0.0)
    bridge = TableBridge(tmp_path / "demo.db", load_rulebook("venezia"), (feed,))
    screen = DealerScreen(bridge.submit)
    qtbot.addWidget(screen)
    bridge.board_changed.connect(screen.show_board)
    bridge.start()
    try:
        qtbot.waitUntil(lambda: screen.board is not None and screen.board.view.cut_passed
                        and screen.board.view.talon == 5, timeout=10000)
    finally:
        bridge.stop()
    assert screen.board is not None
    assert screen.board.number == 4
    assert screen.call_fr.text() == "deux · cinq · rouge perd et couleur"
    # Every input journaled with its decisions: burn 5, coups of 8, 9, 9, 11 cards, the cut
    # card and a talon of 5.
    assert verify(tmp_path / "demo.db").intact
    with Journal(tmp_path / "demo.db", readonly=True) as journal:
        inputs = [row.seq for row in journal.rows("input")]
        answered = [row.data()["cause"] for row in journal.rows("decisions")]
    assert len(inputs) == 5 + 8 + 9 + 9 + 11 + 1 + 5
    assert answered == inputs


def test_a_shoe_that_cannot_be_opened_raises_an_alarm_not_an_error(qtbot, tmp_path) -> None:
    bridge = TableBridge(tmp_path / "t.db", load_rulebook("venezia"),
                         (serial_source(str(tmp_path / "no-such-port")),))
    screen = DealerScreen(bridge.submit)
    qtbot.addWidget(screen)
    bridge.board_changed.connect(screen.show_board)
    bridge.start()
    try:
        qtbot.waitUntil(lambda: "cannot open the port" in screen.alarm_banner.text(),
                        timeout=5000)
    finally:
        bridge.stop()


def test_a_camera_that_cannot_be_opened_raises_an_alarm(tmp_path) -> None:
    got: list[tuple[Event, ...]] = []
    feed = camera_source(str(tmp_path / "no-such-camera"), load_rulebook("venezia"))
    ended: list[bool] = []
    feed.start(lambda events, _link: got.append(events), None, lambda: ended.append(True))
    feed.stop()
    assert ended == [True]  # the runtime hears that this source has nothing more
    assert len(got) == 1
    (alarm,) = got[0]
    assert isinstance(alarm, DeviceAlarm)
    assert "no-such-camera" in alarm.text


def test_a_fault_in_the_worker_stops_the_table_aloud(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from croupier.rulebook import load_rulebook
    from journal.store import Journal
    from ui.bridge import TableBridge

    bridge = TableBridge(tmp_path / "t.db", load_rulebook("venezia"))
    with qtbot.waitSignal(bridge.board_changed, timeout=5000):
        bridge.start()
    try:
        with qtbot.waitSignal(bridge.failed, timeout=5000) as stopped:
            bridge.submit("not an event")  # type: ignore[arg-type]  # a fault of ours
    finally:
        bridge.stop()
    assert stopped.args[0].startswith("the table stopped: TypeError")
    with Journal(tmp_path / "t.db", readonly=True) as journal:
        logged = [row.data() for row in journal.rows("log")]
    assert [entry["level"] for entry in logged] == ["fatal"]


def test_the_tailleur_answers_a_gap_at_the_baize(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt

    from croupier.rulebook import load_rulebook
    from ui.bridge import TableBridge

    bridge = TableBridge(tmp_path / "t.db", load_rulebook("venezia"))
    screen = DealerScreen(bridge.submit)
    qtbot.addWidget(screen)
    bridge.board_changed.connect(screen.show_board)
    with qtbot.waitSignal(bridge.board_changed, timeout=5000):
        bridge.start()
    try:
        apply(qtbot, bridge, *cards(*BURN))  # bets open once the burn is done
        with qtbot.waitSignal(bridge.board_changed, timeout=5000):
            bridge.submit(DeviceAlarm("table", "the table was down", check=True))
        assert not screen.check_button.isHidden()
        assert not screen.close_bets_button.isEnabled()
        with qtbot.waitSignal(bridge.board_changed, timeout=5000):
            qtbot.mouseClick(screen.check_button, Qt.MouseButton.LeftButton)
        assert screen.check_button.isHidden()
        assert screen.close_bets_button.isEnabled()
    finally:
        bridge.stop()
