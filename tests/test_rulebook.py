"""Rulebooks are data: shipped ones load, a casino's own loads, bad ones are named."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from croupier.errors import RulebookError
from croupier.rulebook import (
    FORMAT,
    RULE_NAMES,
    SHIPPED,
    FaceUpPolicy,
    PrisonerFate,
    available_rulebooks,
    load_rulebook,
)


def test_the_shipped_rulebooks_differ_where_rules_md_says() -> None:
    venezia, france = load_rulebook("venezia"), load_rulebook("france")
    assert load_rulebook() == venezia
    assert venezia.face_up_policy is FaceUpPolicy.COUNT
    assert france.face_up_policy is FaceUpPolicy.BURN
    assert (venezia.face_up_coup_limit, france.face_up_coup_limit) == (3, 0)
    assert (venezia.prison_move, france.prison_move) == (True, False)
    assert (venezia.prison_max_level, france.prison_max_level) == (3, 0)
    assert (venezia.insurance_minimum, france.insurance_minimum) == (Decimal(0), Decimal(10))
    assert venezia.insurance_rate == france.insurance_rate == Decimal("0.01")
    assert venezia.prisoners_at_shoe_end is PrisonerFate.WITHDRAW
    assert france.prisoners_at_shoe_end is PrisonerFate.CARRY
    assert france.prisoners_at_session_end is PrisonerFate.REFUND_BY_LEVEL


@pytest.mark.parametrize("name", ["venezia", "france"])
def test_every_rule_names_its_source(name: str) -> None:
    rulebook = load_rulebook(name)
    assert set(rulebook.sources) == set(RULE_NAMES)
    assert rulebook.format == FORMAT
    assert all(len(source) > 20 for source in rulebook.sources.values())


def _casino_rulebook(name: str, **changes: str) -> str:
    text = (SHIPPED / "venezia.toml").read_text().replace('name = "venezia"', f'name = "{name}"')
    for rule, value in changes.items():
        head = f"[{rule}]\nvalue = "
        start = text.index(head) + len(head)
        text = text[:start] + value + text[text.index("\n", start):]
    return text


def test_a_casino_adds_its_rulebook_without_touching_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "geneve.toml").write_text(_casino_rulebook("geneve", insurance_unit='"500"'))
    monkeypatch.setenv("CROUPIER_RULEBOOKS", str(tmp_path))
    assert "geneve" in available_rulebooks()
    assert load_rulebook("geneve").insurance_unit == Decimal(500)
    assert load_rulebook(str(tmp_path / "geneve.toml")).name == "geneve"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("not toml [", "not valid TOML"),
        (_casino_rulebook("x", burn_cards='"five"'), "'burn_cards' has value 'five'"),
        (_casino_rulebook("x", face_up_policy='"flip"'), "one of 'count', 'burn'"),
        (_casino_rulebook("x", insurance_rate='"abc"'), "'insurance_rate'"),
        (_casino_rulebook("x", prison_move="1"), "true or false"),
        (_casino_rulebook("x").replace("[burn_cards]", "[burn_card]"),
         "unknown rule(s): burn_card"),
        (_casino_rulebook("x").replace('source = "Venezia rules, 31 Après: at every', 'x = "'),
         "'prison_move' must name its source"),
        ('title = "t"', "'name' must be a non-empty string"),
    ],
)
def test_a_bad_rulebook_is_named_with_what_is_wrong(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(RulebookError) as err:
        load_rulebook(str(path))
    assert words in str(err.value)
    assert str(path) in str(err.value)


def test_an_unknown_name_lists_the_known() -> None:
    with pytest.raises(RulebookError, match="known: france, lac, salon, suisse, venezia"):
        load_rulebook("monaco")
