"""Journal records: every event survives the trip to JSON and back; junk is a named error."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from croupier.cards import ALL_CARDS
from croupier.decisions import Chance
from croupier.errors import FixtureError
from croupier.events import (
    CardDrawn,
    CardUnread,
    ChoosePrison,
    CloseBets,
    CorrectCard,
    CutCard,
    DeviceAlarm,
    EndSession,
    EndShoe,
    NewShoe,
    PlaceStake,
    PrisonChoice,
    ReopenBets,
    SetTable,
    ShoeEmpty,
    VoidCard,
    VoidCoup,
    Withdraw,
)
from croupier.jsonout import dumps
from croupier.records import event_from_record, event_record
from croupier.rulebook import available_rulebooks, load_rulebook

cards = st.sampled_from(ALL_CARDS)
chances = st.sampled_from(list(Chance))
money = st.decimals(min_value=Decimal("0.01"), max_value=Decimal(10**9), places=2)
words = st.text(max_size=20)
events = st.one_of(
    st.builds(CardDrawn, cards, st.booleans()),
    st.sampled_from([CutCard(), VoidCard(), NewShoe(), ShoeEmpty(), EndSession(), CloseBets()]),
    st.builds(SetTable, st.sampled_from([None, *map(load_rulebook, available_rulebooks())]),
              st.none() | money, st.none() | money, st.none() | words),
    st.builds(PlaceStake, st.integers(1, 9), chances, money, st.booleans()),
    st.builds(Withdraw, st.integers(1, 9), chances),
    st.builds(ChoosePrison, st.integers(1, 9), chances, st.sampled_from(list(PrisonChoice)),
              st.none() | chances),
    st.builds(CardUnread, words, st.none() | cards, st.floats(0, 1)),
    st.builds(DeviceAlarm, words, words),
    st.builds(VoidCoup, words, words),
    st.builds(EndShoe, words, words),
    st.builds(ReopenBets, words, words),
    st.builds(CorrectCard, cards, words, words),
)


@given(events)
def test_every_event_survives_the_journal(event: Any) -> None:
    text = dumps(event_record(event))
    assert event_from_record(json.loads(text, parse_float=Decimal)) == event


@given(st.dictionaries(st.sampled_from(["type", "card", "seat", "chance", "amount", "who"]),
                       st.none() | st.integers() | st.text(max_size=5)
                       | st.sampled_from(["card", "stake", "correct_card", "AS", "rouge"]),
                       max_size=5))
def test_a_bad_record_is_a_named_error(record: dict[str, Any]) -> None:
    try:
        event_from_record(record)
    except FixtureError as err:
        message = str(err)
    else:
        return
    assert message.startswith("not an event record")
