"""`croupier ui` (the table's window) and `croupier screenshot` (a view rendered offscreen)."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import sys
import tempfile
import zoneinfo
from datetime import tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

from app.argparsing import CommandParser, seconds
from croupier.errors import CroupierError
from croupier.rulebook import DEFAULT, load_rulebook
from ui.i18n import Lang

if TYPE_CHECKING:  # Qt is imported only once a window or a picture is wanted
    from PySide6.QtWidgets import QApplication

    from app.reading import Source
    from croupier.table import Event
    from drivers.backends import CameraWitness
    from ui.app import TableWindow

DEMO_PACE = 0.8  # seconds a card: a tailleur's unhurried pace
SCREEN_SIZE = (1600, 1000)  # the pictures' default size


def _ui_parser() -> CommandParser:
    from drivers.dialects import DIALECTS

    parser = CommandParser(prog="croupier ui", description="The tailleur's and chef's window.")
    parser.add_argument("--demo", action="store_true",
                        help="deal a fresh shoe from the shoe simulator on a pty, with "
                        "simulated players staking between coups")
    parser.add_argument("--shoe", metavar="URL", help="a card-reading shoe: a device, a pty, "
                        "socket://host:port")
    parser.add_argument("--camera", metavar="SOURCE",
                        help="a camera over the layout: an index, a video file or a folder "
                        "of frames; alone it reads the cards, beside --shoe it witnesses "
                        "them: any difference from the shoe is an alarm")
    parser.add_argument("--dialect", default="native", choices=list(DIALECTS),
                        help="the shoe's dialect")
    parser.add_argument("--journal", metavar="FILE.db",
                        help="the table's journal, resumed if it exists (default: table.db "
                        "in the user's data folder; a new temporary file for --demo)")
    parser.add_argument("--key-file", help="the table's secret, for a keyed journal "
                        "(default: $CROUPIER_TABLE_KEY_FILE)")
    parser.add_argument("--rules", default=DEFAULT, help="rulebook name or .toml path")
    parser.add_argument("--lang", choices=[lang.value for lang in Lang], default="fr")
    parser.add_argument("--pace", type=seconds, default=DEMO_PACE,
                        help="the demo's seconds per card")
    parser.add_argument("--seed", type=int, help="the demo shoe's shuffle (default: random)")
    parser.add_argument("--first-frame", action="store_true",
                        help="print the wall-clock time of the first painted frame and quit")
    parser.add_argument("--floor", metavar="DSN",
                        help="ship the journal to the casino floor's PostgreSQL as it grows")
    parser.add_argument("--table", dest="table_id", metavar="ID",
                        help="the table's name on the floor (with --floor)")
    parser.add_argument("--kiosk", action="store_true",
                        help="full screen, for the table's PC (else the window opens where "
                        "and as large as it was last closed)")
    parser.add_argument("--tz", metavar="ZONE", type=_zone,
                        help="the casino's time zone for the chef's journal, such as "
                        "Europe/Monaco (default: this computer's)")
    return parser


def _zone(name: str) -> tzinfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as err:
        raise argparse.ArgumentTypeError(f"no time zone {name!r}: {err}") from None


def _screenshot_parser() -> CommandParser:
    parser = CommandParser(prog="croupier screenshot",
                           description="Render a view offscreen to PNG.")
    parser.add_argument("out", help="the PNG to write")
    parser.add_argument("--fixture", help="a .shoe fixture, .session.jsonl script or "
                        "journal .db (default: a built-in demo shoe)")
    parser.add_argument("--view", choices=["dealer", "audit", "stats", "replay"],
                        default="dealer", help="stats: the audit view's marque and statistics")
    parser.add_argument("--after", type=int, default=1, help="show the table after coup N")
    parser.add_argument("--rules", default=DEFAULT, help="rulebook name or .toml path")
    parser.add_argument("--lang", choices=[lang.value for lang in Lang], default="fr")
    parser.add_argument("--size", default="x".join(map(str, SCREEN_SIZE)),
                        help="WIDTHxHEIGHT in pixels")
    return parser


def main(command: str, args: list[str]) -> int:
    try:
        if command == "screenshot":
            return _screenshot(_screenshot_parser().parse_args(args))
        if command == "ui":
            return _ui(_ui_parser().parse_args(args))
    except CroupierError as err:
        print(f"croupier {command}: {err}", file=sys.stderr)
        return 2
    print(f"croupier: {command!r} is not a ui command", file=sys.stderr)
    return 2


HIDDEN_PLATFORMS = ("offscreen", "minimal")  # Qt draws there, but nobody can see or touch it


def has_display() -> bool:
    """False on a Unix machine with no X or Wayland display and no Qt platform chosen, or
    with a Qt platform that shows nothing."""
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform.split(":")[0] in HIDDEN_PLATFORMS:
        return False
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(platform or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


# -- croupier screenshot ------------------------------------------------------------------


def _size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"([1-9][0-9]{2,3})x([1-9][0-9]{2,3})", text)
    if match is None or not all(200 <= int(side) <= 8000 for side in match.groups()):
        raise CroupierError(f"--size wants WIDTHxHEIGHT such as 1600x1000, not {text!r}")
    return int(match[1]), int(match[2])


def _screenshot(options: argparse.Namespace) -> int:
    from ui.render import render_view, save_png
    from ui.scenario import demo_scenario, load_scenario

    size = _size(options.size)
    if options.after < 0:
        raise CroupierError(f"--after wants a coup number, not {options.after}")
    rulebook = load_rulebook(options.rules)
    scenario = load_scenario(options.fixture) if options.fixture else demo_scenario()
    image = render_view(options.view, scenario, rulebook, options.after,
                        lang=Lang(options.lang), size=size)
    save_png(image, options.out)
    print(f"{options.out}: the {options.view} view after coup {options.after} of "
          f"{scenario.name}")
    return 0


# -- croupier ui --------------------------------------------------------------------------


def _ui(options: argparse.Namespace) -> int:
    if (options.floor is None) != (options.table_id is None):
        _ui_parser().error("--floor and --table go together")
    if options.demo and (options.shoe or options.camera):
        _ui_parser().error("--demo deals its own shoe: not with --shoe or --camera")
    rulebook = load_rulebook(options.rules)
    if not has_display() and not options.first_frame:
        return _headless(options)
    from ui.system_libs import install_hint, missing_xcb_libraries, wants_xcb

    if wants_xcb() and (missing := missing_xcb_libraries()):
        print(f"croupier ui: {install_hint(missing)}", file=sys.stderr)
        return _headless(options, announce=False) if options.demo else 2
    from PySide6.QtWidgets import QApplication

    from app.journal_commands import read_secret
    from app.sources import camera_source, serial_source
    from journal.live import default_journal_path
    from ui.app import TableWindow
    from ui.bridge import TableBridge

    journal = Path(options.journal) if options.journal else default_journal_path()
    sources: tuple[Source, ...] = ()
    opening: list[Event] = []
    workdir: Path | None = None
    seed = 0
    if options.demo:
        from ui.demo import DemoGate

        workdir = demo_folder()
        journal = Path(options.journal) if options.journal else workdir / "journal.db"
        feed, opening, seed = _demo_feed(options, workdir)
        gate = DemoGate(options.pace)
        sources = (feed.through(gate),)
    elif options.shoe:
        sources = (serial_source(options.shoe, options.dialect),)
    elif options.camera:
        sources = (camera_source(options.camera, rulebook),)
    camera = _witness(options.camera) if options.shoe and options.camera else None
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    bridge = TableBridge(journal, rulebook, sources, secret=read_secret(options.key_file),
                         camera=camera)
    for event in opening:
        bridge.submit(event)  # queued ahead of the shoe's first card
    window = TableWindow(bridge, rulebook, Lang(options.lang), zone=options.tz)
    if options.demo:
        from ui.demo import DemoPlayers

        # Players pay attention to the table, and so does the gate: each new board.
        players = DemoPlayers(bridge.submit, hold=max(1.0, 5 * options.pace),
                              call_after=max(1.0, 8 * options.pace), seed=seed, parent=window)
        bridge.board_changed.connect(lambda board: gate.show(board.view))
        bridge.board_changed.connect(players.show_board)
    print(f"croupier ui: journal {journal}", file=sys.stderr)
    try:
        return _run(app, window, options, journal)
    finally:
        if workdir is not None:
            shutil.rmtree(workdir, ignore_errors=True)


def _run(app: QApplication, window: TableWindow, options: argparse.Namespace,
         journal: Path) -> int:
    """Shows the window and runs until it closes, the journal shipped beside it if asked."""
    if options.first_frame:
        from ui.render import FirstPaint

        FirstPaint.quit_after(window.dealer, app)
    _quit_on_interrupt(app)
    window.bridge.start()
    window.present(kiosk=options.kiosk)
    shipping: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
    if options.floor:
        from floor.beside import shipper_beside  # its own process: the screen never waits

        shipping = shipper_beside(journal, options.table_id, options.floor)
    try:
        with shipping:
            return app.exec()
    finally:
        window.bridge.stop()


def _witness(source: str) -> CameraWitness:
    """The camera beside the shoe: the shoe's cards are the record, the camera's reading of
    the baize is compared with them coup by coup."""
    from drivers.backends import CameraWitness
    from drivers.errors import ShoeError

    try:
        return CameraWitness(source)
    except (ShoeError, OSError) as err:
        raise CroupierError(f"--camera {source}: {err}") from None


DEMO_PREFIX = "croupier-demo-"


def demo_folder() -> Path:
    """A folder for one demo's shoe and journal, removed when the demo ends; the folders of
    demos that were killed (nothing of theirs ran) are removed by the next one."""
    for stale in Path(tempfile.gettempdir()).glob(DEMO_PREFIX + "*"):
        if not _owner_alive(stale):
            shutil.rmtree(stale, ignore_errors=True)
    folder = Path(tempfile.mkdtemp(prefix=DEMO_PREFIX))
    (folder / "owner").write_text(str(os.getpid()), encoding="ascii")
    return folder


def _owner_alive(folder: Path) -> bool:
    try:
        pid = int((folder / "owner").read_text(encoding="ascii"))
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, ValueError):
        return True  # not ours to judge: another user's, or one being made right now
    return True


def _quit_on_interrupt(app: QApplication) -> None:
    """Ctrl-C in the terminal closes the window: Python runs its signal handlers only between
    bytecodes, so a timer lets the interpreter in a few times a second."""
    from PySide6.QtCore import QTimer

    signal.signal(signal.SIGINT, lambda _signum, _frame: app.quit())
    signal.signal(signal.SIGTERM, lambda _signum, _frame: app.quit())
    timer = QTimer(app)
    timer.timeout.connect(lambda: None)
    timer.start(250)


def _demo_feed(options: argparse.Namespace, workdir: Path) -> tuple[Source, list[Event], int]:
    import random

    from app.sources import simulator_source
    from croupier.fixtures import render_shoe
    from croupier.shuffle import regulation_shoe
    from ui.scenario import DEMO_TABLE

    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
    fixture = workdir / f"demo-{seed}.shoe"
    fixture.write_text(render_shoe(regulation_shoe(random.Random(seed), face_up_rate=0.004)),
                       encoding="utf-8")
    print(f"croupier ui: demo shoe {fixture} (seed {seed}), a card every {options.pace} s",
          file=sys.stderr)
    return simulator_source(fixture, pace=options.pace), list(DEMO_TABLE), seed


def _headless(options: argparse.Namespace, *, announce: bool = True) -> int:
    if not options.demo:
        raise CroupierError("no display ($DISPLAY, $WAYLAND_DISPLAY) to open the window on; "
                            "set QT_QPA_PLATFORM, or use `croupier screenshot`")
    from app import replay

    if announce:
        print("croupier ui: no display to open the window on ($DISPLAY, $WAYLAND_DISPLAY and "
              "$QT_QPA_PLATFORM are unset)", file=sys.stderr)
    print("croupier ui: here is the same shoe as a text transcript instead; "
          "`croupier screenshot OUT.png` renders the dealer screen to a picture.",
          file=sys.stderr)
    args = ["--rules", options.rules] + (["--seed", str(options.seed)]
                                         if options.seed is not None else [])
    return replay.main("demo", args)
