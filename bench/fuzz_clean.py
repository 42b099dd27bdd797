"""False alarms in `make fuzz`: a `lost` count or a link's alarm (not a shoe's own) on an
input no byte of which was damaged (a live line's quiet spells are no damage)."""

from __future__ import annotations

from bench.fuzz_align import LINK_ALARMS, link_alarm
from bench.fuzz_inputs import Stream
from drivers.messages import Lost, Message, ShoeAlarm

CLEAN_ALARM = "link alarm on a clean input"
_ELSEWHERE = LINK_ALARMS[:2]  # the alarms that the count is not where it was


def clean_alarms(stream: Stream, got: list[Message]) -> int:
    """How many of the messages delivered for `stream`, which arrived undamaged, are
    `CLEAN_ALARM`s: where the shoe's count restarted, not an alarm that the count went
    elsewhere, nor a `lost` count (a restart may look like a wrap that lost messages: no
    receiver can tell), but every other."""
    if not stream.restarts:
        return sum(isinstance(m, Lost) or link_alarm(m) for m in got)
    return sum(link_alarm(m) and not m.text.startswith(_ELSEWHERE) for m in got
               if isinstance(m, ShoeAlarm))
