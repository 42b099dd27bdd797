"""The replay view: a fixture, a session script or a journal, stepped coup by coup."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from croupier.cards import Card
from croupier.events import CardDrawn, CorrectCard
from croupier.rulebook import load_rulebook
from journal.live import JournaledTable
from tests.test_ui_support import BURN, FIXTURES, NOIR, ROUGE, cards
from ui.i18n import Lang
from ui.replay import ReplayView
from ui.scenario import Moment
from ui.widgets import CardFace

VENEZIA = load_rulebook("venezia")


def opened(qtbot, path: Path) -> ReplayView:  # type: ignore[no-untyped-def]
    view = ReplayView(VENEZIA)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.loader.loaded, timeout=5000):
        thread = view.open(str(path))
    thread.join()
    return view


def test_step_forward_and_back_through_a_fixture(qtbot) -> None:
    view = opened(qtbot, FIXTURES / "couleur_calls.shoe")
    assert len(view.frames) == 5  # four coups, then the cut card and the talon
    assert view.board_view.call_fr.text() == "quatre · trois · rouge gagne et couleur"
    assert not view.previous_button.isEnabled()
    qtbot.mouseClick(view.next_button, Qt.MouseButton.LeftButton)
    assert view.board_view.noir_row.cards() == ["6S", "QH", "8D", "9C"]
    assert view.board_view.call_fr.text() == "trois · deux · rouge gagne, la couleur perd"
    assert "(2/5)" in view.position.text()
    while view.next_button.isEnabled():
        qtbot.mouseClick(view.next_button, Qt.MouseButton.LeftButton)
    assert view.index == 4
    assert "Carte rouge sortie" in view.board_view.shoe_label.text()
    qtbot.mouseClick(view.previous_button, Qt.MouseButton.LeftButton)
    assert view.board_view.call_fr.text() == "deux · cinq · rouge perd et couleur"
    view.step(-2)  # from coup 4 back to coup 2: every card on the rows is replaced
    faces = [face.seen for face in view.board_view.noir_row.findChildren(CardFace)
             if face.isVisibleTo(view.board_view.noir_row)]
    assert [str(seen.card) for seen in faces] == ["6S", "QH", "8D", "9C"]


def test_a_session_script_shows_its_settlements(qtbot) -> None:
    view = opened(qtbot, FIXTURES / "sessions" / "apres.session.jsonl")
    lines = [view.board_view.payout.list.item(i).text()
             for i in range(view.board_view.payout.list.count())]
    # Venezia insures per coup: the stake left standing pays its premium for the next one.
    assert lines == ["Après", "Prime d'assurance · place 3 · couleur 40 → 1",
                     "Reste · place 4 · inverse 30", "Reste · place 1 · noir 100",
                     "Reste · place 2 · rouge 50", "Reste · place 3 · couleur 40"]


def test_a_journal_replays_as_it_was_dealt(qtbot, tmp_path) -> None:
    live = JournaledTable.open(tmp_path / "t.db", VENEZIA, durable=False)
    for event in cards(*BURN, *NOIR, *ROUGE, "6S"):
        live.apply(event)
    live.close()
    view = opened(qtbot, tmp_path / "t.db")
    assert len(view.frames) == 2
    assert view.board_view.rouge_row.cards() == list(ROUGE)
    qtbot.mouseClick(view.next_button, Qt.MouseButton.LeftButton)
    assert view.board_view.noir_row.cards() == ["6S"]


def test_an_unreadable_file_is_named_not_fatal(qtbot, tmp_path) -> None:
    bad = tmp_path / "bad.shoe"
    bad.write_text("QH XX\n", encoding="utf-8")
    view = ReplayView(VENEZIA)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.loader.failed, timeout=5000):
        thread = view.open(str(bad))
    thread.join()
    assert "bad token 'XX'" in view.position.text()
    assert view.frames == []


def test_a_journal_replays_under_the_rules_it_was_opened_with(qtbot, tmp_path) -> None:
    live = JournaledTable.open(tmp_path / "fr.db", load_rulebook("france"), durable=False)
    for event in [*cards(*BURN), CardDrawn(Card.parse("KH"), face_up=True), *cards("9H")]:
        live.apply(event)
    live.close()
    view = opened(qtbot, tmp_path / "fr.db")
    # france burns a card the shuffler turned face up: the row starts with the next one.
    assert view.board_view.noir_row.cards() == ["9H"]


def test_prison_choices_and_refusals_between_coups_are_shown(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = opened(qtbot, FIXTURES / "sessions" / "choices_again_venezia.session.jsonl")
    moments = [frame.moment for frame in view.frames]
    assert Moment.CHOICE in moments
    assert Moment.REFUSED in moments  # a choice made once no choice is open
    first_choice = moments.index(Moment.CHOICE)
    assert Moment.COUP in moments[:first_choice]  # after the refait's coup, before the next
    view.step(first_choice)
    assert view.note.text() == "Prison : place 1 déplace de rouge vers noir"
    view.set_lang(Lang.IT)
    assert view.note.text() == "Prigione: il posto 1 sposta da rosso a nero"
    refused = moments.index(Moment.REFUSED)
    view.step(refused - view.index)
    assert "rifiutato" in view.note.text()


def test_a_correction_in_a_journal_is_a_step_of_its_own(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    live = JournaledTable.open(tmp_path / "c.db", VENEZIA, durable=False)
    for event in [*cards(*BURN, "9H", "8S"), CorrectCard(Card.parse("KC"), "chef Rossi",
                                                          "misread"), *cards("KC", "7D")]:
        live.apply(event)
    live.close()
    view = opened(qtbot, tmp_path / "c.db")
    assert [frame.moment for frame in view.frames] == [Moment.CORRECTION, Moment.END]
    assert view.note.text() == "Correction par chef Rossi (misread) : 8♠ lue comme K♣"
    assert view.board_view.noir_row.cards() == ["9H", "KC"]


def test_after_a_bad_file_the_old_board_is_gone(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    view = opened(qtbot, FIXTURES / "couleur_calls.shoe")
    view.resize(1280, 800)
    view.show()
    assert view.board_view.isVisible()
    bad = tmp_path / "bad.shoe"
    bad.write_text("QH XX\n", encoding="utf-8")
    with qtbot.waitSignal(view.loader.failed, timeout=5000):
        view.open(str(bad)).join()
    assert not view.board_view.isVisible()
    assert view.note.text() == ""
    assert view.position.text().startswith("Fichier illisible : ")
    assert not view.next_button.isEnabled()
    assert not view.previous_button.isEnabled()
