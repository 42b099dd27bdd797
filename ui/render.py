"""Views rendered offscreen, for `croupier screenshot`, and the first-frame probe."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from croupier.errors import CroupierError
from croupier.rulebook import Rulebook
from ui.i18n import Lang
from ui.scenario import Scenario, board_after, frames

if TYPE_CHECKING:  # Qt is loaded only once a picture is wanted
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QApplication, QWidget

    from ui.audit import AuditView

SCREENSHOT_PIN = "246800"  # the picture's throwaway journal needs a PIN to show the PIN flow


def _application() -> object:
    if not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a picture needs no display
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication(sys.argv[:1])


def render_view(view: str, scenario: Scenario, rulebook: Rulebook, after: int, *, lang: Lang,
                size: tuple[int, int]) -> QImage:
    """The named view after coup `after` of the scenario, as an image."""
    _application()
    widget = _build(view, scenario, rulebook, after, lang)
    widget.resize(*size)
    widget.show()
    from PySide6.QtWidgets import QApplication

    QApplication.processEvents()
    image = widget.grab().toImage()
    widget.close()
    widget.deleteLater()
    return image


def save_png(image: QImage, path: str) -> None:
    """Write `image` as a PNG whatever the file's name; `CroupierError` says why not."""
    from PySide6.QtGui import QImageWriter

    writer = QImageWriter(path, b"PNG")
    if not writer.write(image):
        raise CroupierError(f"cannot write {path!r}: {writer.errorString()}")


def _build(view: str, scenario: Scenario, rulebook: Rulebook, after: int,
           lang: Lang) -> QWidget:
    if view in ("audit", "stats"):
        audit = _audit(scenario, rulebook, after, lang)
        if view == "stats":
            audit.tabs.setCurrentIndex(1)  # the marque and the statistics against theory
        return audit
    if view == "replay":
        from ui.replay import ReplayView

        replay = ReplayView(rulebook, lang)
        replay.show_frames(scenario.name, frames(scenario, rulebook))
        replay.step_to_coup(after)
        return replay
    from ui.dealer import DealerScreen

    screen = DealerScreen(lambda _event: None, lang)
    screen.show_board(board_after(scenario, rulebook, after)[0])
    return screen


def _audit(scenario: Scenario, rulebook: Rulebook, after: int, lang: Lang) -> AuditView:
    from journal.chef import ChefDesk
    from journal.live import JournaledTable
    from ui.audit import AuditView
    from ui.audit_data import build_report

    _, used = board_after(scenario, rulebook, after)
    with tempfile.TemporaryDirectory(prefix="croupier-shot-") as directory:
        live = JournaledTable.open(Path(directory) / "journal.db", scenario.rulebook or rulebook,
                                   durable=False)
        try:
            desk = ChefDesk(live)
            desk.set_pin(SCREENSHOT_PIN, setup=True)
            for event in scenario.events[:used]:
                live.apply(event)
            report = build_report(live, desk)
        finally:
            live.close()
    view = AuditView(lambda _pin, _c: None, lambda _pin, _old: None, lambda: None, lang)
    view.show_report(report)
    return view


class FirstPaint:
    """Prints the wall-clock time of a widget's first paint, then quits the application."""

    @staticmethod
    def quit_after(widget: QWidget, app: QApplication) -> None:
        from PySide6.QtCore import QEvent, QObject, QTimer

        class _Probe(QObject):
            def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
                if event.type() == QEvent.Type.Paint:
                    print(f"first frame at {time.time():.6f}", flush=True)
                    widget.removeEventFilter(self)
                    QTimer.singleShot(0, app.quit)
                return False

        probe = _Probe(widget)
        widget.installEventFilter(probe)
