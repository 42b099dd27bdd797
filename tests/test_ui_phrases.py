"""The journal's rows, the table's refusals and the alarms in words (ui.phrases), no Qt."""

from __future__ import annotations

import json
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.cards import Card
from croupier.decisions import Alarm, Chance, CoupDecided, Rejected
from croupier.events import (
    BaizeChecked,
    CardDrawn,
    ChoosePrison,
    CloseBets,
    CorrectCard,
    PlaceStake,
    PrisonChoice,
    ReopenBets,
    SetTable,
    VoidCard,
    VoidCoup,
    Withdraw,
)
from croupier.rulebook import load_rulebook
from croupier.table import Event, Table
from tests.test_ui_support import BURN
from ui.audit_words import scope_text, statistic_text
from ui.device_alarms import alarm_text, device_text
from ui.i18n import Lang, tr
from ui.notation import local_time
from ui.phrases import call_gloss, failure_text, row_text
from ui.refusals import refusal_key, refusal_text


def _card(name: str) -> CardDrawn:
    return CardDrawn(Card.parse(name))


def _refusals(rules: str, events: list[Event]) -> list[str]:
    table = Table(load_rulebook(rules))
    return [d.reason for event in events for d in table.apply(event) if isinstance(d, Rejected)]


def test_every_refusal_a_tailleur_meets_has_words() -> None:
    seat = PlaceStake(1, Chance.NOIR, Decimal(100))
    reasons = _refusals("venezia", [
        SetTable(minimum=Decimal(10), maximum=Decimal(1000)),
        seat,  # before the burn
        VoidCard(), VoidCoup("chef", "x"), BaizeChecked("t"), ReopenBets("chef", "x"),
        CorrectCard(Card.parse("9H"), "chef", "x"),
        *(_card(name) for name in BURN),
        PlaceStake(0, Chance.NOIR, Decimal(100)),
        PlaceStake(1, Chance.NOIR, Decimal(0)),
        PlaceStake(1, Chance.NOIR, Decimal(5)),
        PlaceStake(1, Chance.NOIR, Decimal(5000)),
        seat, PlaceStake(1, Chance.NOIR, Decimal(100), insured=True),
        PlaceStake(2, Chance.ROUGE, Decimal(10), insured=True),
        PlaceStake(1, Chance.NOIR, Decimal(900)), PlaceStake(1, Chance.NOIR, Decimal(100)),
        Withdraw(3, Chance.ROUGE),
        ChoosePrison(1, Chance.NOIR, PrisonChoice.SHARE),
        CloseBets(), CloseBets(), Withdraw(1, Chance.NOIR), seat,
    ])
    reasons += _refusals("lac", [*(_card(name) for name in BURN),
                                 PlaceStake(1, Chance.NOIR, Decimal(100), insured=True)])
    assert len(reasons) >= 18
    unknown = [reason for reason in reasons if refusal_key(reason) == "rf_other"]
    assert unknown == []
    for reason in reasons:
        italian = refusal_text(reason, Lang.IT)
        assert "{" not in italian
        assert not set(italian.split()) & {"the", "is", "seat", "stake", "bets", "no", "on"}


def test_a_refusal_names_the_seat_the_chance_and_the_limit() -> None:
    (reason,) = _refusals("venezia", [SetTable(minimum=Decimal(10), maximum=Decimal(1000)),
                                      *(_card(name) for name in BURN),
                                      PlaceStake(3, Chance.COULEUR, Decimal(5))])
    assert refusal_text(reason, Lang.FR) == "mise de 5 sous le minimum 10"
    assert refusal_text(reason, Lang.IT) == "puntata di 5 sotto il minimo 10"
    assert refusal_text("seat 4 has no stake on couleur", Lang.IT) == \
        "il posto 4 non ha puntate su colore"


def test_an_unknown_refusal_points_at_the_raw_row() -> None:
    assert refusal_text("something new", Lang.IT) == tr("rf_other", Lang.IT)


def test_devices_are_named_by_what_they_are_never_by_their_path() -> None:
    said = device_text("/dev/ttyUSB0", "cannot open it: [Errno 2] could not open port "
                       "/dev/ttyUSB0", Lang.IT)
    assert said == "Lo sabot: impossibile aprirlo"
    quoted = device_text("socket://10.0.0.7:4000", "E7 jam at socket://10.0.0.7:4000", Lang.FR)
    assert quoted == "Le sabot : signale « E7 jam at … »"
    assert device_text("camera", "card 9H was taken off the layout", Lang.EN) == \
        "The camera: card 9♥ was taken off the layout"


def test_the_alarms_of_the_engine_in_words() -> None:
    seventh = Alarm("seventh_copy", "9H seen 7 times in a shoe of 6 decks: a foreign or "
                    "duplicated card", Card.parse("9H"))
    assert alarm_text(seventh, Lang.FR) == "9♥ vue 7 fois : carte étrangère ou en double"
    talon = Alarm("talon_count", "the talon holds 4 cards, not 5")
    assert alarm_text(talon, Lang.IT) == "il tallone ha 4 carte, non 5"
    down = Alarm("baize_check", "table: the table was down from 2026-01-10T20:00:00+00:00 to "
                 "2026-01-10T20:05:00+00:00 (UTC): cards dealt meanwhile may be missing")
    assert "de 21:00:00 CET à 21:05:00 CET" in alarm_text(down, Lang.FR, ZoneInfo("Europe/Paris"))


def test_local_time_shows_its_zone() -> None:
    assert local_time("2026-07-01T18:30:00.000+00:00", ZoneInfo("Europe/Rome")) == \
        "20:30:00 CEST"
    assert local_time("not a time", ZoneInfo("Europe/Rome")) == "not a time"


def test_a_coup_row_reads_as_the_chef_speaks() -> None:
    coup = {"event": "coup", "number": 12, "noir": {"cards": ["KH", "TD", "3S"], "point": 33},
            "rouge": {"cards": ["KS", "TC", "5D"], "point": 35}, "result": "noir",
            "couleur": "inverse", "calls": ["trois", "cinq", "rouge perd et couleur"],
            "calls_en": [], "pay": ["noir", "inverse"], "face_up": 0}
    body = json.dumps({"cause": 40, "decisions": [coup]})
    assert row_text("decisions", body, Lang.FR) == \
        "Coup 12 — noir 33, rouge 35 — noir gagne, couleur perd"
    assert row_text("decisions", body, Lang.EN) == \
        "Coup 12 — black 33, red 35 — black wins, colour loses"
    assert row_text("decisions", body, Lang.IT) == \
        "Colpo 12 — nero 33, rosso 35 — vince nero, perde colore"


@given(st.sampled_from(["input", "decisions", "auth", "opened", "rejected", "override", "log",
                        "correction", "other"]),
       st.one_of(st.text(max_size=40),
                 st.dictionaries(st.sampled_from(["type", "event", "decisions", "card", "seat",
                                                  "chance", "amount", "line", "reason", "who"]),
                                 st.one_of(st.text(max_size=8), st.integers(), st.none(),
                                           st.lists(st.integers(), max_size=2)),
                                 max_size=5).map(json.dumps)),
       st.sampled_from(list(Lang)))
def test_no_row_can_break_the_words(kind: str, body: str, lang: Lang) -> None:
    """Whatever a (tampered) row holds, it is put into words or said unreadable."""
    text = row_text(kind, body, lang)
    assert text
    assert all(len(line) <= 80 for line in text.splitlines())


@pytest.mark.parametrize("lang", list(Lang))
def test_a_cut_card_and_the_shoe_in_every_language(lang: Lang) -> None:
    text = row_text("input", json.dumps({"type": "cut"}), lang)
    assert text == tr("ev_cut", lang)
    assert row_text("input", json.dumps({"type": "card", "card": "TD", "face_up": True}),
                    Lang.IT) == "Carta 10♦, scoperta"


def test_beneath_the_calls_the_screens_language() -> None:
    table = Table(load_rulebook("venezia"))
    decided = [d for event in (*BURN, "9H", "8S", "KC", "7D", "TD", "5C", "JS", "8H")
               for d in table.apply(_card(event)) if isinstance(d, CoupDecided)]
    (coup,) = decided  # noir 34, rouge 33: rouge gagne et couleur
    assert call_gloss(coup, 34, Lang.IT) == "quattro · tre · rosso e colore"
    assert call_gloss(coup, 34, Lang.EN) == "four · three · red and colour"
    assert call_gloss(coup, 34, Lang.FR) == ""
    assert call_gloss(None, 34, Lang.IT) == "quattro"
    assert call_gloss(None, 12, Lang.IT) == ""


def test_the_statistics_in_words() -> None:
    assert statistic_text("rouge against noir", Lang.IT) == "rosso contro nero"
    assert statistic_text("16 of 27", Lang.FR) == "16 sur 27"
    assert statistic_text("cards: 311 of 312", Lang.IT) == "carte: 311 su 312"
    assert statistic_text("8.3 7.7", Lang.IT) == "8.3 7.7"
    assert scope_text("table.db shoe 3", Lang.FR) == "Sabot 3"
    assert scope_text("table.db", Lang.EN) == "Journal"


def test_a_failure_names_no_path() -> None:
    said = failure_text("cannot open the journal: [Errno 21] Is a directory: '/var/x'", Lang.FR)
    assert said == tr("fail_open", Lang.FR)
    assert failure_text("disk full", Lang.IT) == tr("fail_other", Lang.IT)
