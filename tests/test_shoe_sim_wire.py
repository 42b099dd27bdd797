"""The simulator checked byte for byte, as a shoe integrator would check firmware: exactly
the frames PROTOCOL.md describes, in order, and exactly the frames a resend asks for."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import serial

from drivers.dialects import DecoderOptions, dialect_named
from drivers.native_frames import FrameType, NativeFrame
from drivers.native_messages import message_frame
from hardware_sims.shoe_sim import fixture_messages
from hardware_sims.sim_process import running_simulator

FIXTURE = (
    Path(__file__).resolve().parents[1] / "hardware-sims" / "fixtures" / "wire_faceup_short.shoe"
)
MESSAGES = fixture_messages(FIXTURE.read_text(encoding="utf-8"), str(FIXTURE))
DEADLINE = 10.0


def read_exactly(port: serial.SerialBase, size: int) -> bytes:
    data = b""
    start = time.monotonic()
    while len(data) < size and time.monotonic() - start < DEADLINE:
        data += port.read(size - len(data))
    return data


@pytest.mark.parametrize("dialect", ["native", "angel", "bee"])
def test_the_simulator_sends_exactly_the_dialect_s_frames(dialect: str) -> None:
    spec = dialect_named(dialect)
    options = DecoderOptions(check="crc16-ccitt")
    want = b"".join(spec.transmission(m, i, options) for i, m in enumerate(MESSAGES))
    if dialect == "native":  # a receiver arriving is told where the count stands first
        want = NativeFrame(0, FrameType.HEARTBEAT).encode() + want
    with running_simulator(FIXTURE, dialect, "--heartbeat", "30") as url:
        port = serial.serial_for_url(url, timeout=0.1)
        try:
            got = read_exactly(port, len(want))
            assert port.read(64) == b""  # and nothing more
        finally:
            port.close()
    assert got == want
    assert not Path(url).exists()  # the pty's link went with the simulator


def test_a_resend_request_is_answered_with_exactly_the_frames_asked_for() -> None:
    with running_simulator(FIXTURE, "native", "--heartbeat", "30") as url:
        port = serial.serial_for_url(url, timeout=0.1)
        try:
            everything = read_exactly(
                port,
                len(NativeFrame(0, FrameType.HEARTBEAT).encode())
                + sum(len(message_frame(m, 0).encode()) for m in MESSAGES),
            )
            assert everything
            port.write(NativeFrame(3, FrameType.RESEND, bytes((2,))).encode())
            want = message_frame(MESSAGES[3], 3).encode() + message_frame(MESSAGES[4], 4).encode()
            got = read_exactly(port, len(want))
            assert port.read(64) == b""
        finally:
            port.close()
    assert got == want
