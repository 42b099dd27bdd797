"""The same contract for every shoe backend: the events of a fixture, in order, and a
`close()` that ends `events()` promptly from another thread, leaving nothing running."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from croupier.events import ShoeEvent
from croupier.fixtures import parse_shoe
from drivers.backends import ShoeSource, open_backend
from drivers.dialects import DecoderOptions, dialect_named
from drivers.errors import DialectError, ShoeError
from drivers.serial_shoe import SerialShoe
from hardware_sims.shoe_sim import fixture_messages
from hardware_sims.sim_process import running_simulator

FIXTURE = (
    Path(__file__).resolve().parents[1] / "hardware-sims" / "fixtures" / "wire_faceup_short.shoe"
)
WANT = parse_shoe(FIXTURE.read_text(encoding="utf-8"))
DEADLINE = 10.0


@contextmanager
def backend(name: str, dialect: str, tmp_path: Path) -> Iterator[ShoeSource]:
    if name == "serial":
        with running_simulator(FIXTURE, dialect) as url:
            yield open_backend("serial", url, dialect=dialect)
    elif name == "capture":
        spec = dialect_named(dialect)
        text = FIXTURE.read_text(encoding="utf-8")
        data = b"".join(
            spec.transmission(m, i, DecoderOptions())
            for i, m in enumerate(fixture_messages(text, str(FIXTURE)))
        )
        capture = tmp_path / "shoe.bin"
        capture.write_bytes(data)
        yield open_backend("capture", str(capture), dialect=dialect)
    else:
        yield open_backend(name, str(FIXTURE), dialect=dialect)


def take(source: ShoeSource, count: int) -> list[ShoeEvent]:
    """Up to `count` events, read on another thread, then `close()`; the thread must end."""
    got: list[ShoeEvent] = []

    def read() -> None:
        for event in source.events():
            got.append(event)
            if len(got) >= count:
                return

    thread = threading.Thread(target=read, name="test-backend-reader")
    thread.start()
    start = time.monotonic()
    while thread.is_alive() and time.monotonic() - start < DEADLINE and len(got) < count:
        time.sleep(0.01)
    source.close()
    thread.join(5.0)
    assert not thread.is_alive(), "close() did not end events()"
    return got


CASES = [
    ("replay", "native"),
    ("sim", "native"),
    ("sim", "bee"),
    ("serial", "native"),
    ("serial", "angel"),
    ("serial", "bee"),
    ("capture", "native"),
    ("capture", "angel"),
    ("capture", "bee"),
]


@pytest.mark.parametrize(("name", "dialect"), CASES)
def test_every_backend_gives_the_fixture_events(name: str, dialect: str, tmp_path: Path) -> None:
    with backend(name, dialect, tmp_path) as source:
        assert take(source, len(WANT)) == WANT


@pytest.mark.parametrize(("name", "dialect"), CASES)
def test_close_stops_a_backend_early(name: str, dialect: str, tmp_path: Path) -> None:
    with backend(name, dialect, tmp_path) as source:
        assert take(source, 3) == WANT[:3]
        assert list(source.events()) == []  # a closed source says nothing more


def test_a_serial_source_closed_before_a_port_exists_ends() -> None:
    shoe = SerialShoe("/nonexistent/shoe", "bee")
    got = take(shoe, 1)
    assert len(got) == 1
    assert "cannot open the port" in got[0].text  # type: ignore[union-attr]


def test_unknown_backends_and_dialects_are_named_in_the_error() -> None:
    with pytest.raises(DialectError, match="'tape'"):
        open_backend("tape", "x")
    with pytest.raises(DialectError, match="'morse'"):
        open_backend("replay", str(FIXTURE), dialect="morse")
    with pytest.raises(ShoeError, match=r"nope\.shoe"):
        open_backend("replay", "nope.shoe")


def test_a_pyserial_url_such_as_loop_is_opened_through_serial_for_url() -> None:
    shoe = SerialShoe("loop://", "native")
    got: list[ShoeEvent] = []
    thread = threading.Thread(target=lambda: got.extend(shoe.events()), name="test-loop")
    thread.start()
    time.sleep(0.3)  # long enough to fail to open it, and say so, if it could not be opened
    shoe.close()
    thread.join(5.0)
    assert not thread.is_alive()
    assert got == []  # opened, and a loop on its own hears no shoe (its own requests echo)
