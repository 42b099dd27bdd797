"""The coup engine, rule by rule: the burn, the rows, the results and their calls, the
cut card, the talon, a shoe that runs out (docs/RULES.md §1, §3, §4, §7)."""

from __future__ import annotations

import pytest

from croupier.cards import Card
from croupier.decisions import (
    Alarm,
    Burned,
    CardPlaced,
    Chance,
    CoupVoided,
    DealStopped,
    EndReason,
    Result,
    Row,
    ShoeEnded,
    VoidReason,
)
from tests.engine_play import BURN, cards, coups, only_coup, run


def test_the_first_five_cards_are_burned_before_any_coup() -> None:
    decisions = run(BURN + "KS")
    assert decisions[0] == Burned(cards("2C 3C 4C 5C 6C"))
    assert decisions[1] == CardPlaced(1, Row.NOIR, Card.parse("KS"), 10, False)


def test_noir_row_then_rouge_row_each_until_past_thirty() -> None:
    coup = only_coup("8S 7C KD 9H AD 2S JH QC TD")
    assert coup.noir == cards("8S 7C KD 9H")
    assert coup.rouge == cards("AD 2S JH QC TD")
    assert (coup.noir_point, coup.rouge_point) == (34, 33)


def test_thirty_is_not_past_thirty_but_the_next_card_closes_the_row() -> None:
    coup = only_coup("KS KH KD KC  KS KH AS TS")
    assert coup.noir == cards("KS KH KD KC")
    assert coup.noir_point == 40
    assert coup.rouge_point == 31


@pytest.mark.parametrize(
    ("text", "result", "couleur", "call", "pay"),
    [
        # rouge wins, first noir card red: couleur
        ("TH KS KD 7C  KH KD TS 2C", Result.ROUGE, Chance.COULEUR, "rouge gagne et couleur",
         (Chance.ROUGE, Chance.COULEUR)),
        # rouge wins, first noir card black: inverse
        ("TS KS KD 5C  KH KD TS AC", Result.ROUGE, Chance.INVERSE, "rouge gagne, la couleur perd",
         (Chance.INVERSE, Chance.ROUGE)),
        # noir wins, first noir card black: couleur
        ("TS KS KD AC  KH KD TS 7C", Result.NOIR, Chance.COULEUR, "rouge perd, la couleur gagne",
         (Chance.NOIR, Chance.COULEUR)),
        # noir wins, first noir card red: inverse
        ("TD KS KD 2C  KH KD TS 8C", Result.NOIR, Chance.INVERSE, "rouge perd et couleur",
         (Chance.INVERSE, Chance.NOIR)),
    ],
)
def test_the_four_results_their_calls_and_paying_order(
    text: str, result: Result, couleur: Chance, call: str, pay: tuple[Chance, ...]
) -> None:
    coup = only_coup(text)
    assert (coup.result, coup.couleur, coup.calls[2], coup.pay) == (result, couleur, call, pay)


def test_couleur_is_decided_by_the_first_card_of_the_noir_row_not_of_the_winning_row() -> None:
    # rouge wins; the rouge row starts black, the noir row red: couleur (Art. 56)
    coup = only_coup("TH KS KD 7C  KS KD TH 2C")
    assert coup.result is Result.ROUGE
    assert coup.couleur is Chance.COULEUR


@pytest.mark.parametrize("point", range(32, 41))
def test_equal_points_other_than_31_are_apres(point: int) -> None:
    row = f"KS KC KD {f'{point - 30}S' if point < 40 else 'KH'}"
    coup = only_coup(f"{row} {row}")
    words = ["deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "quarante"]
    word = words[point - 32]
    assert (coup.noir_point, coup.rouge_point) == (point, point)
    assert coup.result is Result.APRES
    assert coup.couleur is None
    assert coup.pay == ()
    assert coup.calls == (word, f"{word} après")


def test_31_31_is_the_refait() -> None:
    coup = only_coup("KS KC KD AS  KH KD TS AH")
    assert coup.result is Result.REFAIT
    assert coup.calls == ("un", "un après")
    assert coup.calls_en == ("one", "one, refait")
    assert coup.couleur is None
    assert coup.pay == ()


@pytest.mark.parametrize(
    ("point", "word"), [(31, "un"), (35, "cinq"), (39, "neuf"), (40, "quarante")]
)
def test_point_calls_omit_trente(point: int, word: str) -> None:
    last = {31: "AS", 35: "5S", 39: "9S", 40: "KS"}[point]
    coup = only_coup(f"KC KC KC {last} KH KH KH 2H")
    assert coup.calls[0] == word


def test_coups_are_numbered_from_one() -> None:
    decided = coups(run(BURN + "KS KC KD AS KH KD TS 2H " * 3))
    assert [c.number for c in decided] == [1, 2, 3]


def test_cut_card_during_the_noir_row_voids_the_coup_and_counts_the_talon() -> None:
    decisions = run(BURN + "KS KC KD AS KH KD TS 2H  KS CUT 2D 3D 4D 5D 6D")
    assert decisions[-3:] == [
        CoupVoided(2, VoidReason.CUT_CARD),
        DealStopped(EndReason.CUT_CARD, 2),
        ShoeEnded(EndReason.CUT_CARD, talon=5, burned=5, dealt=9, voided=0),
    ]
    assert not [d for d in decisions if isinstance(d, Alarm)]


def test_cut_card_during_the_rouge_row_voids_the_coup() -> None:
    decisions = run(BURN + "KS KC KD AS KH CUT 2D 3D 4D 5D 6D")
    assert CoupVoided(1, VoidReason.CUT_CARD) in decisions
    assert not coups(decisions)


def test_cut_card_between_coups_voids_nothing() -> None:
    decisions = run(BURN + "KS KC KD AS KH KD TS 2H CUT 2D 3D 4D 5D 6D")
    assert not [d for d in decisions if isinstance(d, CoupVoided)]
    assert decisions[-1] == ShoeEnded(EndReason.CUT_CARD, 5, 5, 8, 0)


@pytest.mark.parametrize("talon", ["", "2D 3D 4D 5D", "2D 3D 4D 5D 6D 7D"])
def test_a_talon_other_than_five_cards_is_an_alarm(talon: str) -> None:
    decisions = run(BURN + "KS KC KD AS KH KD TS 2H CUT " + talon)
    (alarm,) = [d for d in decisions if isinstance(d, Alarm)]
    assert alarm.code == "talon_count"
    assert isinstance(decisions[-1], ShoeEnded)
    assert decisions[-1].talon == len(talon.split())


def test_a_shoe_that_runs_out_voids_the_coup_in_progress() -> None:
    decisions = run(BURN + "KS KC KD AS KH KD TS 2H KS KC")
    assert decisions[-3:] == [
        CoupVoided(2, VoidReason.EXHAUSTED),
        DealStopped(EndReason.EXHAUSTED, 2),
        ShoeEnded(EndReason.EXHAUSTED, 0, 5, 10, 0),
    ]


def test_a_shoe_that_runs_out_between_coups_voids_nothing() -> None:
    decisions = run(BURN + "KS KC KD AS KH KD TS 2H")
    assert not [d for d in decisions if isinstance(d, CoupVoided)]
    assert decisions[-1] == ShoeEnded(EndReason.EXHAUSTED, 0, 5, 8, 0)


def test_a_shoe_that_runs_out_during_the_burn_still_reports_the_burn() -> None:
    decisions = run("2C 3C")
    assert decisions[0] == Burned(cards("2C 3C"))
    assert decisions[-1] == ShoeEnded(EndReason.EXHAUSTED, 0, 2, 0, 0)
