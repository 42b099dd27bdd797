"""The top layer: shoe messages → the engine's events (and the lines of `croupier decode`)."""

from __future__ import annotations

from typing import Any

from croupier.events import CardDrawn, CardUnread, CutCard, DeviceAlarm, ShoeEvent
from drivers.messages import CardRead, CutRead, Garbage, Lost, Message, Misread, ShoeAlarm


def message_event(message: Message, source: str, *, garbage_is_loss: bool) -> ShoeEvent | None:
    """The engine event of a message, None for what the engine need not hear."""
    if isinstance(message, CardRead):
        return CardDrawn(message.card, message.face_up)
    if isinstance(message, CutRead):
        return CutCard()
    if isinstance(message, Misread):
        return CardUnread(source, guess=message.guess, confidence=0.5 if message.guess else 0.0)
    if isinstance(message, ShoeAlarm):
        return DeviceAlarm(source, message.text)
    if isinstance(message, Lost):
        return DeviceAlarm(source, f"lost {message.count} message(s): {message.detail}")
    if isinstance(message, Garbage) and garbage_is_loss:
        return DeviceAlarm(source, f"{message.count} unreadable byte(s): a message may be lost")
    return None


def message_json(message: Message) -> dict[str, Any] | None:
    """The `croupier decode --json` object of a message (docs/FORMATS.md); None for a status,
    which that interface has no kind for."""
    if isinstance(message, CardRead):
        card: dict[str, Any] = {"kind": "card", "card": str(message.card)}
        if message.face_up:
            card["face_up"] = True
        return card
    if isinstance(message, CutRead):
        return {"kind": "cut"}
    if isinstance(message, Misread):
        misread: dict[str, Any] = {"kind": "misread"}
        if message.guess is not None:
            misread["guess"] = str(message.guess)
        return misread
    if isinstance(message, ShoeAlarm):
        return {"kind": "alarm", "text": message.text}
    if isinstance(message, Lost):
        return {"kind": "alarm", "text": f"lost: {message.detail}", "lost": message.count}
    if isinstance(message, Garbage):
        return {"kind": "garbage", "bytes": message.count}
    return None


def message_line(message: Message) -> str:
    """One readable line per message, for `croupier decode` without `--json`."""
    if isinstance(message, CardRead):
        return f"card   {message.card}" + ("  (face up)" if message.face_up else "")
    if isinstance(message, CutRead):
        return "cut card"
    if isinstance(message, Misread):
        return "misread" + (f"  (unconfirmed reading {message.guess})" if message.guess else "")
    if isinstance(message, ShoeAlarm):
        return f"alarm  {message.text}"
    if isinstance(message, Lost):
        return f"LOST   {message.count} message(s): {message.detail}"
    if isinstance(message, Garbage):
        return f"garbage  {message.count} byte(s)"
    return f"status {message.text}"
