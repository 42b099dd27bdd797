"""Rulebooks are data: shipped ones load, a casino's own loads, bad ones are named."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.errors import RulebookError
from croupier.rulebook import (
    FORMAT,
    RULE_NAMES,
    SHIPPED,
    FaceUpPolicy,
    PrisonerFate,
    available_rulebooks,
    load_rulebook,
    rulebook_data,
    rulebook_from_data,
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
    text = Path(SHIPPED, "venezia.toml").read_text().replace('name = "venezia"', f'name = "{name}"')
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


def _format_2(name: str, **changes: str) -> str:
    """The venezia file as a casino's own, with some rules' values changed."""
    text = Path(SHIPPED, "venezia.toml").read_text().replace('name = "venezia"', f'name = "{name}"')
    for rule, value in changes.items():
        head = f"[{rule}]\nvalue = "
        start = text.index(head) + len(head)
        text = text[:start] + value + text[text.index("\n", start):]
    return text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (_format_2("x").replace("format = 2", "format = 3"), "reads rulebook formats 1 to 2"),
        (_format_2("x").replace("format = 2", 'format = "2"'), "'format' is '2'"),
        (re.sub(r"\[chip\]\n.*\n.*\n", "", _format_2("x")), "rule 'chip' is missing"),
        (_format_2("x", above_maximum='"pay"'), "one of 'refuse', 'play_maximum'"),
        (_format_2("x", chip='"a euro"'), "'chip' has value 'a euro'"),
        (_format_2("x").replace('apres = "après"', 'apres = ""'), "'apres'"),
        (_format_2("x").replace('"neuf", ', ""), "a list of ten words"),
        (_format_2("x").replace('noir_inverse = "rouge perd et couleur"\n', ""), "'results'"),
        # A format-1 file knows none of the format-2 rules.
        (_format_2("x").replace("format = 2\n", ""), "unknown rule(s): above_maximum"),
    ],
)
def test_a_bad_format_2_rulebook_is_named(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(RulebookError, match=re.escape(words)):
        load_rulebook(str(path))


def test_every_number_a_house_may_go_without_takes_none(tmp_path: Path) -> None:
    none = '"none"'
    path = tmp_path / "bare.toml"
    path.write_text(_format_2("bare", burn_cards=none, talon_cards=none, copies_per_card=none,
                              face_up_coup_limit=none, prison_max_level=none,
                              insurance_rate=none, insurance_minimum=none,
                              insurance_unit=none, premium_minimum=none, chip=none,
                              maximum_ratio=none))
    bare = load_rulebook(str(path))
    assert bare.insurance_rate is None
    assert (bare.burn_cards, bare.talon_cards, bare.copies_per_card, bare.face_up_coup_limit,
            bare.prison_max_level, bare.maximum_ratio) == (0, 0, 0, 0, 0, 0)
    assert bare.insurance_minimum == bare.insurance_unit == bare.premium_minimum == 0
    assert bare.chip == 0
    # Written into a journal and read back, "none" stays none.
    assert rulebook_from_data(rulebook_data(bare), "journal") == bare


@pytest.mark.parametrize("name", ["venezia", "france", "suisse", "lac", "salon"])
def test_a_rulebook_survives_the_journal(name: str) -> None:
    book = load_rulebook(name)
    assert rulebook_from_data(rulebook_data(book), "journal") == book


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 5000), st.text(max_size=8),
                    st.sampled_from(["none", "0.01", "500", "up", "down", "stake", "coup"]),
                    st.lists(st.text(max_size=3), max_size=11))


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from([*RULE_NAMES, "format", "name", "title", "stray"]),
                       st.one_of(_VALUES, st.fixed_dictionaries({"value": _VALUES,
                                                                 "source": _VALUES})),
                       max_size=12),
       st.sampled_from(["venezia", "france", "salon"]))
def test_any_record_reads_or_is_named(changes: dict[str, Any], base: str) -> None:
    """Whatever a file or a journal holds, reading it gives a rulebook or one RulebookError."""
    data = {**rulebook_data(load_rulebook(base)), **changes}
    try:
        book = rulebook_from_data(data, "journal row 1")
    except RulebookError as err:
        message = str(err)
    else:
        assert rulebook_from_data(rulebook_data(book), "again") == book
        return
    assert message.startswith("journal row 1: ")
