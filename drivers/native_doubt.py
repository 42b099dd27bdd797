"""Frames the native link cannot vouch for (PROTOCOL.md §4): a restart was suspected, and not
believed, while a gap was open. A shoe that did restart answers the old count's resend
request from its new count, under a number both counts used — its frame reads as good as
the one lost. What fills that gap goes to the tailleur to confirm."""

from __future__ import annotations

from drivers.messages import CardRead, Message, Misread


class Doubt:
    """The numbers of the open gap whose frames came after a restart was suspected."""

    def __init__(self) -> None:
        self._open = False
        self._numbers: set[int] = set()

    def suspected(self, gap_open: bool) -> None:
        """A restart was suspected and not believed; only a gap open now is in doubt."""
        self._open = self._open or gap_open

    def end(self) -> None:
        """The gap is filled or given up, or a restart believed: its requests go to the
        count believed."""
        self._open = False
        self._numbers.clear()

    def came(self, seq: int, in_gap: bool) -> None:
        """A data frame came under `seq`, inside the open gap or not."""
        if self._open and in_gap:
            self._numbers.add(seq)

    def vouched(self, seq: int, message: Message) -> Message:
        """What is delivered for the frame under `seq`: a card in doubt is a misread
        guessing it."""
        if seq in self._numbers and isinstance(message, CardRead):
            return Misread(message.card)
        return message
