"""Shoe sources for the screen, each on its own reader thread: a serial shoe, a camera, or
the shoe simulator of `hardware-sims` started as its own process on a pty."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from croupier.events import DeviceAlarm, ShoeEvent
from ui.bridge import PutEvent

JOIN_TIMEOUT = 3.0
SIM_START_TIMEOUT = 10.0


class SerialFeed:
    """A card-reading shoe on a serial line (a device, a pty, `socket://`, `loop://`)."""

    def __init__(self, url: str, dialect: str = "native") -> None:
        from drivers.serial_shoe import SerialShoe

        self.shoe = SerialShoe(url, dialect)
        self._thread: threading.Thread | None = None

    def start(self, put: PutEvent) -> None:
        self._thread = threading.Thread(target=_pump, args=(self.shoe.events(), put),
                                        name="croupier-shoe", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self.shoe.close()
        if self._thread is not None:
            self._thread.join(JOIN_TIMEOUT)


class CameraFeed:
    """Cards read off the layout by a camera (`drivers.camera.CameraShoe`)."""

    def __init__(self, source: str, deck: str | None = None) -> None:
        self.source, self.deck = source, deck
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, put: PutEvent) -> None:
        self._thread = threading.Thread(target=self._run, args=(put,), name="croupier-camera",
                                        daemon=True)
        self._thread.start()

    def _run(self, put: PutEvent) -> None:
        try:
            from drivers.camera import CameraShoe
            from drivers.errors import ShoeError
            from vision.errors import VisionError

            for event in CameraShoe(self.source, self.deck).events():
                if self._stop.is_set():
                    return
                put(event)
        except (ImportError, ShoeError, VisionError, OSError) as err:
            put(DeviceAlarm("camera", f"{self.source!r}: {err}"))

    def stop(self) -> None:
        # A camera waiting for its next frame cannot be interrupted: the thread is a daemon
        # and stops at the next frame.
        self._stop.set()
        if self._thread is not None:
            self._thread.join(JOIN_TIMEOUT)


class SimulatorFeed:
    """`python -m hardware_sims.shoe_sim FIXTURE --pty`, its own process, read as a shoe."""

    def __init__(self, fixture: str | Path, *, pace: float, dialect: str = "native") -> None:
        self.fixture, self.pace, self.dialect = str(fixture), pace, dialect
        self._process: subprocess.Popen[str] | None = None
        self._serial: SerialFeed | None = None
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, put: PutEvent) -> None:
        self._process = subprocess.Popen(
            [sys.executable, "-m", "hardware_sims.shoe_sim", self.fixture, "--dialect",
             self.dialect, "--pty", "--pace", str(self.pace)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        self._thread = threading.Thread(target=self._connect, args=(self._process.stdout, put),
                                        name="croupier-sim", daemon=True)
        self._thread.start()

    def _connect(self, stdout: IO[str], put: PutEvent) -> None:
        url = stdout.readline().strip()  # the pty the simulator serves
        if not url or self._stopped.is_set():
            if not self._stopped.is_set():
                put(DeviceAlarm("simulator", "the shoe simulator did not start"))
            return
        self._serial = SerialFeed(url, self.dialect)
        self._serial.start(put)

    def stop(self) -> None:
        self._stopped.set()
        if self._serial is not None:
            self._serial.stop()  # first, so that the simulator's exit raises no alarm
        if self._process is not None:
            self._process.terminate()
        if self._thread is not None:
            self._thread.join(JOIN_TIMEOUT)
        if self._serial is not None:
            self._serial.stop()  # in case it was opened while we were stopping
        if self._process is not None:
            try:
                self._process.wait(JOIN_TIMEOUT)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            for stream in (self._process.stdout, self._process.stderr):
                if stream is not None:
                    stream.close()


def _pump(events: Iterator[ShoeEvent], put: PutEvent) -> None:
    for event in events:
        put(event)
