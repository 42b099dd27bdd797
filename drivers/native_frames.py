"""The native protocol's framing layer (PROTOCOL.md §2): bytes ⇄ checked frames.

`STX LEN SEQ_HI SEQ_LO TYPE PAYLOAD… CRC_HI CRC_LO ETX`, the CRC being CRC-16/CCITT-FALSE
over LEN, SEQ, TYPE and PAYLOAD. The framer resynchronises by dropping one byte at a time
from a frame that fails a check, so garbage costs bytes, never the frames that follow it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from drivers.checks import crc16_ccitt
from drivers.errors import BadFrameError
from drivers.framing import ResyncingFramer

STX: Final = 0x02
ETX: Final = 0x03
OVERHEAD: Final = 8  # STX LEN SEQ SEQ TYPE … CRC CRC ETX
SEQ_MODULUS: Final = 1 << 16
MAX_TEXT: Final = 64
FACE_UP: Final = 0x01  # bit 0 of a card frame's flags byte; the other bits are always 0


class FrameType(enum.Enum):
    """The TYPE byte, an ASCII letter so that a hex dump reads."""

    CARD = ord("C")
    CUT = ord("X")
    MISREAD = ord("M")
    ALARM = ord("A")
    HEARTBEAT = ord("H")
    RESEND = ord("R")


# Payload lengths a frame of each type may carry: a wrong LEN is rejected at once, so a
# corrupted length byte cannot make the framer wait for bytes that will never come.
_LENGTHS: Final = {
    FrameType.CARD: range(3, 4),
    FrameType.CUT: range(1),
    FrameType.MISREAD: range(1),
    FrameType.ALARM: range(1, MAX_TEXT + 1),
    FrameType.HEARTBEAT: range(1),
    FrameType.RESEND: range(1, 2),
}
_TYPES: Final = {t.value: t for t in FrameType}


@dataclass(frozen=True, slots=True)
class NativeFrame:
    """One frame: sequence number 0–65535, type and payload."""

    seq: int
    type: FrameType
    payload: bytes = b""

    def encode(self) -> bytes:
        if not 0 <= self.seq < SEQ_MODULUS:
            raise BadFrameError(f"sequence number {self.seq} is outside 0..65535")
        if len(self.payload) not in _LENGTHS[self.type]:
            raise BadFrameError(
                f"a {self.type.name} frame cannot carry {len(self.payload)} payload bytes"
            )
        body = (
            bytes((len(self.payload),))
            + self.seq.to_bytes(2, "big")
            + bytes((self.type.value,))
            + self.payload
        )
        return bytes((STX,)) + body + crc16_ccitt(body) + bytes((ETX,))


class NativeFramer(ResyncingFramer[NativeFrame]):
    """Cuts a byte stream into native frames, resynchronising on STX."""

    def _next(self) -> NativeFrame | None:
        buffer = self._buffer
        while True:
            start = buffer.find(STX)
            if start < 0:
                self._skip(len(buffer))
                return None
            if start:
                self._skip(start)
            if len(buffer) < 5:
                return None
            length, type_byte = buffer[1], buffer[4]
            frame_type = _TYPES.get(type_byte)
            if frame_type is None or length not in _LENGTHS[frame_type]:
                self._skip(1)
                continue
            end = length + OVERHEAD
            if len(buffer) < end:
                return None
            body = bytes(buffer[1 : end - 3])
            if buffer[end - 1] != ETX or bytes(buffer[end - 3 : end - 1]) != crc16_ccitt(body):
                self._skip(1)
                continue
            if frame_type is FrameType.CARD and body[-1] & ~FACE_UP:
                # a flag no shoe sets: bytes that passed the CRC by chance (1 in 65536),
                # the frame's own mangled or the next one's, are no card
                self._skip(1)
                continue
            del buffer[:end]
            return NativeFrame(int.from_bytes(body[1:3], "big"), frame_type, body[4:])
