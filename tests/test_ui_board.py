"""The dealer screen's picture as data (no Qt): the fold of decisions into a `Board`, the
scenarios it is drawn from, and the little parsers of the UI."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.ui_commands import _size
from croupier.cards import Card
from croupier.decisions import Chance
from croupier.errors import CroupierError
from croupier.events import CardDrawn, CutCard, PlaceStake, VoidCard
from croupier.rulebook import load_rulebook
from croupier.table import Event, Table
from tests.test_ui_support import BURN, FIXTURES, NOIR, ROUGE, cards
from ui.board import Board, fold, initial_board
from ui.i18n import Lang, keys, tr
from ui.scenario import board_after, demo_scenario, frames, load_scenario

VENEZIA = load_rulebook("venezia")


def play(events: list[Event]) -> Board:
    table = Table(VENEZIA)
    board = initial_board(table)
    for event in events:
        board = fold(board, event, table.apply(event), table)
    return board


def test_rows_keep_the_decided_coup_until_the_next_first_card() -> None:
    board = play(cards(*BURN, *NOIR, *ROUGE))
    assert [str(s.card) for s in board.noir] == list(NOIR)
    assert board.noir_point == 34
    assert board.rouge_point == 33
    assert board.calls[2] == ("rouge gagne et couleur", "red and colour")
    board = play(cards(*BURN, *NOIR, *ROUGE, "5S"))
    assert [str(s.card) for s in board.noir] == ["5S"]
    assert board.coup is None
    assert board.rouge == ()


def test_face_up_cards_are_marked() -> None:
    board = play([*cards(*BURN), CardDrawn(Card.parse("9H"), face_up=True)])
    assert board.noir[0].face_up


def test_a_voided_card_leaves_the_row() -> None:
    board = play([*cards(*BURN, "9H", "8S"), VoidCard()])
    assert [str(s.card) for s in board.noir] == ["9H"]
    assert board.noir_point == 9


def test_chance_plan_and_settlement_lines() -> None:
    events: list[Event] = [*cards(*BURN), PlaceStake(3, Chance.NOIR, Decimal(10)),
                           *cards(*NOIR, *ROUGE)]
    board = play(events)
    assert board.chance_plan() == ((Chance.INVERSE, Chance.NOIR), (Chance.ROUGE, Chance.COULEUR))
    assert [(ln.action.value, ln.seat) for ln in board.settlement] == [("collect", 3)]


def test_cut_card_and_cards_left() -> None:
    board = play([*cards(*BURN, *NOIR, *ROUGE), CutCard(), *cards("2C", "3C")])
    assert board.cut_passed
    assert board.cards_left == 312 - 5 - 8 - 2


def test_board_after_a_coup_and_frames_of_a_fixture() -> None:
    scenario = load_scenario(FIXTURES / "couleur_calls.shoe")
    board, used = board_after(scenario, VENEZIA, 2)
    assert board.coup is not None
    assert board.coup.number == 2
    assert used == 5 + 8 + 9
    assert [f.board.number for f in frames(scenario, VENEZIA)] == [1, 2, 3, 4, 4]


def test_the_demo_scenario_has_stakes_on_the_first_coup() -> None:
    board, _ = board_after(demo_scenario(), VENEZIA, 1)
    assert board.coup is not None
    assert {ln.seat for ln in board.settlement} == {1, 2, 3, 4, 5}


def test_an_unknown_file_is_a_named_error(tmp_path) -> None:
    with pytest.raises(CroupierError, match="cannot read"):
        load_scenario(tmp_path / "missing.shoe")
    with pytest.raises(CroupierError, match="no journal"):
        load_scenario(tmp_path / "missing.db")


def test_every_label_in_three_languages() -> None:
    for key in keys():
        assert all(tr(key, lang) for lang in Lang)
    assert tr("noir", Lang.IT) == "Nero"


@given(st.text(max_size=20) | st.from_regex(r"[0-9]{1,5}x[0-9]{1,5}", fullmatch=True))
def test_size_parser_answers_every_text(text: str) -> None:
    error: CroupierError | None = None
    try:
        width, height = _size(text)
    except CroupierError as err:
        error = err
    if error is not None:
        assert repr(text) in str(error)
        return
    assert 200 <= width <= 8000
    assert 200 <= height <= 8000
    assert f"{width}x{height}" == text


def test_a_table_restored_mid_coup_shows_its_rows() -> None:
    table = Table(VENEZIA)
    for event in cards(*BURN, "9H", "8S"):
        table.apply(event)
    board = initial_board(table)
    assert [str(s.card) for s in board.noir] == ["9H", "8S"]
    assert board.number == 1
