"""Two-byte check algorithms, by name: the native protocol's CRC and the guesses that a
dialect with an unpublished check (angel) can be configured with."""

from __future__ import annotations

import binascii
from collections.abc import Callable
from typing import Final

from drivers.errors import DialectError

Check = Callable[[bytes], bytes]


def crc16_ccitt(data: bytes) -> bytes:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), big-endian; "123456789" → 29 B1."""
    return binascii.crc_hqx(data, 0xFFFF).to_bytes(2, "big")


def crc16_xmodem(data: bytes) -> bytes:
    """CRC-16/XMODEM (poly 0x1021, init 0), big-endian."""
    return binascii.crc_hqx(data, 0).to_bytes(2, "big")


def crc16_modbus(data: bytes) -> bytes:
    """CRC-16/MODBUS (reflected poly 0xA001, init 0xFFFF), low byte first as on the wire."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc.to_bytes(2, "little")


def sum16(data: bytes) -> bytes:
    """The arithmetic sum of the bytes modulo 65536, big-endian."""
    return (sum(data) & 0xFFFF).to_bytes(2, "big")


def xor_hex(data: bytes) -> bytes:
    """The XOR of the bytes as two ASCII hex digits, as many text protocols do."""
    value = 0
    for byte in data:
        value ^= byte
    return f"{value:02X}".encode("ascii")


CHECKS: Final[dict[str, Check]] = {
    "crc16-ccitt": crc16_ccitt,
    "crc16-xmodem": crc16_xmodem,
    "crc16-modbus": crc16_modbus,
    "sum16": sum16,
    "xor-hex": xor_hex,
}
UNVERIFIED: Final = "none"


def check_named(name: str) -> Check | None:
    """The named algorithm, or None for `none` (check bytes present but not verified)."""
    if name == UNVERIFIED:
        return None
    try:
        return CHECKS[name]
    except KeyError:
        known = ", ".join([UNVERIFIED, *CHECKS])
        raise DialectError(f"unknown check algorithm {name!r} (known: {known})") from None
