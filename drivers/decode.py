"""Decoding a capture: all the bytes a shoe sent, at once, with nobody to answer."""

from __future__ import annotations

from drivers.dialects import DecoderOptions, dialect_named
from drivers.messages import Message

CHUNK = 4096


def decode_bytes(data: bytes, dialect: str, *, check: str = "none") -> list[Message]:
    """Every message in `data`, in order; never raises on what the bytes hold."""
    decoder = dialect_named(dialect).decoder(DecoderOptions(check=check, live=False))
    out: list[Message] = []
    for start in range(0, len(data), CHUNK):
        out += decoder.feed(data[start : start + CHUNK], 0.0)
    return out + decoder.finish()
