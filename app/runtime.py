"""The headless live table: a reader thread per shoe source puts events on one queue; the
calling thread applies them to the engine and prints what each decision means. A camera
beside the shoe puts its layouts on the same queue, and the shoe's cards are played once it
has witnessed them (`app.witnessing`)."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Protocol, TextIO, assert_never, runtime_checkable

from app.witnessing import STALL, WitnessGate
from croupier.decisions import Decision
from croupier.engine import Shoe
from croupier.events import DeviceAlarm, ShoeEvent
from croupier.transcript import describe
from croupier.witness import Layout
from drivers.backends import ShoeSource
from drivers.serial_shoe import Batch

JOIN_TIMEOUT = 3.0
POLL = 0.1  # how often the consumer looks up from the queue, so Ctrl-C is never stuck


class _Ended:
    """Put on the queue by a reader thread whose source has no more events."""


class _CameraEnded:
    """Put on the queue by the camera's thread when it shows no more frames."""


_Item = Batch | Layout | _Ended | _CameraEnded


class Camera(Protocol):
    """A camera beside the shoe (`drivers.backends.CameraWitness`)."""

    name: str

    def layouts(self) -> Iterator[Layout]: ...

    def close(self) -> None: ...


def _pump(name: str, batches: Iterator[Batch], put: Callable[[_Item], None]) -> None:
    try:
        for batch in batches:
            put(batch)
    except Exception as err:  # a reader must never stop without a word
        put(Batch((DeviceAlarm(name, f"the reader stopped: {type(err).__name__}: {err}"),)))
    finally:
        put(_Ended())


def _watch(camera: Camera, put: Callable[[_Item], None]) -> None:
    try:
        for layout in camera.layouts():
            put(layout)
    except Exception as err:  # the shoe plays on, unwitnessed, after an alarm
        put(Batch((DeviceAlarm(camera.name, f"the camera stopped: {type(err).__name__}: "
                                            f"{err}", check=True),)))
    finally:
        put(_CameraEnded())


class Playing(Protocol):
    """A table that takes events: a `croupier.table.Table`, or one that journals first."""

    def apply(self, event: ShoeEvent) -> list[Decision]: ...


@runtime_checkable
class Journaling(Playing, Protocol):
    """A table that journals a batch of events whole, with where the shoe's link stands."""

    def apply_batch(self, events: tuple[ShoeEvent, ...], link: int | None) -> list[Decision]:
        ...


class LiveTable:
    """One table fed by any number of sources, printing `describe` lines to `out`; with a
    `camera`, the sources' cards wait for it to witness them (`engine`: the table's shoe
    engine, where the cards will be placed)."""

    def __init__(
        self,
        sources: list[ShoeSource],
        table: Playing,
        out: TextIO,
        *,
        camera: Camera | None = None,
        engine: Callable[[], Shoe] | None = None,
    ) -> None:
        self._sources = sources
        self.table = table
        self._out = out
        self._queue: queue.Queue[_Item] = queue.Queue()
        self._camera = camera
        self._gate: WitnessGate | None = None
        if camera is not None:
            assert engine is not None, "a camera witnesses where the engine places cards"
            self._gate = WitnessGate(self._apply, engine)
        self._threads = [
            threading.Thread(
                target=_pump,
                args=(f"source {n}", s.batches(), self._queue.put),
                name=f"shoe-reader-{n}",
                daemon=True,  # a camera waiting for a frame cannot be interrupted
            )
            for n, s in enumerate(sources, 1)
        ]
        if camera is not None:
            self._threads.append(threading.Thread(
                target=_watch, args=(camera, self._queue.put), name="camera", daemon=True))

    def run(self, stop: threading.Event | None = None) -> None:
        """Applies events until every source has ended or `stop` is set; Ctrl-C (in the
        calling thread) stops it too. The sources are closed and their threads joined."""
        stop = stop or threading.Event()
        for thread in self._threads:
            thread.start()
        running = len(self._threads)
        last_frame = time.monotonic()
        try:
            while running and not stop.is_set():
                try:
                    item = self._queue.get(timeout=POLL)
                except queue.Empty:
                    if self._gate and time.monotonic() - last_frame > STALL:
                        self._show(self._gate.stalled())
                    continue
                if isinstance(item, Layout):
                    last_frame = time.monotonic()
                self._show(self._take(item))
                running -= isinstance(item, _Ended | _CameraEnded)
        finally:
            for source in self._sources:
                source.close()
            if self._camera is not None:
                self._camera.close()
            for thread in self._threads:
                thread.join(JOIN_TIMEOUT)

    def _take(self, item: _Item) -> list[Decision]:
        """What one item from the queue does to the table."""
        gate = self._gate
        match item:
            case _Ended():
                return []
            case _CameraEnded():
                return gate.ended() if gate else []
            case Layout():
                return gate.look(item) if gate else []
            case Batch():
                return gate.offer(item) if gate else self._apply(item)
            case _:
                assert_never(item)

    def _apply(self, batch: Batch) -> list[Decision]:
        """The one place events enter the table: a journaled one records the batch whole,
        with the link's position, before applying it."""
        if isinstance(self.table, Journaling):
            return self.table.apply_batch(batch.events, batch.position)
        return [d for event in batch.events for d in self.table.apply(event)]

    def _show(self, decisions: list[Decision]) -> None:
        for decision in decisions:
            for line in describe(decision):
                print(line, file=self._out, flush=True)
