"""Decoding a capture: all the bytes a shoe sent, at once, with nobody to answer."""

from __future__ import annotations

from drivers.dialects import DecoderOptions, dialect_named
from drivers.messages import Message

CHUNK = 4096


def decode_bytes(
    data: bytes, dialect: str, *, check: str = "none", seq_range: tuple[int, int] | None = None
) -> list[Message]:
    """Every message in `data`, in order, the same whatever the reads; never raises on what
    the bytes hold."""
    options = DecoderOptions(check=check, live=False, seq_range=seq_range)
    decoder = dialect_named(dialect).decoder(options)
    out: list[Message] = []
    for start in range(0, len(data), CHUNK):
        out += decoder.feed(data[start : start + CHUNK], 0.0)
    return out + decoder.finish()
