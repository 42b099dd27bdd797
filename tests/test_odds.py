"""`croupier.odds` against calculations made independently here: a brute-force recursion
over every draw, a Markov chain for an infinite shoe, a seeded Monte Carlo of six decks, the
figures of docs/RULES.md §8, and `croupier odds` run as a process."""

from __future__ import annotations

import json
import math
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from croupier import odds
from croupier.rulebook import SHIPPED, load_rulebook

POINTS = range(31, 41)
ALL_PAIRS = [(noir, rouge) for noir in POINTS for rouge in POINTS]

Dealt = tuple[tuple[object, Fraction], ...]


def brute_force_row(counts: tuple[int, ...]) -> dict[object, Fraction]:
    """Every draw followed card by card until the row passes 30."""

    @cache
    def deal(shoe: tuple[int, ...], points: int) -> Dealt:
        if points > 30:
            return ((points, Fraction(1)),)
        return _draw_each(shoe, lambda rest, value: deal(rest, points + value))

    return dict(deal(counts, 0))


def brute_force_coup(counts: tuple[int, ...]) -> dict[object, Fraction]:
    """Every draw of the noir row, then of the rouge row from what is left; a coup the shoe
    cannot finish counts for nothing."""

    @cache
    def deal(shoe: tuple[int, ...], noir: int, points: int) -> Dealt:
        if points > 30:
            if not noir:
                return deal(shoe, points, 0)
            return (((noir, points), Fraction(1)),)
        return _draw_each(shoe, lambda rest, value: deal(rest, noir, points + value))

    return dict(deal(counts, 0, 0))


def _draw_each(shoe: tuple[int, ...], then: Callable[[tuple[int, ...], int], Dealt]) -> Dealt:
    left = sum(shoe)
    outcome: dict[object, Fraction] = {}
    for index, copies in enumerate(shoe):
        if copies:
            rest = (*shoe[:index], copies - 1, *shoe[index + 1:])
            for result, p in then(rest, index + 1):
                outcome[result] = outcome.get(result, Fraction(0)) + Fraction(copies, left) * p
    return tuple(outcome.items())


def test_one_row_from_one_deck_is_the_brute_force_count() -> None:
    counts = odds.shoe_counts(1)
    assert odds.row_distribution(counts) == brute_force_row(counts)


@pytest.mark.parametrize("counts", [
    (1, 1, 1, 1, 1, 1, 1, 1, 1, 4),  # every coup finishes
    (2, 1, 1, 0, 1, 1, 1, 1, 1, 2),  # no five, and the rouge row often runs out of cards
])
def test_coup_from_a_small_shoe_is_the_brute_force_count(counts: tuple[int, ...]) -> None:
    expected = brute_force_coup(counts)
    found = odds.coup_distribution(counts)
    assert found == {pair: expected.get(pair, Fraction(0)) for pair in ALL_PAIRS}
    assert sum(found.values()) == sum(expected.values())


def test_rows_from_a_huge_shoe_approach_the_infinite_shoe() -> None:
    # With replacement: a Markov chain on the row's point.
    chance = {value: Fraction(4 if value == 10 else 1, 13) for value in range(1, 11)}
    reach = [Fraction(0)] * 41
    reach[0] = Fraction(1)
    for points in range(31):
        for value, p in chance.items():
            reach[points + value] += reach[points] * p
    exact = odds.row_distribution(odds.shoe_counts(10**6))
    for point in POINTS:
        assert float(exact[point]) == pytest.approx(float(reach[point]), abs=1e-6)


def test_six_decks_sum_to_one_and_the_coup_table_is_symmetric() -> None:
    counts = odds.shoe_counts(6)
    row = odds.row_distribution(counts)
    coup = odds.coup_distribution(counts)
    assert sum(row.values()) == 1
    assert sum(coup.values()) == 1
    assert all(coup[noir, rouge] == coup[rouge, noir] for noir, rouge in ALL_PAIRS)
    for point in POINTS:  # both rows have the single-row law
        assert sum(coup[point, rouge] for rouge in POINTS) == row[point]


def _row(cards: Iterator[int]) -> int:
    points = 0
    while points <= 30:
        points += next(cards)
    return points


def test_six_decks_agree_with_a_seeded_monte_carlo() -> None:
    rng = random.Random(31)
    shoe = [value for value, copies in zip(range(1, 11), odds.shoe_counts(6), strict=True)
            for _ in range(copies)]
    coups = 40_000
    noir_points = dict.fromkeys(POINTS, 0)
    refaits = apres = 0
    for _ in range(coups):
        cards = iter(rng.sample(shoe, 64))  # two rows never take 50 cards
        noir, rouge = _row(cards), _row(cards)
        noir_points[noir] += 1
        refaits += noir == rouge == 31
        apres += noir == rouge != 31
    theory = odds.table_odds(6)

    def within_four_errors(seen: int, p: Fraction) -> bool:
        return abs(seen / coups - float(p)) < 4 * math.sqrt(float(p * (1 - p)) / coups)

    assert all(within_four_errors(noir_points[point], theory.row[point]) for point in POINTS)
    assert within_four_errors(refaits, theory.refait)
    assert within_four_errors(apres, theory.apres)


def test_six_decks_give_the_figures_of_rules_8() -> None:
    theory = odds.table_odds(6)
    assert float(theory.row[31]) == pytest.approx(0.148, abs=5e-4)
    assert float(theory.row[40]) == pytest.approx(0.052, abs=5e-4)
    assert float(theory.refait) == pytest.approx(0.0219, abs=5e-5)
    assert float(theory.house_edge) == pytest.approx(0.0110, abs=1e-4)
    assert float(theory.house_edge_shared) == pytest.approx(0.01096, abs=2e-5)  # beatablegames
    assert 0.009 <= float(theory.house_edge_insured) <= 0.010
    assert theory.noir_wins == theory.rouge_wins == (1 - theory.refait - theory.apres) / 2
    assert theory.house_edge_france == pytest.approx(float(theory.house_edge), abs=1e-7)


def test_more_decks_make_the_refait_likelier() -> None:
    refaits = [odds.table_odds(decks).refait for decks in (1, 2, 8)]
    assert refaits == sorted(refaits)


def test_prison_value_solves_the_level_equations() -> None:
    win, refait = Fraction(2, 5), Fraction(1, 10)
    # One level: a win frees it; a refait divides it, a quarter back.
    assert odds.prison_value(win, refait, 1) == win + refait / 4
    # Two levels: V1 = w + r V2 and V2 = w V1 + r / 8.
    assert odds.prison_value(win, refait, 2) == (win + refait**2 / 8) / (1 - refait * win)
    assert odds.prison_value(win, Fraction(0), 3) == win


def test_coup_distribution_rejects_pairs_that_are_not_points() -> None:
    with pytest.raises(ValueError, match="30, 31"):
        odds.coup_distribution(odds.shoe_counts(1), [(31, 31), (30, 31)])


def croupier_odds(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "croupier", "odds", *args],
                          capture_output=True, text=True, timeout=60, check=False)


def test_json_prints_one_object_of_the_shape_of_interfaces_7() -> None:
    done = croupier_odds("--json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    printed = json.loads(lines[0])
    assert printed["decks"] == 6
    assert list(printed["row"]) == [str(point) for point in POINTS]
    theory = odds.table_odds(6)
    assert printed["row"]["31"] == float(theory.row[31])
    assert printed["refait"] == float(theory.refait)
    assert printed["apres"] == float(theory.apres)
    assert printed["house_edge"] == float(theory.house_edge)
    assert printed["house_edge_insured"] == 0.01
    assert {"noir_wins", "rouge_wins"} <= printed.keys()


def test_decks_option_and_readable_table() -> None:
    done = croupier_odds("--decks", "2", "--json")
    assert json.loads(done.stdout)["decks"] == 2
    table = croupier_odds("--decks", "1")
    assert table.returncode == 0
    assert "refait" in table.stdout
    assert f"{float(odds.table_odds(1).row[31]):.4%}" in table.stdout


@pytest.mark.parametrize("decks", ["0", "9", "six", "-1"])
def test_bad_decks_exit_2_with_one_line(decks: str) -> None:
    done = croupier_odds("--decks", decks, "--json")
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "--decks" in done.stderr


def test_rules_france_prices_its_unlimited_prison_and_keeps_the_default_venezia() -> None:
    france = json.loads(croupier_odds("--rules", "france", "--json").stdout)
    venezia = json.loads(croupier_odds("--json").stdout)
    assert france["house_edge"] == france["house_edge_france"] == venezia["house_edge_france"]
    assert venezia["house_edge"] == float(odds.table_odds(6, load_rulebook("venezia")).house_edge)
    assert france["house_edge"] != venezia["house_edge"]
    assert croupier_odds("--rules", "france").stdout.count("france prison") == 1


def test_a_rulebook_sets_the_prison_depth_the_share_the_premium_and_the_decks(
        tmp_path: Path) -> None:
    text = Path(SHIPPED, "salon.toml").read_text(encoding="utf-8")
    text = re.sub(r'(\[prison_max_level\]\nvalue = )\d+', r"\g<1>1", text)
    text = re.sub(r'(\[insurance_rate\]\nvalue = )"[^"]*"', r'\1"0.02"', text)
    text = re.sub(r'(\[copies_per_card\]\nvalue = )\d+', r"\g<1>2", text)
    book = tmp_path / "one_level.toml"
    book.write_text(text, encoding="utf-8")
    printed = json.loads(croupier_odds("--rules", str(book), "--json").stdout)
    theory = odds.table_odds(2)
    decided = 1 - theory.apres
    win, refait = theory.noir_wins / decided, theory.refait / decided
    # salon shares at the limit: the value of level 1, a half, comes back.
    expected = theory.refait * (1 - odds.prison_value(win, refait, 1, Fraction(1, 2)))
    assert printed["decks"] == 2
    assert printed["house_edge"] == float(expected)
    assert printed["house_edge_insured"] == 0.02
    assert "insured (2 %)" in croupier_odds("--rules", str(book)).stdout


def test_a_house_without_insurance_prints_none() -> None:
    printed = json.loads(croupier_odds("--rules", "lac", "--json").stdout)
    assert printed["house_edge_insured"] is None
    assert "none sold" in croupier_odds("--rules", "lac").stdout


def test_an_unknown_rulebook_exits_2_with_one_line() -> None:
    done = croupier_odds("--rules", "nowhere", "--json")
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1
    assert "nowhere" in done.stderr
