"""The one crossing into Qt: the table's live runtime (`app.runtime`, the same as
`croupier table`'s) runs on a thread of its own; widgets get signals.

Device sources and the widgets' taps go to the runtime, whose one thread journals and
applies each event; this module's sink folds the decisions, with the table's snapshot, into
a new `Board` and emits it. The GUI thread never touches the table, the journal or a port:
it only hands the runtime commands (which never blocks) and receives frozen values through
queued signals. The chef's reports are read from the journal by a process of their own
(`ui.audit_process`), waited for on a thread of their own, so that neither the GUI nor the
cards wait for them.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.reading import Source
from app.runtime import Camera, Playing, Runtime
from croupier.decisions import Corrected, Decision, Rejected
from croupier.errors import CroupierError
from croupier.rulebook import Rulebook
from croupier.table import Event
from journal.chef import ChefDesk, Correction, Refused, Role
from journal.live import JournaledTable
from ui.audit_data import AuditReport
from ui.audit_process import ReportProcess
from ui.board import Board, fold, initial_board, paid_record, restore_ticks, tick

STOP_TIMEOUT = 5.0


class TableBridge(QObject):
    """Owns the table's runtime; its signals are the only way table state reaches widgets."""

    board_changed = Signal(Board)
    rejected = Signal(str)
    refused = Signal(Refused)
    answered = Signal(str, bool)  # a correction or a new PIN: what was done, or why not
    audit_ready = Signal(AuditReport)
    failed = Signal(str)

    def __init__(
        self,
        journal: str | Path,
        rulebook: Rulebook,
        sources: Sequence[Source] = (),
        *,
        secret: bytes | None = None,
        camera: Camera | None = None,
        durable: bool = True,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        path = Path(journal)
        self._sink = _ScreenSink(self, path, rulebook, secret)
        # False only for measurements: a table's journal syncs.
        self._runtime = Runtime(
            lambda: JournaledTable.open(path, rulebook, secret=secret, durable=durable),
            sources, self._sink, camera=camera)

    # -- the GUI side: every call only hands the runtime a command -----------------------

    def start(self) -> None:
        self._runtime.start()  # it starts the sources once it knows where the shoe stood

    def submit(self, event: Event) -> None:
        """A tap or a device event: journaled and applied on the runtime, in arrival order."""
        self._runtime.submit(event)

    def correct(self, pin: str, correction: Correction) -> None:
        self._runtime.call(lambda playing: self._sink.correct(playing, pin, correction))

    def set_pin(self, pin: str, old_pin: str | None = None) -> None:
        self._runtime.call(lambda playing: self._sink.set_pin(playing, pin, old_pin))

    def tick(self, number: int, line: int, paid: bool) -> None:
        """A payout line ticked off: journaled, so that a restart mid-payout keeps it."""
        self._runtime.call(lambda playing: self._sink.tick(playing, number, line, paid))

    def request_audit(self) -> None:
        self._runtime.call(lambda _playing: self._sink.request_audit())

    def stop(self) -> None:
        """Stops the sources, then the runtime once it has applied what they sent."""
        self._runtime.stop()
        self._sink.close()


class _ScreenSink:
    """The runtime's news folded into boards, on the runtime's thread."""

    def __init__(self, bridge: TableBridge, path: Path, rulebook: Rulebook,
                 secret: bytes | None) -> None:
        self._bridge = bridge
        self._reader = AuditReader(path, rulebook, secret, bridge)
        self._board: Board | None = None

    def opened(self, playing: Playing) -> None:
        assert isinstance(playing, JournaledTable)
        self._reader.start()
        view = playing.table.view()
        board = initial_board(view)
        for event, decisions in playing.recent:  # the last coup's plan, drawn again
            board = fold(board, event, decisions, view)
        self._show(restore_ticks(board, (row.data() for row in playing.journal.rows("paid"))))

    def applied(self, events: tuple[Event, ...], answers: list[list[Decision]],
                playing: Playing) -> None:
        view = playing.table.view()
        board = self._board
        assert board is not None
        for k, (event, decisions) in enumerate(zip(events, answers, strict=True)):
            board = fold(board, event, decisions, view, last=k == len(events) - 1)
            self._show(board)
            if len(decisions) == 1 and isinstance(refusal := decisions[0], Rejected):
                self._bridge.rejected.emit(refusal.reason)

    def failed(self, message: str) -> None:
        self._bridge.failed.emit(message)

    def correct(self, playing: Playing, pin: str, correction: Correction) -> None:
        assert isinstance(playing, JournaledTable)
        assert self._board is not None
        result = ChefDesk(playing).correct(Role.CHEF, pin, correction)
        if isinstance(result, Refused):
            self._bridge.refused.emit(result)
        else:
            board = fold(self._board, correction, result, playing.table.view())
            self._show(board)
            done = [d.detail for d in result if isinstance(d, Corrected)]
            self._bridge.answered.emit("; ".join(done) or board.rejected or "", bool(done))
        self._reader.request()  # a fresh report

    def set_pin(self, playing: Playing, pin: str, old_pin: str | None) -> None:
        assert isinstance(playing, JournaledTable)
        refused = ChefDesk(playing).set_pin(pin, old_pin=old_pin)
        if refused is not None:
            self._bridge.refused.emit(refused)
        else:
            self._bridge.answered.emit("PIN", True)
        self._reader.request()

    def tick(self, playing: Playing, number: int, line: int, paid: bool) -> None:
        assert isinstance(playing, JournaledTable)
        assert self._board is not None
        ticked = tick(self._board, number, line, paid)
        if ticked != self._board:
            playing.journal.append("paid", paid_record(ticked, line, paid))
            self._show(ticked)

    def request_audit(self) -> None:
        self._reader.request()

    def close(self) -> None:
        self._reader.stop()

    def _show(self, board: Board) -> None:
        self._board = board
        self._bridge.board_changed.emit(board)


class AuditReader:
    """Builds the chef's reports in a process of its own, waited for on a thread of its own:
    reading a day's journal takes a good part of a second of Python, which in this process
    would hold the interpreter's lock away from the cards. Requests that pile up while one
    is built are answered by one report, holding only the journal's rows not yet sent."""

    def __init__(self, path: Path, rulebook: Rulebook, secret: bytes | None,
                 bridge: TableBridge) -> None:
        self._path, self._rulebook, self._secret = path, rulebook, secret
        self._bridge = bridge
        self._after = 0  # the last journal row sent to the view
        self._queue: queue.SimpleQueue[bool] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="croupier-audit", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def request(self) -> None:
        self._queue.put(True)

    def stop(self) -> None:
        if self._thread.ident is None:
            return  # never started: the table's journal never opened
        self._queue.put(False)
        self._thread.join(STOP_TIMEOUT)

    def _run(self) -> None:
        process = ReportProcess()
        try:
            while self._next():
                self._report(process)
        finally:
            process.close()

    def _report(self, process: ReportProcess) -> None:
        try:
            report = process.report(str(self._path), self._rulebook, self._secret,
                                    self._after)
        except CroupierError as err:
            self._bridge.failed.emit(f"cannot read the journal: {err}")
            return
        if report.lines:
            self._after = report.lines[-1].seq
        self._bridge.audit_ready.emit(report)

    def _next(self) -> bool:
        """Wait for a request; False once asked to stop."""
        wanted = self._queue.get()
        while wanted and not self._queue.empty():
            wanted = self._queue.get()
        return wanted
