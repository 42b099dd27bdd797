"""A source a live table reads — a shoe's link, a camera — opened and read on a thread of its
own, and what stands between its reader and the table."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Protocol

from croupier.errors import CroupierError
from croupier.events import DeviceAlarm, ShoeEvent
from drivers.backends import ShoeSource
from drivers.errors import ShoeError
from drivers.serial_shoe import Batch

JOIN_TIMEOUT = 3.0


Put = Callable[[tuple[ShoeEvent, ...], int | None], None]


class Relay(Protocol):
    """What stands between a source's reader and the table."""

    def wrap(self, put: Put) -> Put: ...

    def stop(self) -> None: ...


class Source:
    """A source of shoe events, opened and read on a thread of its own: opening may wait
    (a simulator starting, a camera warming up) and nothing else must. `resends` is None
    for a source that is no shoe link (a camera, a capture file), else whether the shoe
    resends what a restarted table missed; its opener is told where to take up again."""

    def __init__(self, name: str, open_source: Callable[[int | None], ShoeSource], *,
                 resends: bool | None, relay: Relay | None = None,
                 held: ShoeSource | None = None) -> None:
        self.name = name
        self.resends = resends
        self._open = open_source
        self._relay = relay
        self._lock = threading.Lock()
        # One opened before (`held`) is closed on `stop` even if the source never started.
        self._source: ShoeSource | None = held
        self._stopped = False
        self._thread: threading.Thread | None = None

    def through(self, relay: Relay) -> Source:
        """The same source with `relay` between its reader and the table (a demonstration
        holds cards back while bets are open)."""
        return Source(self.name, self._open, resends=self.resends, relay=relay,
                      held=self._source)

    def start(self, put: Put, resume_at: int | None, ended: Callable[[], None]) -> None:
        if self._relay is not None:
            put = self._relay.wrap(put)
        thread = threading.Thread(target=self._run, args=(put, resume_at, ended),
                                  name=f"croupier-{self.name}", daemon=True)
        # Started under the lock: a `stop` from the screen's thread in between found a
        # thread not yet started and could not join it (a kiosk closed at its first frame).
        with self._lock:
            self._thread = thread
            thread.start()

    def _run(self, put: Put, resume_at: int | None, ended: Callable[[], None]) -> None:
        try:
            try:
                source = self._open(resume_at)
            except (CroupierError, ShoeError, OSError, RuntimeError) as err:
                put((DeviceAlarm(self.name, f"cannot open it: {err}"),), None)
                return
            with self._lock:
                self._source = source
                if self._stopped:
                    source.close()
            # Read even when closed at once: a source ends its own process or port when its
            # events end.
            for batch in pump(self.name, source.batches()):
                if not self._stopped:
                    put(batch.events, batch.position)
        finally:
            ended()

    def stop(self) -> None:
        if self._relay is not None:
            self._relay.stop()  # a reader held in the relay lets go
        with self._lock:
            self._stopped = True
            if self._source is not None:
                self._source.close()
            thread = self._thread
        if thread is not None:
            # A camera waiting for its next frame cannot be interrupted: its thread is a
            # daemon and ends at that frame.
            thread.join(JOIN_TIMEOUT)


def opened(name: str, source: ShoeSource, *, resends: bool | None) -> Source:
    """A source already open (a command line opens its port first, to refuse a bad one)."""
    return Source(name, lambda _resume_at: source, resends=resends, held=source)


def pump(name: str, batches: Iterator[Batch]) -> Iterator[Batch]:
    """A reader's batches, and a `DeviceAlarm` in place of whatever stops it: a reader never
    stops without a word."""
    try:
        yield from batches
    except Exception as err:
        yield Batch((DeviceAlarm(name, f"the reader stopped: {type(err).__name__}: {err}"),))
