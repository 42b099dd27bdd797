"""Fair-game statistics and the marque, read from journals.

Observed frequencies per shoe, per session (one journal) and per table (all journals given)
are set against the exact theory of `croupier odds`: a chi-square test on the row points,
exact binomial tests on rouge/noir, couleur/inverse, après and refait. A result is flagged
when an honest shoe would produce one so extreme less often than `ALPHA` of the time.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, assert_never

from croupier.decision_records import decision_from_record
from croupier.decisions import Chance, CoupDecided, CoupRetracted, Result, ShoeEnded
from croupier.errors import FixtureError
from croupier.odds import table_odds
from journal.store import Journal, JournalError

ALPHA = 0.001
POINTS = range(31, 41)


@dataclass(frozen=True, slots=True)
class Theory:
    """What an honest full shoe gives: P(row point), P(refait), P(any other tie)."""

    row: dict[int, float]
    refait: float
    apres: float


@dataclass(slots=True)
class Tally:
    """Counts of coup outcomes over some scope (a shoe, a session, a table)."""

    coups: int = 0
    points: Counter[int] = field(default_factory=Counter)
    results: Counter[str] = field(default_factory=Counter)
    couleur: Counter[str] = field(default_factory=Counter)

    def add(self, coup: CoupDecided) -> None:
        self.coups += 1
        self.points[coup.noir_point] += 1
        self.points[coup.rouge_point] += 1
        self.results[coup.result.value] += 1
        if coup.couleur is not None:
            self.couleur[coup.couleur.value] += 1

    def merge(self, other: Tally) -> None:
        self.coups += other.coups
        self.points.update(other.points)
        self.results.update(other.results)
        self.couleur.update(other.couleur)


@dataclass(frozen=True, slots=True)
class Test:
    name: str
    observed: str
    expected: str
    p_value: float

    @property
    def flagged(self) -> bool:
        return self.p_value < ALPHA


def chi_square_survival(statistic: float, df: int) -> float:
    """P(X² ≥ statistic) for `df` degrees of freedom: the regularised upper gamma Q."""
    return _upper_gamma(df / 2, statistic / 2)


def _upper_gamma(a: float, x: float) -> float:
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # the series converges quickly here
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Lentz's continued fraction for Q.
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def binomial_two_sided(successes: int, trials: int, p: float) -> float:
    """Exact two-sided p-value: the chance of any count no likelier than the one seen."""
    if trials == 0:
        return 1.0
    if p <= 0 or p >= 1:
        return 1.0 if successes == round(p * trials) else 0.0
    log_p, log_q = math.log(p), math.log1p(-p)

    def log_pmf(k: int) -> float:
        return (math.lgamma(trials + 1) - math.lgamma(k + 1) - math.lgamma(trials - k + 1)
                + k * log_p + (trials - k) * log_q)

    seen = log_pmf(successes) + 1e-9
    total = sum(math.exp(lp) for k in range(trials + 1) if (lp := log_pmf(k)) <= seen)
    return min(1.0, total)


def tests(tally: Tally, theory: Theory) -> list[Test]:
    """Every test for one scope; empty when it holds no coup."""
    if not tally.coups:
        return []
    out = []
    rows = sum(tally.points.values())
    statistic = sum(
        (tally.points[p] - rows * theory.row[p]) ** 2 / (rows * theory.row[p]) for p in POINTS
    )
    out.append(Test("row points 31-40 (chi-square, 9 df)",
                    " ".join(str(tally.points[p]) for p in POINTS),
                    " ".join(f"{rows * theory.row[p]:.1f}" for p in POINTS),
                    chi_square_survival(statistic, len(POINTS) - 1)))
    rouge, noir = tally.results["rouge"], tally.results["noir"]
    out.append(_binomial("rouge against noir", rouge, rouge + noir, 0.5))
    couleur, inverse = tally.couleur["couleur"], tally.couleur["inverse"]
    out.append(_binomial("couleur against inverse", couleur, couleur + inverse, 0.5))
    out.append(_binomial("après", tally.results["apres"], tally.coups, theory.apres))
    out.append(_binomial("refait", tally.results["refait"], tally.coups, theory.refait))
    return out


def _binomial(name: str, hits: int, trials: int, p: float) -> Test:
    return Test(name, f"{hits} of {trials}", f"{trials * p:.1f}",
                binomial_two_sided(hits, trials, p))


@dataclass(slots=True)
class ShoeRecord:
    """One shoe as the journal tells it: its coups in order."""

    session: str
    number: int
    coups: list[CoupDecided] = field(default_factory=list)
    end: ShoeEnded | None = None  # its cards reconciled at the shoe's end


def shoes_of(path: Path) -> list[ShoeRecord]:
    """The shoes of a journal, a coup retracted by a correction replaced by its re-decision."""
    shoes = [ShoeRecord(path.name, 1)]
    with Journal(path, readonly=True) as journal:
        for row in journal.rows("decisions"):
            body = row.data()
            records = body.get("decisions") if isinstance(body, dict) else None
            if not isinstance(records, list):
                raise JournalError(f"{path}: row {row.seq}: not a decisions row")
            for record in records:
                try:
                    decision = decision_from_record(record)
                except FixtureError as err:
                    raise JournalError(f"{path}: row {row.seq}: {err}") from None
                current = shoes[-1]
                match decision:
                    case CoupDecided():
                        current.coups.append(decision)
                    case CoupRetracted():
                        current.coups = [c for c in current.coups
                                         if c.number != decision.number]
                    case ShoeEnded():
                        current.end = decision
                        shoes.append(ShoeRecord(path.name, current.number + 1))
                    case _:
                        pass  # cards, settlements, alarms: not what the statistics count
    return [s for s in shoes if s.coups]


def marque(outcomes: Sequence[tuple[Result, Chance | None]]) -> tuple[str, str]:
    """The marque of a shoe from its coups' results and couleurs, in order: rouge/noir
    (R N, = après, X refait) and couleur/inverse (C I)."""
    result_line = [_result_letter(result) for result, _ in outcomes]
    couleur_line = [_couleur_letter(couleur) for _, couleur in outcomes]
    return " ".join(result_line), " ".join(couleur_line)


def _result_letter(result: Result) -> str:
    match result:
        case Result.ROUGE:
            return "R"
        case Result.NOIR:
            return "N"
        case Result.APRES:
            return "="
        case Result.REFAIT:
            return "X"
        case _:
            assert_never(result)


def _couleur_letter(couleur: Chance | None) -> str:
    match couleur:
        case Chance.COULEUR:
            return "C"
        case Chance.INVERSE:
            return "I"
        case None | Chance.ROUGE | Chance.NOIR:
            return "."  # no couleur: an après or a refait
        case _:
            assert_never(couleur)


def report(paths: list[Path], theory: Theory, shoe_size: int) -> dict[str, Any]:
    """Every scope's tests, flags, marque and card count, as one JSON-able report."""
    scopes: list[dict[str, Any]] = []
    table = Tally()
    for path in paths:
        session = Tally()
        for shoe in shoes_of(path):
            tally = Tally()
            for coup in shoe.coups:
                tally.add(coup)
            session.merge(tally)
            results, colours = marque([(coup.result, coup.couleur) for coup in shoe.coups])
            end = shoe.end
            cards = None if end is None else {"burned": end.burned, "dealt": end.dealt,
                                               "voided": end.voided, "talon": end.talon}
            scope = _scope(f"{shoe.session} shoe {shoe.number}", tally, theory,
                           marque={"results": results, "couleur": colours}, cards=cards)
            if end is not None and end.total != shoe_size:
                # Burned + dealt + voided + talon must make the whole sixain (RULES §1).
                scope["flagged"].append(f"cards: {end.total} of {shoe_size}")
            scopes.append(scope)
        table.merge(session)
        scopes.append(_scope(f"session {path.name}", session, theory))
    scopes.append(_scope("table", table, theory))
    flagged = sum(len(s["flagged"]) for s in scopes)
    return {"alpha": ALPHA, "scopes": scopes, "flagged": flagged}


def _scope(name: str, tally: Tally, theory: Theory, **extra: Any) -> dict[str, Any]:
    found = tests(tally, theory)
    return {
        "scope": name,
        "coups": tally.coups,
        "tests": [{"test": t.name, "observed": t.observed, "expected": t.expected,
                   "p": t.p_value, "flagged": t.flagged} for t in found],
        "flagged": [t.name for t in found if t.flagged],
        **extra,
    }


def theory_of(decks: int) -> Theory:
    """The exact theory of a full shoe of `decks` decks (`croupier odds`)."""
    odds = table_odds(decks)
    return Theory({p: float(q) for p, q in odds.row.items()}, float(odds.refait),
                  float(odds.apres))
