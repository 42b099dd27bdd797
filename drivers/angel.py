"""Dialect A, "angel" (docs/FORMATS.md (shoe wires)): framed binary, every message sent three times.

`ENQ SEQ DATA… ETX CHK CHK` at 4800 baud. The check algorithm is not public, so it is a
setting (`drivers.checks`); with `none` the check bytes are not verified and a message is
believed only when two of its copies agree (`drivers.angel_link`). The cut card, a failed
read and face-up cards are not in the public description: the byte values used for them
here are our assumptions (PROTOCOL.md §6), kept in this one module.
"""

from __future__ import annotations

from typing import Final

from croupier.cards import Card, Rank, Suit
from drivers.checks import Check
from drivers.errors import BadFrameError
from drivers.framing import ResyncingFramer
from drivers.messages import CardRead, CutRead, Garbage, Message, Misread, ShoeAlarm, Status

ENQ: Final = 0x05
ETX: Final = 0x03
BAUD: Final = 4800
COPIES: Final = 3
RESET_AFTER: Final = 64  # the known parser gives up on a frame with no ETX after this many

_SUITS: Final = {1: Suit.DIAMONDS, 2: Suit.CLUBS, 3: Suit.SPADES, 4: Suit.HEARTS}
_SUIT_BITS: Final = {suit: bits for bits, suit in _SUITS.items()}
_RANKS: Final = dict(enumerate(Rank, 1))
_RANK_BITS: Final = {rank: index for index, rank in _RANKS.items()}
FACE_UP_BIT: Final = 0x80  # our assumption: bit 7, unused by the published card byte
CUT_BYTE: Final = 0x00  # our assumption: the cut card has no index to read
MISREAD_BYTE: Final = 0x70  # our assumption: any other byte naming no card
INTENTION: Final = 0x30  # meaning unknown; sent as ASCII "0", ignored on receipt

CARD_COMMANDS: Final = frozenset(b"Dd")  # D dealt, d dealt outside the game flow
CARD_DATA: Final = 3  # command, intention, card byte
_STATUS: Final = {
    ord("S"): "start",
    ord("P"): "standby",
    ord("G"): "game result",
    ord("R"): "re-deal",
    ord("e"): "error cleared",
}
_COMMANDS: Final = CARD_COMMANDS | _STATUS.keys() | {ord("E")}


def card_byte(card: Card, face_up: bool = False) -> int:
    """Bits 6–4 the suit, 3–0 the rank, as published; bit 7 face up (our assumption)."""
    return (_SUIT_BITS[card.suit] << 4) | _RANK_BITS[card.rank] | (FACE_UP_BIT if face_up else 0)


def message_data(message: Message) -> bytes:
    """The DATA part a shoe sends for a message (no SEQ, no framing)."""
    if isinstance(message, CardRead):
        return bytes((ord("D"), INTENTION, card_byte(message.card, message.face_up)))
    if isinstance(message, CutRead):
        return bytes((ord("D"), INTENTION, CUT_BYTE))
    if isinstance(message, Misread):
        return bytes((ord("D"), INTENTION, MISREAD_BYTE))
    if isinstance(message, ShoeAlarm):
        return b"E" + message.text.encode("ascii", errors="replace").replace(b"\x03", b"?")
    raise BadFrameError(f"{message!r} has no angel frame")


def encode_frame(seq: int, data: bytes, check: Check) -> bytes:
    """One copy of a frame; the check covers SEQ and DATA (our assumption)."""
    body = bytes((seq & 0xFF,)) + data
    return bytes((ENQ,)) + body + bytes((ETX,)) + check(body)


def data_message(data: bytes) -> Message:
    command = data[0]
    if command in CARD_COMMANDS:
        value = data[2]
        if value == CUT_BYTE:
            return CutRead()
        suit = _SUITS.get((value >> 4) & 0x7)
        rank = _RANKS.get(value & 0xF)
        if suit is None or rank is None:
            return Misread()
        return CardRead(Card(rank, suit), bool(value & FACE_UP_BIT))
    code = data[1:]
    text = code.decode("ascii") if code.isascii() and code.decode().isprintable() else code.hex()
    if command == ord("E"):
        return ShoeAlarm(text or "error")
    return Status(f"{_STATUS[command]} {text}".strip())


class AngelFramer(ResyncingFramer[tuple[int, bytes]]):
    """Resynchronises on ENQ; a card frame has a fixed size, others end at the first ETX.
    Frames come out as (SEQ, DATA)."""

    def __init__(self, check: Check | None) -> None:
        super().__init__()
        self._check = check

    def drop_partial(self) -> list[tuple[int, bytes] | Garbage]:
        """Without a check to verify, a card frame whole up to its ETX when the line went
        quiet lacks only check bytes that are not read: it is taken, not dropped (`make fuzz`
        seed 10174192: a card's copy lost its last check byte, the line went quiet, and the
        card, its other copies lost, went unsaid)."""
        buffer, etx = self._buffer, 2 + CARD_DATA
        if self._check is not None or len(buffer) <= etx or buffer[etx] != ETX:
            return super().drop_partial()
        if buffer[0] != ENQ or buffer[2] not in CARD_COMMANDS:
            return super().drop_partial()
        body = bytes(buffer[1:etx])
        del buffer[:]
        return [*self._flush_skipped(), (body[0], body[1:]), *self.feed(b"")]

    def _next(self) -> tuple[int, bytes] | None:
        buffer = self._buffer
        while True:
            start = buffer.find(ENQ)
            if start < 0:
                self._skip(len(buffer))
                return None
            if start:
                self._skip(start)
            if len(buffer) < 3:
                return None
            if buffer[2] not in _COMMANDS:
                self._skip(1)
                continue
            if buffer[2] in CARD_COMMANDS:
                etx = 2 + CARD_DATA
                if len(buffer) <= etx:
                    return None
            else:
                found = buffer.find(ETX, 3, RESET_AFTER)
                if found < 0:
                    if len(buffer) >= RESET_AFTER:
                        self._skip(1)
                        continue
                    return None
                if buffer.find(ENQ, 3, found) >= 0:
                    # a frame starts inside the text: this one lost its ETX, or is noise
                    self._skip(1)
                    continue
                etx = found
            end = etx + 3
            if len(buffer) < end:
                return None
            body = bytes(buffer[1:etx])
            if buffer[etx] != ETX or (
                self._check is not None and self._check(body) != bytes(buffer[etx + 1 : end])
            ):
                self._skip(1)
                continue
            del buffer[:end]
            return body[0], body[1:]
