"""The dealer screen, fed through the real bridge: what it shows, and what its taps send."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from croupier.cards import Card, Rank, Suit
from croupier.decisions import Action, Chance
from croupier.events import CardUnread, CutCard, DeviceAlarm, PlaceStake, SetTable
from croupier.rulebook import load_rulebook
from journal.live import JournaledTable
from journal.store import Journal
from tests.test_ui_support import BURN, NOIR, ROUGE, apply, bridge_fixture, cards
from ui.bridge import TableBridge
from ui.dealer import DealerScreen
from ui.i18n import Lang, action_name, tr

__all__ = ["bridge_fixture"]


@pytest.fixture
def screen(qtbot, bridge: TableBridge) -> DealerScreen:  # type: ignore[no-untyped-def]
    widget = DealerScreen(bridge.submit)
    qtbot.addWidget(widget)
    bridge.board_changed.connect(widget.show_board)
    return widget


def click(qtbot, button) -> None:  # type: ignore[no-untyped-def]
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def payout(screen: DealerScreen) -> list[str]:
    items = screen.payout.list
    return [items.item(i).text() for i in range(items.count())]


def inputs(path: Path) -> list[dict[str, object]]:
    with Journal(path) as journal:
        return [row.data() for row in journal.rows("input")]


def test_rows_fill_card_by_card_with_running_points(qtbot, bridge, screen) -> None:
    apply(qtbot, bridge, *cards(*BURN, "9H", "8S"))
    assert screen.noir_row.cards() == ["9H", "8S"]
    assert screen.noir_row.point.text() == "17"
    assert screen.rouge_row.cards() == []
    assert screen.call_fr.text() == ""
    apply(qtbot, bridge, *cards("KC", "7D"))
    assert screen.noir_row.point.text() == "34"
    assert screen.call_fr.text() == "quatre"  # the noir point is announced as soon as it is out
    assert screen.call_en.text() == ""  # in French the calls need no gloss


def test_decided_coup_shows_calls_and_chance_plan(qtbot, bridge, screen) -> None:
    apply(qtbot, bridge, *cards(*BURN, *NOIR, *ROUGE))
    assert screen.rouge_row.cards() == list(ROUGE)
    assert screen.rouge_row.point.text() == "33"
    assert screen.call_fr.text() == "quatre · trois · rouge gagne et couleur"
    assert screen.call_en.text() == ""
    screen.set_lang(Lang.IT)
    assert screen.call_en.text() == "quattro · tre · rosso e colore"
    screen.set_lang(Lang.FR)
    assert payout(screen) == ["Ramasser: Inverse, Noir", "puis payer: Rouge, Couleur"]
    assert "Brûlées 5" in screen.shoe_label.text()
    assert "Distribuées 8" in screen.shoe_label.text()
    assert "Restantes 299" in screen.shoe_label.text()


def test_stakes_entered_by_taps_reach_the_engine_journal_and_payout(
    qtbot, bridge, screen, tmp_path
) -> None:
    panel = screen.stake_panel
    apply(qtbot, bridge, SetTable(minimum=Decimal(10), maximum=Decimal(1000)))
    apply(qtbot, bridge, *cards(*BURN))  # bets open once the burn is done
    click(qtbot, panel.seat_buttons[2])
    click(qtbot, panel.chance_buttons[Chance.ROUGE])
    # Chips from the table's minimum to its maximum.
    assert [b.text() for b in panel.keypad.chips.values()] == ["10", "20", "50", "100", "500",
                                                               "1000"]
    click(qtbot, panel.keypad.chips[Decimal(100)])
    assert panel.keypad.amount() == Decimal(100)
    with qtbot.waitSignal(bridge.board_changed, timeout=5000):
        click(qtbot, panel.place_button)
    assert screen.layout_panel.lines() == ["Place 3 · Rouge · 100"]
    assert panel.keypad.amount() is None  # accepted: the amount is cleared
    click(qtbot, panel.seat_buttons[4])
    click(qtbot, panel.chance_buttons[Chance.NOIR])
    click(qtbot, panel.keypad.keys["5"])
    click(qtbot, panel.keypad.keys["0"])
    with qtbot.waitSignal(bridge.board_changed, timeout=5000):
        click(qtbot, panel.place_button)
    apply(qtbot, bridge, *cards(*NOIR, *ROUGE))
    assert payout(screen) == ["Ramasser · place 5 · noir 50",
                              "Payer · place 3 · rouge 100"]
    bridge.stop()
    stakes = [r for r in inputs(tmp_path / "table.db") if r["type"] == "stake"]
    assert [(s["seat"], s["chance"], s["amount"]) for s in stakes] == [
        (3, "rouge", 100), (5, "noir", 50)]


def test_rien_ne_va_plus_closes_bets_and_a_late_stake_is_refused(qtbot, bridge, screen) -> None:
    apply(qtbot, bridge, *cards(*BURN))
    assert "Faites vos jeux" in screen.status.text()
    with qtbot.waitSignal(bridge.board_changed, timeout=5000):
        click(qtbot, screen.close_bets_button)
    assert "Rien ne va plus" in screen.status.text()
    assert not screen.close_bets_button.isEnabled()
    apply(qtbot, bridge, PlaceStake(1, Chance.NOIR, Decimal(10)))
    assert "les jeux sont fermés" in screen.stake_panel.note.text()  # in the screen's words


def test_void_card_removes_the_dropped_card_and_is_journaled(
    qtbot, bridge, screen, tmp_path
) -> None:
    apply(qtbot, bridge, *cards(*BURN, "9H", "8S"))
    with qtbot.waitSignal(bridge.board_changed, timeout=5000):
        click(qtbot, screen.void_button)
    assert screen.noir_row.cards() == ["9H"]
    assert screen.noir_row.point.text() == "9"
    bridge.stop()
    assert inputs(tmp_path / "table.db")[-1] == {"type": "void_card"}


def test_unread_card_confirmed_with_the_readers_guess(qtbot, bridge, screen) -> None:
    apply(qtbot, bridge, *cards(*BURN, "9H"))
    apply(qtbot, bridge, CardUnread("camera", Card.parse("QH"), 0.4))
    assert screen.unread_shown
    assert "Q♥" in screen.unread_panel.confirm_button.text()
    with qtbot.waitSignal(bridge.board_changed, timeout=5000):
        click(qtbot, screen.unread_panel.confirm_button)
    assert screen.noir_row.cards() == ["9H", "QH"]
    assert not screen.unread_shown


def test_unread_card_named_with_the_picker(qtbot, bridge, screen) -> None:
    apply(qtbot, bridge, *cards(*BURN), CardUnread("shoe", None, 0.0))
    panel = screen.unread_panel
    assert not panel.confirm_button.isEnabled()  # no guess to confirm
    click(qtbot, panel.picker.rank_buttons[Rank.SEVEN])
    click(qtbot, panel.picker.suit_buttons[Suit.SPADES])
    assert panel.enter_button.text() == "Saisir la carte 7♠"
    with qtbot.waitSignal(bridge.board_changed, timeout=5000):
        click(qtbot, panel.enter_button)
    assert screen.noir_row.cards() == ["7S"]


def test_prison_choice_after_a_refait(qtbot, bridge, screen) -> None:
    apply(qtbot, bridge, *cards(*BURN))
    apply(qtbot, bridge, PlaceStake(2, Chance.ROUGE, Decimal(40)))
    # Noir 31, rouge 31: un après, the refait.
    apply(qtbot, bridge, *cards("TH", "TS", "TD", "AC", "TC", "KS", "QH", "AH"))
    assert screen.call_fr.text() == "un · un après"
    assert screen.side.currentWidget() is screen.prison_panel
    share = screen.prison_panel.buttons[2, Chance.ROUGE, "share"]
    click(qtbot, share)  # asked again before it is sent
    assert "Partager" in screen.prison_panel.question.text()
    with qtbot.waitSignal(bridge.board_changed, timeout=5000):
        click(qtbot, screen.prison_panel.confirm_button)
    assert payout(screen)[-1] == "Partager · place 2 · rouge 40 → 20"


def test_alarms_show_in_the_banner_and_the_list(qtbot, bridge, screen) -> None:
    apply(qtbot, bridge, DeviceAlarm("shoe", "E3 Card Not Read"))
    assert "E3 Card Not Read" in screen.alarm_banner.text()
    assert "shoe:" not in screen.alarm_banner.text()  # said in words, not the engine's
    assert screen.alarm_list.count() == 1


def test_cut_card_talon_and_a_new_shoe(qtbot, bridge, screen, tmp_path) -> None:
    apply(qtbot, bridge, *cards(*BURN, *NOIR, *ROUGE))
    assert not screen.talon_button.isEnabled()
    assert not screen.new_shoe_button.isEnabled()
    apply(qtbot, bridge, CutCard(), *cards("2C", "3C", "4C", "5C", "6C"))
    assert "Carte rouge sortie" in screen.shoe_label.text()
    with qtbot.waitSignal(bridge.board_changed, timeout=5000):
        click(qtbot, screen.talon_button)
    assert "Sabot fermé" in screen.shoe_label.text()
    with qtbot.waitSignal(bridge.board_changed, timeout=5000):
        click(qtbot, screen.new_shoe_button)
    assert "Brûlées 0" in screen.shoe_label.text()
    assert "Restantes 312" in screen.shoe_label.text()
    assert screen.noir_row.cards() == []
    assert screen.call_fr.text() == ""
    bridge.stop()
    assert [r["type"] for r in inputs(tmp_path / "table.db")][-2:] == ["shoe_empty", "new_shoe"]


def test_language_switch(qtbot, bridge, screen) -> None:
    apply(qtbot, bridge, *cards(*BURN, *NOIR, *ROUGE))
    screen.set_lang(Lang.EN)
    assert screen.noir_row.title.text() == "Black"
    assert screen.close_bets_button.text() == "No more bets"
    assert payout(screen) == ["Collect: Inverse, Black", "then pay: Red, Colour"]
    screen.set_lang(Lang.IT)
    assert screen.rouge_row.title.text() == "Rosso"
    assert screen.void_button.text() == "Annulla la carta"
    # The calls stay French, the regulation's words, with the English beneath.
    assert screen.call_fr.text() == "quatre · trois · rouge gagne et couleur"


def test_the_screen_resumes_a_table_from_its_journal(qtbot, tmp_path) -> None:
    path = tmp_path / "resumed.db"
    live = JournaledTable.open(path, load_rulebook("venezia"), durable=False)
    for event in cards(*BURN, "9H", "8S"):
        live.apply(event)
    live.close()
    bridge = TableBridge(path, load_rulebook("venezia"))
    widget = DealerScreen(bridge.submit)
    qtbot.addWidget(widget)
    bridge.board_changed.connect(widget.show_board)
    try:
        with qtbot.waitSignal(bridge.board_changed, timeout=5000):
            bridge.start()
        assert widget.noir_row.cards() == ["9H", "8S"]
        assert "Rien ne va plus" in widget.status.text()  # the coup is under way
    finally:
        bridge.stop()


def test_the_status_names_the_coup_being_bet_on_and_the_burn(qtbot, bridge, screen) -> None:
    apply(qtbot, bridge, *cards(*BURN[:4]))
    assert screen.status.text() == "Coup 1 — Messieurs, les cinq cartes"
    apply(qtbot, bridge, *cards(BURN[4]))
    assert screen.status.text() == "Coup 1 — Faites vos jeux"
    apply(qtbot, bridge, *cards(*NOIR, *ROUGE))
    assert screen.status.text() == "Coup 2 — Faites vos jeux"  # coup 1 is settled


def test_the_wording_a_croupier_signs() -> None:
    words = {lang: (action_name(Action.COLLECT, lang), tr("withdraw", lang)) for lang in Lang}
    assert all(collect != withdraw for collect, withdraw in words.values())
    assert words[Lang.IT] == ("Incassare", "Ritira")
    assert tr("keep", Lang.FR) == "Laisser en prison"
    assert tr("void", Lang.FR) == "Coup annulé"
    assert tr("cut_passed", Lang.FR) == "Carte rouge sortie"
    assert tr("dealer", Lang.IT) == "Tailleur"
    assert tr("marque", Lang.IT) == "Marque"
    assert tr("face_up", Lang.FR).startswith("Coups")


def test_a_restart_mid_payout_keeps_the_plan_and_its_ticks(qtbot, tmp_path) -> None:
    path = tmp_path / "payout.db"

    def opened() -> tuple[TableBridge, DealerScreen]:
        bridge = TableBridge(path, load_rulebook("venezia"))
        widget = DealerScreen(bridge.submit, tick=bridge.tick)
        qtbot.addWidget(widget)
        bridge.board_changed.connect(widget.show_board)
        with qtbot.waitSignal(bridge.board_changed, timeout=5000):
            bridge.start()
        return bridge, widget

    bridge, widget = opened()
    try:
        apply(qtbot, bridge, *cards(*BURN), PlaceStake(3, Chance.ROUGE, Decimal(100)),
              PlaceStake(5, Chance.NOIR, Decimal(50)), *cards(*NOIR, *ROUGE))
        before = payout(widget)
        assert len(before) == 2
        plan = widget.payout.list
        with qtbot.waitSignal(bridge.board_changed, timeout=5000):
            qtbot.mouseClick(plan.viewport(), Qt.MouseButton.LeftButton,
                             pos=plan.visualItemRect(plan.item(1)).center())
    finally:
        bridge.stop()
    bridge, widget = opened()  # the table PC restarted while the croupier was paying
    try:
        assert payout(widget) == before
        assert widget.board is not None
        assert widget.board.paid == {1}
        assert widget.payout.list.item(1).checkState() == Qt.CheckState.Checked
    finally:
        bridge.stop()
