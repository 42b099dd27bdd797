"""Dialect B, "bee" (docs/FORMATS.md (shoe wires)): ASCII text at 9600 baud, ` [Game]<Card:4S> `.

The published examples put rank and suit in either order, so both are read. Text that
docs/FORMATS.md does not show (the cut card, face-up cards, the form of the repeats) follows our
assumptions (PROTOCOL.md §6): `<Cut>`, `<Card:^4S>`, and a repeat being the same
`<…>` again with no `[mode]` before it.
"""

from __future__ import annotations

import re
from typing import Final

from croupier.cards import Card
from croupier.errors import CardError
from drivers.errors import BadFrameError
from drivers.framing import ResyncingFramer
from drivers.messages import CardRead, CutRead, Garbage, Message, Misread, ShoeAlarm

BAUD: Final = 9600
GAME: Final = "Game"
MAX_MODE: Final = 32
MAX_BODY: Final = 64
_SPACE: Final = frozenset(b" \t\r\n")
_TEXT: Final = frozenset(range(0x20, 0x7F)) - frozenset(b"[]<>")
_WARNING: Final = re.compile(r"W0x[0-9A-Fa-f]{1,4}")
_SUITS: Final = frozenset("SHDC")


def message_text(message: Message, mode: str = GAME) -> bytes:
    """The text a shoe sends for a message, spaces around it as in the published examples."""
    if isinstance(message, CardRead):
        body = "Card:" + ("^" if message.face_up else "") + str(message.card)
    elif isinstance(message, CutRead):
        body = "Cut"
    elif isinstance(message, Misread):
        body = GAME
    elif isinstance(message, ShoeAlarm):
        body = "Alarm:" + "".join(c if ord(c) in _TEXT else "?" for c in message.text)
    else:
        raise BadFrameError(f"{message!r} has no bee text")
    return f" [{mode}]<{body}> ".encode("ascii")


def body_message(body: str) -> Message | None:
    """The message of a `<…>` body, or None for a body this dialect does not have."""
    if body.startswith("Card:"):
        return _card(body[5:])
    if body == GAME:
        return Misread()
    if body.startswith("Alarm:"):
        return ShoeAlarm(body[6:].strip() or "alarm")
    if _WARNING.fullmatch(body):
        return ShoeAlarm(f"warning {body}")
    if body == "Cut":
        return CutRead()
    return None


def _card(text: str) -> Message:
    """`4S` or `S4` (both orders are published), `^` for face up; a card that was announced
    but cannot be named is a misread, never garbage, since a card did leave the shoe."""
    face_up = text.startswith("^")
    text = text.removeprefix("^")
    if text[-1:].upper() not in _SUITS:
        text = text[1:] + text[:1]
    try:
        return CardRead(Card.parse(text), face_up)
    except CardError:
        return Misread()


class BeeFramer(ResyncingFramer[tuple[bool, str, int]]):
    """White space separates frames, anything else outside one is garbage. Frames come out
    as (had a `[mode]`, body, size in bytes)."""

    def _next(self) -> tuple[bool, str, int] | None:
        buffer = self._buffer
        while True:
            while buffer and buffer[0] in _SPACE:
                del buffer[0]
            if not buffer:
                return None
            first = buffer[0]
            if first not in b"[<":
                self._skip(1)
                continue
            body_start = 0
            if first == ord("["):
                close = _field_end(buffer, 1, ord("]"), MAX_MODE)
                if close is None:
                    return None
                if close >= 0 and close + 1 == len(buffer):
                    return None
                if close < 0 or buffer[close + 1] != ord("<"):
                    self._skip(1)
                    continue
                body_start = close + 1
            end = _field_end(buffer, body_start + 1, ord(">"), MAX_BODY)
            if end is None:
                return None
            if end < 0:
                self._skip(1)
                continue
            body = buffer[body_start + 1 : end].decode("ascii")
            del buffer[: end + 1]
            return first == ord("["), body, end + 1


class BeeDecoder:
    """Frames → messages; a body repeated with no `[mode]` before it is the shoe repeating."""

    def __init__(self) -> None:
        self._framer = BeeFramer()
        self._previous: str | None = None

    def feed(self, data: bytes, now: float) -> list[Message]:
        return self._take(self._framer.feed(data))

    def idle(self, now: float) -> list[Message]:
        return self._take(self._framer.drop_partial())

    def finish(self) -> list[Message]:
        return self._take(self._framer.finish())

    def outgoing(self) -> bytes:
        return b""

    def _take(self, items: list[tuple[bool, str, int] | Garbage]) -> list[Message]:
        out: list[Message] = []
        for item in items:
            if isinstance(item, Garbage):
                out.append(item)
                continue
            headed, body, size = item
            if not headed and body == self._previous:
                continue  # the shoe repeating what it just said
            self._previous = body
            out.append(body_message(body) or Garbage(size))
        return out


def _field_end(buffer: bytearray, start: int, closer: int, limit: int) -> int | None:
    """Index of `closer` after printable text from `start`; None when more bytes are needed,
    -1 when the field is broken (a stray byte, or too long)."""
    for index in range(start, min(len(buffer), start + limit + 1)):
        byte = buffer[index]
        if byte == closer:
            return index
        if byte not in _TEXT:
            return -1
    return None if len(buffer) < start + limit + 1 else -1
