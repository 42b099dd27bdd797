"""The one live runtime of a table, for `croupier table` and `croupier ui` alike.

Sources (a shoe's link, a camera) are each opened and read on a thread of their own, and put
what they read on one queue, as do the tailleur's taps. One thread drains it: it journals
each batch whole with where the shoe's link stands, applies it, and hands the decisions to
a sink — text lines for `croupier table`, the screen for `croupier ui`. The same thread runs
whatever else must touch the journal (the chef's corrections, a payout line ticked), so the
journal has one writer and the table one owner. A camera beside the shoe puts the layouts it
sees on the same queue, and the shoe's cards are played once it has witnessed them
(`app.witnessing`).
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, TextIO, assert_never

from app.reading import JOIN_TIMEOUT, Source
from app.witnessing import STALL, WitnessGate
from croupier.decisions import Decision
from croupier.errors import CroupierError
from croupier.events import DeviceAlarm, ShoeEvent
from croupier.table import Event, Table
from croupier.transcript import describe
from croupier.witness import Layout
from drivers.serial_shoe import Batch
from journal.live import JournaledTable, gap_alarm

POLL = 0.1  # how often the worker looks up from the queue, so Ctrl-C is never stuck


class Playing(Protocol):
    """A table the runtime feeds: journaled, or in memory only (tests, demonstrations)."""

    table: Table
    link: int | None

    def answer_batch(self, events: Sequence[Event], link: int | None) -> list[list[Decision]]:
        ...

    def close(self) -> None: ...


class Sink(Protocol):
    """Where the runtime's news goes; called on the runtime's thread."""

    def opened(self, playing: Playing) -> None:
        """The table stands ready (restored from its journal), before any source starts."""

    def applied(self, events: tuple[Event, ...], answers: list[list[Decision]],
                playing: Playing) -> None:
        """A batch applied: each event's decisions, and the table as they left it."""

    def failed(self, message: str) -> None:
        """Something went wrong that the tailleur must be told."""


class TextSink:
    """`croupier table`'s sink: what each decision means, a line at a time on `out`; what
    stopped the table on `errors`."""

    def __init__(self, out: TextIO, errors: TextIO, prefix: str) -> None:
        self._out, self._errors, self._prefix = out, errors, prefix

    def opened(self, playing: Playing) -> None:
        """Nothing to show before the first card."""

    def applied(self, events: tuple[Event, ...], answers: list[list[Decision]],
                playing: Playing) -> None:
        for decisions in answers:
            for decision in decisions:
                for line in describe(decision):
                    print(line, file=self._out, flush=True)

    def failed(self, message: str) -> None:
        print(f"{self._prefix}stopped: {message}", file=self._errors, flush=True)


class Camera(Protocol):
    """A camera beside the shoe (`drivers.backends.CameraWitness`)."""

    name: str

    def layouts(self) -> Iterator[Layout]: ...

    def close(self) -> None: ...


def _watch(camera: Camera, put: Callable[[_Command], None]) -> None:
    try:
        for layout in camera.layouts():
            put(_Look(layout))
    except Exception as err:  # the shoe plays on, unwitnessed, after an alarm
        put(_Dealt(Batch((DeviceAlarm(camera.name, f"the camera stopped: "
                                                   f"{type(err).__name__}: {err}",
                                                   check=True),))))
    finally:
        put(_CameraEnded())


@dataclass(frozen=True, slots=True)
class _Apply:
    events: tuple[Event, ...]
    link: int | None


@dataclass(frozen=True, slots=True)
class _Dealt:
    """A source's batch: a camera beside the shoe witnesses it first."""

    batch: Batch


@dataclass(frozen=True, slots=True)
class _Look:
    layout: Layout


@dataclass(frozen=True, slots=True)
class _CameraEnded:
    """The camera shows no more frames."""


@dataclass(frozen=True, slots=True)
class _Call:
    work: Callable[[Playing], None]


@dataclass(frozen=True, slots=True)
class _Ended:
    """A source has no more events."""


@dataclass(frozen=True, slots=True)
class _Stop:
    pass


_Command = _Apply | _Dealt | _Look | _Call | _Ended | _CameraEnded | _Stop


class Runtime:
    """One table, its sources and its sink. `run` serves on the calling thread until told
    to stop (or, with `until_sources_end`, until every source has ended); `start` serves on
    a thread of its own. A journal that can no longer be written stops a runtime that has
    `stop_on_error`; a screen's runtime says so and goes on. With a `camera`, the sources'
    cards wait for it to witness them."""

    def __init__(self, open_table: Callable[[], Playing], sources: Sequence[Source],
                 sink: Sink, *, camera: Camera | None = None, until_sources_end: bool = False,
                 stop_on_error: bool = False) -> None:
        self._camera = camera
        self._camera_thread: threading.Thread | None = None
        self._open_table = open_table
        self._sources = tuple(sources)
        self._sink = sink
        self._until_sources_end = until_sources_end
        self._stop_on_error = stop_on_error
        self._queue: queue.SimpleQueue[_Command] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self.error: CroupierError | None = None  # what stopped a `stop_on_error` runtime
        self._playing: Playing | None = None

    # -- any thread: every call only enqueues -------------------------------------------

    def submit(self, event: Event) -> None:
        """A tap or a device event: journaled and applied in arrival order."""
        self._queue.put(_Apply((event,), None))

    def put(self, events: tuple[ShoeEvent, ...], link: int | None) -> None:
        """A batch from a source, journaled whole with where the shoe's link stands."""
        self._queue.put(_Dealt(Batch(events, link)))

    def call(self, work: Callable[[Playing], None]) -> None:
        """Run `work` on the runtime's thread, in turn with the events."""
        self._queue.put(_Call(work))

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="croupier-table", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stops the sources, then the runtime once it has applied what they sent."""
        for source in self._sources:
            source.stop()
        self._queue.put(_Stop())
        if self._thread is not None:
            self._thread.join(JOIN_TIMEOUT)
            self._thread = None

    # -- the runtime's thread -----------------------------------------------------------

    def open(self) -> Playing | None:
        """Open the table and alarm any gap a restart left on a link that cannot resend,
        before anything else is applied; None (the sink told why) when it cannot open.
        `run` does it unless it was done."""
        try:
            playing = self._open_table()
        except CroupierError as err:
            self._abandon(f"cannot open the journal: {err}", err)
            return None
        self._sink.opened(playing)
        try:
            for source in self._sources:
                if isinstance(playing, JournaledTable) and source.resends is not None and (
                        alarm := gap_alarm(playing, resends=source.resends)):
                    self._sink.applied((alarm,), playing.answer_batch((alarm,), None),
                                       playing)
        except CroupierError as err:  # a full disk: the gap must not go unsaid
            # Said and let go of before the journal is closed: closing a journal on a full
            # disk may fail too, and must not keep the shoe's port or the camera.
            try:
                self._abandon(f"cannot journal the alarm for the restart's gap: {err}", err)
            finally:
                playing.close()
            return None
        self._playing = playing
        return playing

    def _abandon(self, why: str, err: CroupierError) -> None:
        """A table that cannot open lets go of its sources and its camera, never started."""
        self._sink.failed(why)
        self.error = err
        for source in self._sources:
            source.stop()
        if self._camera is not None:
            self._camera.close()

    def run(self, stop: threading.Event | None = None) -> None:
        if self._playing is None and self.error is None:
            self.open()
        playing = self._playing
        if playing is None:
            return
        try:
            for source in self._sources:
                source.start(self.put, playing.link, lambda: self._queue.put(_Ended()))
            if self._camera is not None:
                self._camera_thread = threading.Thread(
                    target=_watch, args=(self._camera, self._queue.put), name="camera",
                    daemon=True)  # a camera waiting for a frame cannot be interrupted
                self._camera_thread.start()
            self._serve(playing, stop or threading.Event())
        finally:
            for source in self._sources:
                source.stop()
            if self._camera is not None:
                self._camera.close()
            if self._camera_thread is not None:
                self._camera_thread.join(JOIN_TIMEOUT)
            playing.close()

    def _apply(self, playing: Playing, events: tuple[Event, ...],
               link: int | None) -> list[Decision]:
        """The one place events enter the table: journaled whole, then said to the sink."""
        answers = playing.answer_batch(events, link)
        self._sink.applied(events, answers, playing)
        return [d for answer in answers for d in answer]

    def _serve(self, playing: Playing, stop: threading.Event) -> None:
        running = len(self._sources) + (self._camera is not None)
        gate = None if self._camera is None else WitnessGate(
            lambda batch: self._apply(playing, batch.events, batch.position),
            lambda: playing.table.shoe)
        last_frame = time.monotonic()
        while not stop.is_set():
            if self._until_sources_end and not running:
                return
            try:
                command = self._queue.get(timeout=POLL)
            except queue.Empty:
                if gate is not None and time.monotonic() - last_frame > STALL:
                    gate.stalled()
                continue
            try:
                match command:
                    case _Stop():
                        return
                    case _Ended():
                        running -= 1
                    case _CameraEnded():
                        running -= 1
                        if gate is not None:
                            gate.ended()
                    case _Look(layout):
                        last_frame = time.monotonic()
                        if gate is not None:
                            gate.look(layout)
                    case _Dealt(batch) if gate is not None:
                        gate.offer(batch)
                    case _Dealt(batch):
                        self._apply(playing, batch.events, batch.position)
                    case _Apply(events, link):
                        self._apply(playing, events, link)
                    case _Call(work):
                        work(playing)
                    case _ as never:
                        assert_never(never)
            except (CroupierError, ValueError) as err:
                # A full disk or a locked journal: the journal keeps what it kept.
                self._sink.failed(str(err))
                if self._stop_on_error:
                    self.error = err if isinstance(err, CroupierError) else CroupierError(
                        str(err))
                    return
            except Exception as err:  # a fault of ours: stop dealing, and say so aloud
                message = f"the table stopped: {type(err).__name__}: {err}"
                if isinstance(playing, JournaledTable):
                    with contextlib.suppress(Exception):  # the journal may be what failed
                        playing.journal.append("log", {"level": "fatal",
                                                       "text": message[:500]})
                self._sink.failed(message + " (restart it: the journal holds every card)")
                self.error = CroupierError(message)
                return
