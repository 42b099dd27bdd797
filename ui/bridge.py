"""The one crossing into Qt: a worker thread owns the journaled table; widgets get signals.

Device readers (`ui.feeds`) and the widgets' taps put commands on one queue. A single worker
thread drains it: it journals and applies each event, folds the decisions into a new `Board`
and emits it. The GUI thread never touches the table, the journal or a port: it only puts
commands on the queue (which never blocks) and receives frozen values through queued signals.
The chef's reports are read from the journal by a process of their own (`ui.audit_process`),
waited for on a thread of their own, so that neither the GUI nor the cards wait for them.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, Signal

from croupier.decisions import Corrected, Rejected
from croupier.errors import CroupierError
from croupier.rulebook import Rulebook
from croupier.table import Event
from journal.chef import ChefDesk, Correction, Refused, Role
from journal.live import JournaledTable, gap_alarm
from ui.audit_data import AuditReport
from ui.audit_process import ReportProcess
from ui.board import Board, fold, initial_board, paid_record, restore_ticks, tick

STOP_TIMEOUT = 5.0


@dataclass(frozen=True, slots=True)
class Apply:
    """Events journaled whole, with where the shoe's link stands after them (a batch)."""

    events: tuple[Event, ...]
    link: int | None = None


@dataclass(frozen=True, slots=True)
class Correct:
    pin: str
    correction: Correction


@dataclass(frozen=True, slots=True)
class SetPin:
    pin: str
    old_pin: str | None


@dataclass(frozen=True, slots=True)
class Tick:
    """A line of coup `number`'s plan ticked off as done (or back)."""

    number: int
    line: int
    paid: bool


@dataclass(frozen=True, slots=True)
class Audit:
    """Gather a fresh `AuditReport`."""


@dataclass(frozen=True, slots=True)
class _Stop:
    pass


Command = Apply | Correct | SetPin | Tick | Audit | _Stop


class Feed(Protocol):
    """A source of shoe events on its own thread, putting them with `put` as they arrive.
    `resends` is None for a source that is no shoe link (a camera), else whether the shoe
    can resend what a restarted table missed; `resume_at` is where to take up again."""

    resends: bool | None

    def start(self, put: PutBatch, resume_at: int | None) -> None: ...

    def stop(self) -> None: ...


class PutBatch(Protocol):
    def __call__(self, events: tuple[Event, ...], link: int | None) -> None: ...


class TableBridge(QObject):
    """Owns the worker thread; its signals are the only way table state reaches widgets."""

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
        feeds: tuple[Feed, ...] = (),
        *,
        secret: bytes | None = None,
        durable: bool = True,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._secret = secret
        self._durable = durable  # False only for measurements: a table's journal syncs
        self._path = Path(journal)
        self._rulebook = rulebook
        self._feeds = feeds
        self._queue: queue.SimpleQueue[Command] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    # -- the GUI side: every call only enqueues ---------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="croupier-table", daemon=True)
        self._thread.start()  # it starts the feeds once it knows where the shoe stood

    def submit(self, event: Event) -> None:
        """A tap or a device event: journaled and applied on the worker, in arrival order."""
        self._queue.put(Apply((event,)))

    def _put_batch(self, events: tuple[Event, ...], link: int | None) -> None:
        self._queue.put(Apply(events, link))

    def correct(self, pin: str, correction: Correction) -> None:
        self._queue.put(Correct(pin, correction))

    def set_pin(self, pin: str, old_pin: str | None = None) -> None:
        self._queue.put(SetPin(pin, old_pin))

    def tick(self, number: int, line: int, paid: bool) -> None:
        """A payout line ticked off: journaled, so that a restart mid-payout keeps it."""
        self._queue.put(Tick(number, line, paid))

    def request_audit(self) -> None:
        self._queue.put(Audit())

    def stop(self) -> None:
        """Stops the feeds, then the worker once it has applied what they sent."""
        for feed in self._feeds:
            feed.stop()
        if self._thread is not None:
            self._queue.put(_Stop())
            self._thread.join(STOP_TIMEOUT)
            self._thread = None

    # -- the worker thread -------------------------------------------------------------

    def _run(self) -> None:
        try:
            live = JournaledTable.open(self._path, self._rulebook, secret=self._secret,
                                       durable=self._durable)
        except CroupierError as err:
            self.failed.emit(f"cannot open the journal: {err}")
            return
        for feed in self._feeds:
            if feed.resends is not None and (alarm := gap_alarm(live, resends=feed.resends)):
                self._queue.put(Apply((alarm,)))
            feed.start(self._put_batch, live.link)
        reader = AuditReader(self._path, self._rulebook, self._secret, self)
        reader.start()
        try:
            self._serve(live, reader)
        finally:
            reader.stop()
            live.close()

    def _serve(self, live: JournaledTable, reader: AuditReader) -> None:
        desk = ChefDesk(live)
        board = restore_ticks(initial_board(live.table.view()),
                              (row.data() for row in live.journal.rows("paid")))
        self.board_changed.emit(board)
        while True:
            command = self._queue.get()
            if isinstance(command, _Stop):
                return
            try:
                board = self._handle(command, live, desk, board)
                if not isinstance(command, Apply):
                    reader.request()  # a correction, a PIN or a request: a fresh report
            except (CroupierError, ValueError) as err:
                # A full disk or a locked journal: say so on the screen, keep serving.
                self.failed.emit(str(err))
            except Exception as err:  # a fault of ours: stop dealing, and say so aloud
                message = f"the table stopped: {type(err).__name__}: {err}"
                with contextlib.suppress(Exception):
                    live.journal.append("log", {"level": "fatal", "text": message[:500]})
                self.failed.emit(message + " (restart it: the journal holds every card)")
                return

    def _handle(
        self, command: Command, live: JournaledTable, desk: ChefDesk, board: Board
    ) -> Board:
        if isinstance(command, Apply):
            answers = live.answer_batch(command.events, command.link)
            view = live.table.view()
            for event, decisions in zip(command.events, answers, strict=True):
                board = fold(board, event, decisions, view)
                self.board_changed.emit(board)
                if len(decisions) == 1 and isinstance(refusal := decisions[0], Rejected):
                    self.rejected.emit(refusal.reason)
        elif isinstance(command, Tick):
            ticked = tick(board, command.number, command.line, command.paid)
            if ticked != board:
                live.journal.append("paid", paid_record(ticked, command.line, command.paid))
                board = ticked
                self.board_changed.emit(board)
        elif isinstance(command, Correct):
            result = desk.correct(Role.CHEF, command.pin, command.correction)
            if isinstance(result, Refused):
                self.refused.emit(result)
            else:
                board = fold(board, command.correction, result, live.table.view())
                self.board_changed.emit(board)
                done = [d.detail for d in result if isinstance(d, Corrected)]
                self.answered.emit("; ".join(done) or board.rejected or "", bool(done))
        elif isinstance(command, SetPin):
            refused = desk.set_pin(command.pin, old_pin=command.old_pin)
            if refused is not None:
                self.refused.emit(refused)
            else:
                self.answered.emit("PIN", True)
        return board


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
