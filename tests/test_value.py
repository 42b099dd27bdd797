"""The core's value records behave as frozen, slotted dataclasses do."""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.cards import ALL_CARDS, Card
from croupier.decisions import Alarm, CardPlaced, Row
from croupier.events import CardDrawn, CutCard
from croupier.value import FrozenError, Value, fields, replace


class Stack(Value):
    seat: int
    amount: Decimal
    note: str = ""


@dataclass(frozen=True, slots=True)
class StackData:
    seat: int
    amount: Decimal
    note: str = ""


stacks = st.tuples(st.integers(-5, 5), st.decimals(allow_nan=False, places=2),
                   st.sampled_from(["", "x", "é"]))


@given(stacks, stacks)
def test_a_value_compares_hashes_and_shows_as_the_same_dataclass(a: tuple[int, Decimal, str],
                                                                  b: tuple[int, Decimal, str]
                                                                  ) -> None:
    va, vb, da, db = Stack(*a), Stack(*b), StackData(*a), StackData(*b)
    assert (va == vb) is (da == db)
    if va == vb:
        assert hash(va) == hash(vb)
    assert repr(va) == repr(da).replace("StackData", "Stack")
    assert pickle.loads(pickle.dumps(va)) == va
    assert copy.deepcopy(va) == va
    assert copy.copy(va) == va


def test_a_value_cannot_change_and_has_no_dict() -> None:
    stack = Stack(1, Decimal(5))
    with pytest.raises(FrozenError):
        stack.seat = 2  # type: ignore[misc]
    with pytest.raises(FrozenError):
        del stack.note
    assert not hasattr(stack, "__dict__")
    assert stack.note == ""
    assert Stack(1, Decimal(5), note="n").note == "n"
    with pytest.raises(TypeError):
        Stack(1)  # type: ignore[call-arg]


def test_values_of_different_kinds_are_never_equal() -> None:
    assert CutCard() == CutCard()
    assert hash(CutCard()) == hash(CutCard())
    assert CardDrawn(ALL_CARDS[0]) != CardDrawn(ALL_CARDS[0], face_up=True)
    assert CardDrawn(ALL_CARDS[0]) != (ALL_CARDS[0], False)
    assert Alarm("x", "text") != CardDrawn(ALL_CARDS[0])


def test_replace_fields_and_match() -> None:
    stack = Stack(1, Decimal(5))
    assert replace(stack, note="moved") == Stack(1, Decimal(5), "moved")
    with pytest.raises(TypeError, match="no field 'colour'"):
        replace(stack, colour="red")
    assert fields(Stack) == ("seat", "amount", "note") == fields(stack)
    placed = CardPlaced(1, Row.NOIR, ALL_CARDS[5], 6, False)
    match placed:
        case CardPlaced(1, Row.NOIR, card, point):
            assert (card, point) == (ALL_CARDS[5], 6)
        case _:
            pytest.fail("a positional pattern did not match")


def test_every_card_is_one_of_the_52_and_survives_pickling() -> None:
    assert len({hash(card) for card in ALL_CARDS}) == 52
    for card in ALL_CARDS:
        assert Card(card.rank, card.suit) == card
        assert pickle.loads(pickle.dumps(card)) == card
        assert copy.deepcopy(card) == card


def test_a_badly_declared_value_is_refused_at_once() -> None:
    with pytest.raises(TypeError, match="'amount' without a default follows 'seat'"):
        class Late(Value):
            seat: int = 0
            amount: Decimal  # type: ignore[misc]

    with pytest.raises(TypeError, match="extends Value alone"):
        class Deeper(Stack):
            extra: int = 0
