"""The headless live table: a reader thread per shoe source puts events on one queue; the
calling thread applies them to the engine and prints what each decision means."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from typing import Protocol, TextIO, runtime_checkable

from croupier.decisions import Decision
from croupier.events import DeviceAlarm, ShoeEvent
from croupier.transcript import describe
from drivers.backends import ShoeSource
from drivers.serial_shoe import Batch

JOIN_TIMEOUT = 3.0
POLL = 0.1  # how often the consumer looks up from the queue, so Ctrl-C is never stuck


class _Ended:
    """Put on the queue by a reader thread whose source has no more events."""


def _pump(
    name: str, batches: Iterator[Batch], put: Callable[[Batch | _Ended], None]
) -> None:
    try:
        for batch in batches:
            put(batch)
    except Exception as err:  # a reader must never stop without a word
        put(Batch((DeviceAlarm(name, f"the reader stopped: {type(err).__name__}: {err}"),)))
    finally:
        put(_Ended())


class Playing(Protocol):
    """A table that takes events: a `croupier.table.Table`, or one that journals first."""

    def apply(self, event: ShoeEvent) -> list[Decision]: ...


@runtime_checkable
class Journaling(Playing, Protocol):
    """A table that journals a batch of events whole, with where the shoe's link stands."""

    def apply_batch(self, events: tuple[ShoeEvent, ...], link: int | None) -> list[Decision]:
        ...


class LiveTable:
    """One table fed by any number of sources, printing `describe` lines to `out`."""

    def __init__(self, sources: list[ShoeSource], table: Playing, out: TextIO) -> None:
        self._sources = sources
        self.table = table
        self._out = out
        self._queue: queue.Queue[Batch | _Ended] = queue.Queue()
        self._threads = [
            threading.Thread(
                target=_pump,
                args=(f"source {n}", s.batches(), self._queue.put),
                name=f"shoe-reader-{n}",
                daemon=True,  # a camera waiting for a frame cannot be interrupted
            )
            for n, s in enumerate(sources, 1)
        ]

    def run(self, stop: threading.Event | None = None) -> None:
        """Applies events until every source has ended or `stop` is set; Ctrl-C (in the
        calling thread) stops it too. The sources are closed and their threads joined."""
        stop = stop or threading.Event()
        for thread in self._threads:
            thread.start()
        running = len(self._threads)
        try:
            while running and not stop.is_set():
                try:
                    item = self._queue.get(timeout=POLL)
                except queue.Empty:
                    continue
                if isinstance(item, _Ended):
                    running -= 1
                else:
                    self._show(self._apply(item))
        finally:
            for source in self._sources:
                source.close()
            for thread in self._threads:
                thread.join(JOIN_TIMEOUT)

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
