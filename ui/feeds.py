"""Shoe sources for the screen: the backends of `drivers.backends` (a serial shoe, a camera)
and the shoe simulator at a dealer's pace, each opened and read on a thread of its own."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

from croupier.errors import CroupierError
from croupier.events import DeviceAlarm, ShoeEvent
from drivers.backends import ShoeSource, open_backend
from drivers.dialects import DecoderOptions, dialect_named
from drivers.errors import ShoeError
from drivers.serial_shoe import Batch, SerialShoe
from ui.bridge import PutBatch

JOIN_TIMEOUT = 3.0


Opener = Callable[[int | None], ShoeSource]  # given where a restarted table takes up again


class SourceFeed:
    """A shoe source read on its own thread, and opened there too: opening may wait (a
    simulator starting, a camera warming up) and the window must not. `resends` as in
    `ui.bridge.Feed`."""

    def __init__(self, name: str, open_source: Opener, *, resends: bool | None) -> None:
        self.name = name
        self.resends = resends
        self._open = open_source
        self._lock = threading.Lock()
        self._source: ShoeSource | None = None
        self._stopped = False
        self._thread: threading.Thread | None = None

    def start(self, put: PutBatch, resume_at: int | None) -> None:
        self._thread = threading.Thread(target=self._run, args=(put, resume_at),
                                        name=f"croupier-{self.name}", daemon=True)
        self._thread.start()

    def _run(self, put: PutBatch, resume_at: int | None) -> None:
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
        try:
            for batch in source.batches():
                if not self._stopped:
                    put(batch.events, batch.position)
        except Exception as err:  # a reader must never stop without a word
            alarm = DeviceAlarm(self.name, f"the reader stopped: {type(err).__name__}: {err}")
            put((alarm,), None)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            if self._source is not None:
                self._source.close()
        if self._thread is not None:
            # A camera waiting for its next frame cannot be interrupted: its thread is a
            # daemon and ends at that frame.
            self._thread.join(JOIN_TIMEOUT)


def serial_feed(url: str, dialect: str = "native") -> SourceFeed:
    """A card-reading shoe on a serial line (a device, a pty, `socket://`)."""
    return SourceFeed("shoe", lambda resume_at: open_backend(
        "serial", url, dialect=dialect, options=DecoderOptions(resume_at=resume_at)),
        resends=dialect_named(dialect).resends)


def camera_feed(source: str) -> SourceFeed:
    """Cards read off the layout by a camera."""
    return SourceFeed("camera", lambda _resume_at: open_backend("camera", source),
                      resends=None)


def simulator_feed(fixture: str | Path, *, pace: float, dialect: str = "native") -> SourceFeed:
    """`hardware-sims`' shoe simulator as its own process on a pty, a card every `pace` s.
    A fresh simulator deals a fresh shoe: there is nothing of an earlier one to resume."""
    return SourceFeed("simulator", lambda _resume_at: _PacedSimulator(str(fixture), pace,
                                                                     dialect),
                      resends=None)


class _PacedSimulator:
    """The simulator process (stopped when the source ends), read through `SerialShoe`.
    The `sim` backend of `drivers.backends` deals flat out; a demonstration wants a pace."""

    def __init__(self, fixture: str, pace: float, dialect: str) -> None:
        from hardware_sims.sim_process import running_simulator  # type: ignore[import-not-found]

        self._stack = ExitStack()
        url = self._stack.enter_context(
            running_simulator(fixture, dialect, "--pace", str(pace)))
        self._shoe = SerialShoe(url, dialect, source=f"simulator {fixture}")

    def events(self) -> Iterator[ShoeEvent]:
        for batch in self.batches():
            yield from batch.events

    def batches(self) -> Iterator[Batch]:
        try:
            yield from self._shoe.batches()
        finally:
            self._stack.close()

    def close(self) -> None:
        self._shoe.close()
