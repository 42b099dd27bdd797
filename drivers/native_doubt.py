"""Frames the native link cannot vouch for (PROTOCOL.md §4): a restart was suspected and not
believed, and a gap was open then or opened before the count next moved on in step. A shoe
that did restart answers the old count's resend request from its new count, under a number
both counts used: its frame reads as good as the one lost. What fills that gap goes to the
tailleur to confirm."""

from __future__ import annotations

from typing import assert_never

from drivers.messages import (
    CardRead,
    CutRead,
    Garbage,
    Lost,
    Message,
    Misread,
    ShoeAlarm,
    Status,
)
from drivers.to_events import message_line


class Doubt:
    """Whether a suspicion is still standing, and the numbers of the gap whose frames came
    after it."""

    def __init__(self) -> None:
        self._armed = False
        self._numbers: set[int] = set()

    def suspected(self) -> None:
        """A restart was suspected and not believed: the gap open now, or the next one to
        open before the count moves on in step, is in doubt (the old count's late frames
        may be what opens it, after the restarted shoe's first frame)."""
        self._armed = True

    def end(self) -> None:
        """The gap is filled or given up, the count moved on in step, or a restart was
        believed: requests go to the count believed."""
        self._armed = False
        self._numbers.clear()

    def came(self, seq: int, in_gap: bool) -> None:
        """A data frame came under `seq`, inside the open gap or not."""
        if self._armed and in_gap:
            self._numbers.add(seq)

    def vouched(self, seq: int, message: Message) -> list[Message]:
        """What is delivered for the frame under `seq`. In doubt, a card is a misread guessing
        it; a cut card, an alarm or a status is named in an alarm and not delivered as
        itself, since it may stand in the place of a card the old count dealt."""
        if seq not in self._numbers:
            return [message]
        match message:
            case CardRead():
                return [Misread(message.card)]
            case Misread():
                return [message]
            case CutRead() | ShoeAlarm() | Status() | Garbage() | Lost():
                text = " ".join(message_line(message).split())
                return [ShoeAlarm(
                    f"seq {seq} ({text}) filled a gap after a restart was suspected: it may "
                    "be the restarted count's, not delivered; a card may be missing")]
            case _:
                assert_never(message)
