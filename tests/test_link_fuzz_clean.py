"""`make fuzz` on inputs no byte of which was damaged: a `lost` count or a link's alarm
delivered there is a false alarm, counted (`CLEAN_ALARM`), forbidden for native and angel
with a check verified or not."""

from __future__ import annotations

import random

from bench.fuzz_clean import CLEAN_ALARM, clean_alarms
from bench.fuzz_decode import decode_live
from bench.fuzz_inputs import Faults, Stream, angel_frames
from bench.fuzz_links import FORBIDDEN
from croupier.cards import Card
from drivers.messages import CardRead, Lost, Message, ShoeAlarm

SENT: list[Message] = [CardRead(Card.parse(c)) for c in ("2D", "AC", "QH", "7S", "9H")]
STRAIGHT = Stream(SENT, [10, 11, 12, 13, 14], frozenset(), 0, 127)
RESTARTED = Stream(SENT, [10, 11, 12, 0, 1], frozenset({3}), 0, 127)
BLIND = ShoeAlarm("seq 12 to 14: a number misread last, not confirmed: messages may have been "
                  "lost there that the numbers cannot show")
WENT_BACK = ShoeAlarm("the shoe's count went back from 12 to 0: it restarted, or messages were "
                      "lost at its wrap")


def test_a_live_line_quiet_now_and_then_is_intact_a_damaged_one_is_not() -> None:
    none = Faults(0, 0, 0, 0, 0, 0, 0)
    frames = angel_frames(STRAIGHT)
    for seed in range(20):  # quiet spells fall after one frame in twenty
        got, intact = decode_live("angel-none", STRAIGHT, frames, none, random.Random(seed),
                                  stale=[])
        assert intact
        assert len(got) == len(SENT)  # a card read once at a quiet spell is a misread
        assert clean_alarms(STRAIGHT, got) == 0
    flipped = Faults(0, 0, 0, 0.5, 0, 0, 0)
    _, intact = decode_live("angel-none", STRAIGHT, frames, flipped, random.Random(1), stale=[])
    assert not intact


def test_lost_counts_and_link_alarms_are_false_alarms_where_nothing_was_damaged() -> None:
    got = [SENT[0], Lost(1, "seq 11 never arrived"), ShoeAlarm("E2 SHOE 4"), BLIND, *SENT[1:]]
    assert clean_alarms(STRAIGHT, got) == 2  # the shoe's own alarm is none
    assert clean_alarms(STRAIGHT, [*SENT[:3], WENT_BACK, *SENT[3:]]) == 1


def test_where_the_count_restarted_saying_so_is_no_false_alarm() -> None:
    """A restart may look like a wrap that lost messages: the alarm that the count went back,
    or a `lost` count there, is what any receiver says; a number said misread is not."""
    lost = Lost(2, "2 of seq 12..0 never arrived")
    assert clean_alarms(RESTARTED, [*SENT[:3], WENT_BACK, lost, *SENT[3:]]) == 0
    assert clean_alarms(RESTARTED, [*SENT, BLIND]) == 1


def test_a_false_alarm_fails_native_and_angel_with_a_check_or_without() -> None:
    assert CLEAN_ALARM in FORBIDDEN["native"]
    assert CLEAN_ALARM in FORBIDDEN["angel-check"]
    assert CLEAN_ALARM in FORBIDDEN["angel-none"]
