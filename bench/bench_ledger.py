"""Long-run check: the bank's measured advantage on flat one-unit stakes beside the theory.

Every coup, seat 1 keeps one unit on each of the four chances: a stake is placed wherever it
has no free stake standing; prisoners are left alone (no share, no move). The advantage is
what the bank kept, premiums included, over what the players staked.
"""

from __future__ import annotations

import math
import random
import statistics
from decimal import Decimal

from croupier.decisions import Action, Chance, CoupDecided, Result, Settlement
from croupier.events import CardDrawn, EndSession, NewShoe, PlaceStake, SetTable, ShoeEmpty
from croupier.rulebook import load_rulebook
from croupier.shuffle import regulation_shoe
from croupier.table import Table

COUPS = 200_000
UNIT = Decimal(1)


def _bank_gain(settlement: Settlement) -> Decimal:
    """What the bank gained (or paid, when negative) in one settlement."""
    gain = Decimal(0)
    for line in settlement.lines:
        amount = line.amount or Decimal(0)
        if line.action in (Action.COLLECT, Action.PREMIUM):
            gain += amount
        elif line.action is Action.PAY:
            gain -= amount
        elif line.action is Action.SHARE:
            gain += line.stake - amount
    return gain


def simulate(rules: str, insured: bool, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    table = Table(load_rulebook(rules))
    table.apply(SetTable(None, Decimal(1), Decimal(1000)))
    coups = refaits = 0
    per_shoe: list[tuple[float, float]] = []
    while coups < COUPS:
        gained = staked = Decimal(0)
        for event in [*regulation_shoe(rng), ShoeEmpty(), NewShoe()]:
            if isinstance(event, CardDrawn) and table.bets_open:
                for chance in Chance:
                    if not any(s.chance is chance and not s.in_prison
                               for s in table.ledger.stakes):
                        for placed in table.apply(PlaceStake(1, chance, UNIT, insured)):
                            if isinstance(placed, Settlement):
                                gained += _bank_gain(placed)
                        staked += UNIT
            for decision in table.apply(event):
                if isinstance(decision, Settlement):
                    gained += _bank_gain(decision)
                elif isinstance(decision, CoupDecided):
                    coups += 1
                    refaits += decision.result is Result.REFAIT
        per_shoe.append((float(gained), float(staked)))
    for decision in table.apply(EndSession()):
        if isinstance(decision, Settlement):
            gain = float(_bank_gain(decision))
            per_shoe[-1] = (per_shoe[-1][0] + gain, per_shoe[-1][1])
    total_gain = sum(g for g, _ in per_shoe)
    total_staked = sum(s for _, s in per_shoe)
    edge = total_gain / total_staked
    # Ratio estimator's standard error over shoes taken as independent batches.
    residuals = [g - edge * s for g, s in per_shoe]
    mean_staked = total_staked / len(per_shoe)
    error = statistics.pstdev(residuals) / (mean_staked * math.sqrt(len(per_shoe)))
    return {"coups": coups, "refait": refaits / coups, "edge": edge, "error": error}


def _theory() -> tuple[float, float, str]:
    """The house edge with and without insurance from `croupier odds`, else RULES.md §8."""
    try:
        from croupier import odds
    except ImportError:
        return 0.0110, 0.0100, "RULES.md §8"
    theory = odds.theory(6)
    return theory["house_edge"], theory["house_edge_insured"], "croupier odds (exact)"


def main() -> None:
    plain, insured, source = _theory()
    for rules in ("venezia", "france"):
        for with_insurance, expected in ((False, plain), (True, insured)):
            r = simulate(rules, with_insurance, seed=8)
            off = (r["edge"] - expected) / r["error"] if r["error"] else float("inf")
            print(
                f"{rules:<8} {'insured' if with_insurance else 'uninsured':<9} "
                f"{r['coups']:,} coups, refait {r['refait']:.4%}: bank advantage "
                f"{r['edge']:.4%} ± {r['error']:.4%} (1 s.e.); theory {expected:.4%} "
                f"[{source}]; difference {off:+.1f} s.e."
            )
