"""Fair-game statistics: honest shoes pass, a biased one is flagged; the marque."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.decisions import Chance, Result
from croupier.events import NewShoe, ShoeEmpty
from croupier.fixtures import parse_shoe
from croupier.rulebook import load_rulebook
from croupier.shuffle import regulation_shoe
from journal.live import JournaledTable
from journal.stats import binomial_two_sided, chi_square_survival, marque, report, theory_of


@pytest.mark.parametrize("df", [2, 4, 10])
@pytest.mark.parametrize("x", [0.5, 3.0, 12.0, 40.0])
def test_chi_square_survival_matches_the_closed_form_for_even_df(df: int, x: float) -> None:
    closed = math.exp(-x / 2) * sum((x / 2) ** i / math.factorial(i) for i in range(df // 2))
    assert chi_square_survival(x, df) == pytest.approx(closed, rel=1e-9, abs=1e-15)


@pytest.mark.parametrize(("x", "p"), [(16.919, 0.05), (21.666, 0.01), (27.877, 0.001)])
def test_chi_square_survival_matches_the_printed_table_for_9_df(x: float, p: float) -> None:
    assert chi_square_survival(x, 9) == pytest.approx(p, rel=2e-3)


@pytest.mark.parametrize(("k", "n", "p"), [(3, 20, 0.5), (0, 12, 0.3), (9, 10, 0.2), (5, 10, 0.5)])
def test_the_binomial_test_sums_every_outcome_no_likelier(k: int, n: int, p: float) -> None:
    q = Fraction(p).limit_denominator(100)
    pmf = [math.comb(n, i) * q**i * (1 - q) ** (n - i) for i in range(n + 1)]
    exact = float(sum(x for x in pmf if x <= pmf[k] * (1 + Fraction(1, 10**9))))
    assert binomial_two_sided(k, n, p) == pytest.approx(min(1.0, exact), rel=1e-9)


def _journal(path: Path, shoes: list[str]) -> Path:
    live = JournaledTable.open(path, load_rulebook("venezia"), durable=False)
    for text in shoes:
        for event in [*parse_shoe(text), ShoeEmpty(), NewShoe()]:
            live.apply(event)
    live.close()
    return path


def _honest(seed: int) -> str:
    from croupier.fixtures import render_shoe

    return render_shoe(regulation_shoe(random.Random(seed)))


def test_honest_shoes_pass(tmp_path: Path) -> None:
    paths = [_journal(tmp_path / f"s{i}.db", [_honest(10 * i + j) for j in range(4)])
             for i in range(2)]
    result = report(paths, theory_of(6), 312)
    assert result["flagged"] == 0
    assert all(sum(s["cards"].values()) == 312 for s in result["scopes"] if s.get("cards"))
    scopes = [s["scope"] for s in result["scopes"]]
    assert scopes[-1] == "table"
    assert "session s0.db" in scopes
    assert sum(s["coups"] for s in result["scopes"] if "shoe" in s["scope"]) == \
        result["scopes"][-1]["coups"]


def test_a_biased_shoe_is_flagged(tmp_path: Path) -> None:
    # A stacked shoe: noir always 31, rouge always 32 -- noir wins every coup.
    stacked = "2C 3C 4C 5C 6C " + "KS KC KD AS KH KD TS 2H " * 38
    path = _journal(tmp_path / "rigged.db", [stacked])
    result = report([path], theory_of(6), 312)
    shoe = result["scopes"][0]
    assert "rouge against noir" in shoe["flagged"]
    assert "row points 31-40 (chi-square, 9 df)" in shoe["flagged"]
    assert "cards: 309 of 312" in shoe["flagged"]
    assert result["flagged"] >= 2


def test_the_marque_of_a_shoe() -> None:
    coups = [(Result.ROUGE, Chance.COULEUR), (Result.NOIR, Chance.INVERSE),
             (Result.APRES, None), (Result.REFAIT, None)]
    assert marque(coups) == ("R N = X", "C I . .")


def test_stats_command(tmp_path: Path) -> None:
    path = _journal(tmp_path / "s.db", [_honest(3)])
    done = subprocess.run([sys.executable, "-m", "croupier", "stats", str(path), "--json"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["scopes"][0]["marque"]["results"].count(" ") + 1 == result["scopes"][0]["coups"]
    text = subprocess.run([sys.executable, "-m", "croupier", "stats", str(path)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert "marque" in text.stdout
    assert "refait" in text.stdout
    missing = subprocess.run([sys.executable, "-m", "croupier", "stats", str(tmp_path / "x.db")],
                             capture_output=True, text=True, timeout=60, check=False)
    assert missing.returncode == 2
