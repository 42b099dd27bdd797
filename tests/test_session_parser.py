"""Session scripts: any text either reads or fails naming its line; values that break a rule
become rejections of their line."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.decisions import Chance, Rejected
from croupier.errors import FixtureError
from croupier.events import CardDrawn, PlaceStake, SetTable
from croupier.rulebook import load_rulebook
from croupier.session import parse_session


def parse(*objects: Any) -> list[Any]:
    text = "\n".join(o if isinstance(o, str) else json.dumps(o) for o in objects)
    return [line.event for line in parse_session(text, load_rulebook)]


def test_the_events_of_interfaces_6() -> None:
    events = parse(
        {"type": "table", "rules": "france", "minimum": 10, "maximum": 10000},
        {"type": "stake", "seat": 3, "chance": "rouge", "amount": 12.5, "insured": True},
        {"type": "card", "card": "10h", "face_up": True},
    )
    assert isinstance(events[0], SetTable)
    assert events[0].rulebook is not None
    assert events[0].rulebook.name == "france"
    assert events[1] == PlaceStake(3, Chance.ROUGE, Decimal("12.5"), True)
    assert events[2] == CardDrawn(events[2].card, True)
    assert str(events[2].card) == "TH"


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("{not json", ":2: not a JSON object"),
        ("[1, 2]", ":2: not a JSON object"),
        ('{"type": "dance"}', "unknown event type 'dance'"),
        ('{"type": "card", "card": "ZZ"}', "bad card 'ZZ'"),
        ('{"type": "card"}', "card event lacks 'card'"),
        ('{"type": "stake", "seat": "3", "chance": "rouge", "amount": 1}', "'seat'"),
        ('{"type": "stake", "seat": 3, "chance": "rouge", "amount": "1"}', "'amount'"),
        ('{"type": "stake", "seat": 3, "chance": "rouge", "amount": 1e400}', "'amount'"),
        ('{"type": "stake", "seat": 3, "chance": "rouge", "amount": NaN}', "'amount'"),
        ('{"type": "card", "card": "AS", "face_up": 1}', "'face_up'"),
    ],
)
def test_a_malformed_line_is_named(line: str, words: str) -> None:
    with pytest.raises(FixtureError) as err:
        parse({"type": "cut"}, line)
    assert "<session>:2:" in str(err.value)
    assert words in str(err.value)


@pytest.mark.parametrize(
    ("obj", "words"),
    [
        ({"type": "stake", "seat": 0, "chance": "rouge", "amount": 1}, "seats count from 1"),
        ({"type": "stake", "seat": 1, "chance": "vert", "amount": 1}, "'vert' is not rouge"),
        ({"type": "prison", "seat": 1, "chance": "rouge", "choice": "flee"}, "'flee'"),
    ],
)
def test_a_value_that_breaks_a_rule_becomes_a_rejection(obj: dict[str, Any], words: str) -> None:
    (event,) = parse(obj)
    assert isinstance(event, Rejected)
    assert words in event.reason


def test_unreadable_rules_reach_the_table_which_refuses_the_set_up() -> None:
    (event,) = parse({"type": "table", "rules": "monaco", "minimum": 10})
    assert isinstance(event, SetTable)
    assert event.rulebook is None
    assert event.minimum == 10
    assert "no rulebook named 'monaco'" in (event.unreadable or "")


@given(st.text(max_size=300))
def test_any_text_reads_or_fails_with_a_fixture_error(text: str) -> None:
    try:
        lines = parse_session(text, load_rulebook)
    except FixtureError as err:
        message = str(err)
    else:
        assert all(line.line >= 1 for line in lines)
        return
    assert message.startswith("<session>:")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=8,
)


@given(st.dictionaries(st.sampled_from(["type", "card", "seat", "chance", "amount", "choice",
                                        "to", "insured", "face_up", "rules", "minimum"]),
                       json_values | st.sampled_from(["card", "stake", "prison", "table",
                                                      "rouge", "AS", "move"]), max_size=6))
def test_any_json_object_reads_or_fails_with_a_fixture_error(obj: dict[str, Any]) -> None:
    try:
        parse_session(json.dumps(obj), load_rulebook)
    except FixtureError as err:
        message = str(err)
    else:
        return
    assert message.startswith("<session>:1:")
