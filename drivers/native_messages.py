"""The native protocol's message layer (PROTOCOL.md §3): frames ⇄ shoe messages."""

from __future__ import annotations

from croupier.cards import Card
from croupier.errors import CardError
from drivers.errors import BadFrameError
from drivers.messages import CardRead, CutRead, Message, Misread, ShoeAlarm
from drivers.native_frames import FACE_UP, MAX_TEXT, FrameType, NativeFrame


def message_frame(message: Message, seq: int) -> NativeFrame:
    """The frame a shoe sends for a message; only shoe messages have one."""
    if isinstance(message, CardRead):
        flags = FACE_UP if message.face_up else 0
        return NativeFrame(seq, FrameType.CARD, str(message.card).encode("ascii") + bytes((flags,)))
    if isinstance(message, CutRead):
        return NativeFrame(seq, FrameType.CUT)
    if isinstance(message, Misread):
        return NativeFrame(seq, FrameType.MISREAD)
    if isinstance(message, ShoeAlarm):
        text = message.text.encode("utf-8")[:MAX_TEXT] or b"?"
        return NativeFrame(seq, FrameType.ALARM, text)
    raise BadFrameError(f"{message!r} has no native frame")


def frame_message(frame: NativeFrame) -> Message:
    """The message a data frame carries; a card frame naming no card is a misread, since a
    card did leave the shoe."""
    kind = frame.type
    if kind is FrameType.CARD:
        try:
            card = Card.parse(frame.payload[:2].decode("ascii"))
        except (UnicodeDecodeError, CardError):
            return Misread()
        return CardRead(card, bool(frame.payload[2] & FACE_UP))
    if kind is FrameType.CUT:
        return CutRead()
    if kind is FrameType.MISREAD:
        return Misread()
    if kind is FrameType.ALARM:
        return ShoeAlarm(frame.payload.decode("utf-8", errors="replace"))
    raise BadFrameError(f"a {kind.name} frame is control, not a message")
