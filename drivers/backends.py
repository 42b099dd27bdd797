"""Shoe backends by name: every way the table can be told what leaves the shoe.

Each gives a `ShoeSource`: `events()` yields engine events until the source ends or
`close()` is called (from any thread). The same contract tests run on every backend
(`tests/test_drivers_backends.py`).

- `serial`: a card-reading shoe on a port URL (`drivers.serial_shoe`);
- `sim`: the shoe simulator of `hardware-sims`, started as its own process on a pty;
- `replay`: a `.shoe` fixture, as if dealt;
- `capture`: bytes captured from a shoe, decoded with a dialect;
- `camera`: cards read off the layout (`drivers.camera`, loaded only when asked for).

`CameraWitness` is the camera beside a shoe: it deals nothing, it shows the layout.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from croupier.errors import CroupierError
from croupier.events import DeviceAlarm, ShoeEvent
from croupier.fixtures import parse_shoe
from croupier.rulebook import Rulebook
from croupier.witness import Layout
from drivers.decode import decode_bytes
from drivers.dialects import DecoderOptions, dialect_named
from drivers.errors import DialectError, ShoeError
from drivers.serial_shoe import Batch, SerialShoe
from drivers.to_events import message_event

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


class ShoeSource(Protocol):
    def events(self) -> Iterator[ShoeEvent]: ...

    def batches(self) -> Iterator[Batch]:
        """The events as they arrived, with the link's position where it has one."""
        ...

    def close(self) -> None: ...


def _one_by_one(events: Iterator[ShoeEvent]) -> Iterator[Batch]:
    """Sources with no link position: each event a batch of its own."""
    return (Batch((event,)) for event in events)


class _ListedSource:
    """Events known up front (a fixture, a capture), handed out until closed."""

    def __init__(self, events: Iterable[ShoeEvent]) -> None:
        self._events = list(events)
        self._closed = threading.Event()

    def events(self) -> Iterator[ShoeEvent]:
        for event in self._events:
            if self._closed.is_set():
                return
            yield event

    def batches(self) -> Iterator[Batch]:
        return _one_by_one(self.events())

    def close(self) -> None:
        self._closed.set()


class CameraReader:
    """The camera shoe, stopped between frames (a camera waiting for a frame cannot be
    interrupted sooner); `rulebook` (default: the default one) says how many cards the
    camera counts burned unseen."""

    def __init__(self, source: str, rulebook: Rulebook | None = None) -> None:
        from drivers.camera import CameraShoe  # OpenCV loads only for a camera table

        self._shoe = CameraShoe(source, rulebook=rulebook)
        self._source = f"camera {source}"
        self._closed = threading.Event()

    def events(self) -> Iterator[ShoeEvent]:
        try:
            for event in self._shoe.events():
                if self._closed.is_set():
                    return
                yield event
        except (ShoeError, OSError) as err:
            yield DeviceAlarm(self._source, f"the camera stopped: {err}")

    def batches(self) -> Iterator[Batch]:
        return _one_by_one(self.events())

    def close(self) -> None:
        self._closed.set()


class CameraWitness:
    """The camera beside a shoe: the layout it sees after each frame (`croupier.witness`),
    stopped between frames. `source`: a camera, a video file or a folder of frames, or the
    frames themselves (a simulator's); `deck`: the card design's calibration folder
    (default: the built-in design)."""

    def __init__(self, source: str | Iterable[NDArray[np.uint8]],
                 deck: str | Path | None = None) -> None:
        from drivers.camera import CameraShoe  # OpenCV loads only for a camera table

        self._shoe = CameraShoe(source, deck)
        self.name = f"camera {source}" if isinstance(source, str) else "camera"
        self._closed = threading.Event()

    def layouts(self) -> Iterator[Layout]:
        """Raises `ShoeError` or `OSError` when the camera fails."""
        for layout in self._shoe.layouts():
            if self._closed.is_set():
                return
            yield layout

    def close(self) -> None:
        self._closed.set()


class SimulatorSource:
    """The simulator as its own process, read through a `SerialShoe` on its pty; flat out,
    or a card every `pace` seconds as a demonstration wants."""

    def __init__(self, fixture: str, dialect: str, options: DecoderOptions,
                 pace: float | None = None) -> None:
        from hardware_sims.sim_process import running_simulator

        self._stack = ExitStack()
        paced = ("--pace", str(pace)) if pace is not None else ()
        url = self._stack.enter_context(running_simulator(fixture, dialect, *paced))
        self._shoe = SerialShoe(url, dialect, options=options, source=f"simulator {fixture}")
        self._reading = False

    def events(self) -> Iterator[ShoeEvent]:
        for batch in self.batches():
            yield from batch.events

    def batches(self) -> Iterator[Batch]:
        self._reading = True
        try:
            yield from self._shoe.batches()
        finally:
            self._stack.close()

    def close(self) -> None:
        self._shoe.close()
        if not self._reading:
            self._stack.close()  # never read: nobody else will stop the process


def _read_fixture(path: str) -> list[ShoeEvent]:
    try:
        return parse_shoe(Path(path).read_text(encoding="utf-8"), origin=path)
    except (OSError, UnicodeDecodeError, CroupierError) as err:
        raise ShoeError(f"cannot read the fixture {path!r}: {err}") from err


def _capture(path: str, dialect: str, options: DecoderOptions) -> _ListedSource:
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise ShoeError(f"cannot read the capture {path!r}: {err.strerror}") from err
    spec = dialect_named(dialect)
    source = f"capture {path}"
    messages = decode_bytes(data, dialect, check=options.check)
    events = (message_event(m, source, garbage_is_loss=spec.garbage_is_loss) for m in messages)
    return _ListedSource(e for e in events if e is not None)


Opener = Callable[[str, str, DecoderOptions], ShoeSource]

BACKENDS: dict[str, Opener] = {
    "serial": lambda url, dialect, options: SerialShoe(url, dialect, options=options),
    "sim": SimulatorSource,
    "replay": lambda path, dialect, options: _ListedSource(_read_fixture(path)),
    "capture": _capture,
    "camera": lambda source, dialect, options: CameraReader(source),
}


def open_backend(
    name: str, target: str, *, dialect: str = "native", options: DecoderOptions | None = None
) -> ShoeSource:
    """The named backend on `target` (a port URL, a fixture, a capture, a camera source)."""
    try:
        opener = BACKENDS[name]
    except KeyError:
        raise DialectError(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})") from None
    dialect_named(dialect)  # a bad dialect name is an error whatever the backend
    return opener(target, dialect, options or DecoderOptions())
