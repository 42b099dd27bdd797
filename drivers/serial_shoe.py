"""A shoe on a serial line: a port opened through `serial.serial_for_url` (a device path,
`loop://`, `socket://host:port`, a pty), read through a dialect's decoder into engine
events, reopened with back-off whenever it goes away."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass

import serial

from croupier.events import DeviceAlarm, ShoeEvent
from drivers.decoder import Decoder, Resumable
from drivers.dialects import DecoderOptions, Dialect, dialect_named
from drivers.errors import PortError
from drivers.messages import Message
from drivers.to_events import message_event

READ_TIMEOUT = 0.02  # also how long the line must be quiet for the decoder to settle


@dataclass(frozen=True, slots=True)
class Backoff:
    """Delays between attempts to reopen a port: `first`, doubling, at most `limit` (the
    known bee application retries every 2.5 s)."""

    first: float = 0.05
    limit: float = 2.5

    def delays(self) -> Iterator[float]:
        delay = self.first
        while True:
            yield delay
            delay = min(delay * 2, self.limit)


@dataclass(frozen=True, slots=True)
class Batch:
    """Events that arrived together, and where the link stands after them: the first
    sequence number not yet delivered, for a shoe that can resend (else None). A table that
    journals a batch with its position whole can resume exactly after it."""

    events: tuple[ShoeEvent, ...]
    position: int | None = None


class SerialShoe:
    """`events()` yields the shoe's events until `close()`; every loss it cannot recover,
    and every time the port goes away, comes out as a `DeviceAlarm` — never silently.
    `batches()` yields the same events as they arrived, with the link's position."""

    def __init__(
        self,
        url: str,
        dialect: str = "native",
        *,
        options: DecoderOptions | None = None,
        source: str | None = None,
        backoff: Backoff | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        try:
            # Only the URL's scheme is checked here: a port that is absent now may come back.
            serial.serial_for_url(url, do_not_open=True)
        except ValueError as err:
            raise PortError(f"not a port: {url!r} ({err})") from None
        self.url = url
        self.source = source or f"{dialect} shoe at {url}"
        self._dialect: Dialect = dialect_named(dialect)
        self._decoder: Decoder = self._dialect.decoder(options or DecoderOptions())
        self._backoff = backoff or Backoff()
        self._clock = clock
        self._closed = threading.Event()

    def close(self) -> None:
        """Makes `events()` finish within about one read timeout; safe from any thread."""
        self._closed.set()

    def events(self) -> Iterator[ShoeEvent]:
        for batch in self.batches():
            yield from batch.events

    def batches(self) -> Iterator[Batch]:
        while not self._closed.is_set():
            port = yield from self._connect()
            if port is None:
                break
            try:
                yield from self._read(port)
            except (serial.SerialException, OSError) as err:
                # what was complete before the loss comes first, then the alarm for the gap
                yield from self._batch(self._decoder.idle(self._clock()))
                yield self._alarm(f"port lost ({err}); reconnecting")
            finally:
                port.close()
        yield from self._batch(self._decoder.finish())

    def _alarm(self, text: str) -> Batch:
        return Batch((DeviceAlarm(self.source, text),), self._position())

    def _position(self) -> int | None:
        return self._decoder.position() if isinstance(self._decoder, Resumable) else None

    def _connect(self) -> Generator[Batch, None, serial.Serial | None]:
        """Opens the port, retrying with back-off; one alarm per outage, not per attempt."""
        warned = False
        for delay in self._backoff.delays():
            if self._closed.is_set():
                return None
            try:
                return serial.serial_for_url(
                    self.url, baudrate=self._dialect.baud, timeout=READ_TIMEOUT
                )
            except (serial.SerialException, OSError, ValueError) as err:
                if not warned:
                    warned = True
                    yield self._alarm(f"cannot open the port ({err}); retrying")
            self._closed.wait(delay)
        return None

    def _read(self, port: serial.Serial) -> Iterator[Batch]:
        decoder = self._decoder
        while not self._closed.is_set():
            data = port.read(port.in_waiting or 1)
            now = self._clock()
            messages = decoder.feed(data, now) if data else decoder.idle(now)
            reply = decoder.outgoing()
            if reply:
                port.write(reply)
            yield from self._batch(messages)

    def _batch(self, messages: list[Message]) -> Iterator[Batch]:
        events = (message_event(m, self.source, garbage_is_loss=self._dialect.garbage_is_loss)
                  for m in messages)
        batch = tuple(e for e in events if e is not None)
        if batch:
            yield Batch(batch, self._position())
