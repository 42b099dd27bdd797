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
from croupier.events import (
    BaizeChecked,
    CardDrawn,
    CardUnread,
    CutCard,
    DeviceAlarm,
    PlaceStake,
    VoidCard,
)
from croupier.rulebook import load_rulebook
from croupier.table import Event, Table
from croupier.view import Allowed
from tests.test_ui_support import BURN, FIXTURES, NOIR, ROUGE, cards
from ui.board import Board, fold, initial_board, paid_record, restore_ticks, tick
from ui.i18n import Lang, keys, tr
from ui.scenario import board_after, demo_scenario, frames, load_scenario

VENEZIA = load_rulebook("venezia")


def play(events: list[Event]) -> Board:
    table = Table(VENEZIA)
    board = initial_board(table.view())
    for event in events:
        decisions = table.apply(event)
        board = fold(board, event, decisions, table.view())
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
    assert board.view.cut_passed
    assert board.view.cards_left == 312 - 5 - 8 - 2


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
    board = initial_board(table.view())
    assert [str(s.card) for s in board.noir] == ["9H", "8S"]
    assert board.number == 1


def test_stakes_between_coups_belong_to_the_next_coup_not_the_last_plan() -> None:
    insured = PlaceStake(2, Chance.ROUGE, Decimal(100), insured=True)
    board = play([*cards(*BURN), PlaceStake(3, Chance.NOIR, Decimal(10)),
                  *cards(*NOIR, *ROUGE), insured])
    assert [(ln.action.value, ln.seat) for ln in board.settlement] == [("collect", 3)]
    assert [(ln.action.value, ln.seat) for ln in board.layout_lines] == [("premium", 2)]
    assert [(s.seat, s.chance) for s in board.view.stakes] == [(2, Chance.ROUGE)]
    assert board.view.betting_on == 2
    board = play([*cards(*BURN), PlaceStake(3, Chance.NOIR, Decimal(10)),
                  *cards(*NOIR, *ROUGE), insured, *cards("5S")])
    assert board.settlement == board.layout_lines == ()


def test_a_refusal_stays_until_the_tailleur_is_answered_yes() -> None:
    refused = PlaceStake(3, Chance.NOIR, Decimal(10))  # before the burn: bets are not open
    board = play([refused, *cards(*BURN[:2])])
    assert board.rejected is not None
    board = play([refused, *cards(*BURN), PlaceStake(3, Chance.NOIR, Decimal(10))])
    assert board.rejected is None


def test_payout_lines_are_ticked_and_kept_for_their_own_plan_only() -> None:
    events: list[Event] = [*cards(*BURN), PlaceStake(3, Chance.NOIR, Decimal(10)),
                           PlaceStake(4, Chance.ROUGE, Decimal(10)), *cards(*NOIR, *ROUGE)]
    board = play(events)
    assert len(board.settlement) == 2
    ticked = tick(board, board.number, 1, True)
    assert ticked.paid == {1}
    assert tick(ticked, board.number, 1, False).paid == frozenset()
    assert tick(board, board.number + 1, 0, True) == board  # another coup's plan
    assert tick(board, board.number, 2, True) == board  # no such line
    records = [paid_record(board, 1, True)]
    assert restore_ticks(board, records).paid == {1}
    # The same coup number in another shoe, with another plan, keeps no tick.
    other = play([*cards(*BURN), PlaceStake(5, Chance.NOIR, Decimal(20)), *cards(*NOIR, *ROUGE)])
    assert restore_ticks(other, records).paid == frozenset()
    assert restore_ticks(board, [{"coup": "x"}, {}]).paid == frozenset()
    # The next coup's first card starts a new plan.
    assert play([*events, *cards("5S")]).paid == frozenset()


def test_the_snapshot_says_what_may_be_tapped() -> None:
    assert play([]).view.allowed == frozenset()
    assert play(cards(*BURN[:3])).view.allowed == {Allowed.VOID_CARD}
    # A complete burn is settled: its last card can no longer be voided.
    assert play(cards(*BURN)).view.allowed == {Allowed.STAKE, Allowed.CLOSE_BETS}
    assert play(cards(*BURN, "9H")).view.allowed == {Allowed.VOID_CARD}
    stopped = play([*cards(*BURN, *NOIR, *ROUGE), CutCard()])
    assert {Allowed.COUNT_TALON, Allowed.NEW_SHOE} <= stopped.view.allowed
    assert Allowed.CLOSE_BETS not in stopped.view.allowed


def test_a_voided_card_is_named() -> None:
    board = play([*cards(*BURN, "9H", "8S"), VoidCard()])
    assert str(board.last_void) == "8S"
    assert play([*cards(*BURN, "9H", "8S"), VoidCard(), *cards("2C")]).last_void is None


def test_the_banner_keeps_an_alarm_only_while_it_asks_for_something() -> None:
    alarm = DeviceAlarm("shoe", "E3 Card Not Read")
    shown = play([*cards(*BURN), alarm]).banner
    assert shown is not None
    assert shown.message == "shoe: E3 Card Not Read"
    gone = play([*cards(*BURN), alarm, *cards("9H")])
    assert gone.banner is None
    assert gone.alarms[0].message == "shoe: E3 Card Not Read"  # kept in the history
    unread = CardUnread("camera", None, 0.0)
    assert play([*cards(*BURN), unread]).banner is not None
    assert play([*cards(*BURN), unread, *cards("9H")]).banner is None
    check = DeviceAlarm("table", "down for a while", check=True)
    waiting = play([*cards(*BURN), check, *cards("9H")]).banner
    assert waiting is not None
    assert waiting.message == "table: down for a while"
    assert play([*cards(*BURN), check, *cards("9H"), BaizeChecked("tailleur")]).banner is None


def test_a_coup_decided_inside_a_batch_is_shown_though_the_batch_deals_on() -> None:
    # A link read late (a resend after a restart) hands the table several coups at once;
    # the table is asked for its snapshot after the whole batch, as the runtime does.
    table = Table(VENEZIA)
    board = initial_board(table.view())
    batch = cards(*BURN, *NOIR, *ROUGE, "8S", "7C")  # coup 1, then two cards of coup 2
    answers = [table.apply(event) for event in batch]
    view = table.view()
    shown = []
    for k, (event, decisions) in enumerate(zip(batch, answers, strict=True)):
        board = fold(board, event, decisions, view, last=k == len(batch) - 1)
        shown.append(board)
    decided = [b for b in shown if b.coup is not None]
    assert decided, "coup 1's result never reached the screen"
    assert decided[0].coup is not None
    assert decided[0].coup.number == 1
    assert decided[0].calls[2] == ("rouge gagne et couleur", "red and colour")
    assert board.number == 2  # the batch's end: coup 2 being dealt, its rows the table's
    assert [str(s.card) for s in board.noir] == ["8S", "7C"]
