"""`croupier odds`: the exact theory a table is audited against (docs/FORMATS.md (journal)).

Everything is counted exactly over a shoe drawn without replacement, then turned into floats
for printing. A shoe is described by its `counts`: how many cards of each value 1 … 10 it
holds (ace 1; ten, jack, queen and king 10).

The counting rests on one fact: the chance of drawing given card values in a given order
depends only on the multiset of values, not on the order. So a row "prefix A in any order,
then the card x that passes 30" is as likely as "x first, then A"; and a coup "A, x, B, y"
(noir prefix, noir's last card, rouge prefix, rouge's last card) as likely as "x, y, A, B".
Every ordering of a prefix is a legal row, since its partial sums never pass 30. What has to
be counted is therefore sets of cards: `N(sA, kA, sB, kB)`, the number of ways to pick two
disjoint sets of physical cards, A with kA cards totalling sA ≤ 30 and B with kB cards
totalling sB ≤ 30. It is the coefficient of a product over values v of
`(1 + X_v + Y_v) ** counts[v]`, where `X_v` adds one card and v points to A and `Y_v` to B.
A shoe short of the cards x and y has the same product divided by `(1 + X_x + Y_x)` and
`(1 + X_y + Y_y)`, a cheap recursion. Two such sets and the two last cards can open a shoe
of M cards in kA! kB! orders, each of probability 1 / falling(M, kA + kB + 2).

Big integers keep the inner loops few: all counts sharing (sA, sB) are packed side by side
into one Python integer, a slot of fixed width per (kA, kB), so one shift, multiplication or
subtraction of the integer works on every slot at once (Kronecker substitution).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import assert_never

from croupier.cards import ALL_CARDS
from croupier.rulebook import SHIPPED, PrisonLimitShare, Rulebook, load_rulebook
from croupier.value import Value

LIMIT = 30  # a row is dealt until its point passes this
SIDE = LIMIT + 1  # prefix totals and card counts run 0 … 30
POINTS = range(LIMIT + 1, LIMIT + 11)
VALUES = range(1, 11)
DEFAULT_DECKS = 6  # for a rulebook that counts no copies of a card
MIN_DECKS, MAX_DECKS = 1, 8
# The comparison `croupier odds` prints beside any rulebook's edge: the shipped France,
# whose prison has no level limit.
COMPARED = Path(SHIPPED, "france.toml")

Counts = tuple[int, ...]


def shoe_counts(decks: int) -> Counts:
    """Cards of each value 1 … 10 in a full shoe of `decks` decks of 52."""
    per_deck = Counter(card.points for card in ALL_CARDS)
    return tuple(per_deck[value] * decks for value in VALUES)


def row_distribution(counts: Counts) -> dict[int, Fraction]:
    """P(a row dealt from the full shoe `counts` ends on each point 31 … 40)."""
    total = sum(counts)
    distribution = dict.fromkeys(POINTS, Fraction(0))
    for last, copies in zip(VALUES, counts, strict=True):
        if not copies:
            continue
        # The last card first, then the prefix from what it left.
        for (prefix, size), sets in _card_sets(_without(counts, last)).items():
            if prefix + last > LIMIT:
                distribution[prefix + last] += Fraction(
                    copies * sets * math.factorial(size), math.perm(total, size + 1)
                )
    return distribution


def coup_distribution(
    counts: Counts, pairs: Iterable[tuple[int, int]] | None = None
) -> dict[tuple[int, int], Fraction]:
    """P(noir point, rouge point) of one coup from the full shoe `counts`, rouge dealt from
    what noir left; only for the (noir, rouge) `pairs` asked for (default: all 100).

    The table is symmetric, P(i, j) = P(j, i): swapping the two rows' cards, prefix for
    prefix and last card for last card, maps each arrangement counted for one onto one
    counted for the other, equally likely.
    """
    every = [(noir, rouge) for noir in POINTS for rouge in POINTS]
    wanted = list(dict.fromkeys(every if pairs is None else pairs))
    strays = [pair for pair in wanted if pair not in every]
    if strays:
        raise ValueError(f"not a pair of points 31 … 40: {strays[0]!r}")
    total = sum(counts)
    width = _slot_width(counts)
    table = _pair_table(counts, width)
    packed = dict.fromkeys(wanted, 0)
    for small in VALUES:
        if not counts[small - 1]:
            continue
        short = _without_one(table, small, width)
        for large in range(small, 11):
            copies = counts[small - 1] * (counts[large - 1] - (small == large))
            if copies <= 0:
                continue
            for noir, rouge in wanted:
                # Last cards (small, large); then (large, small), read mirrored (A for B).
                targets = [(noir - small, rouge - large)]
                if small != large:
                    targets.append((rouge - small, noir - large))
                for prefix_a, prefix_b in targets:
                    if prefix_a <= LIMIT and prefix_b <= LIMIT:
                        packed[noir, rouge] += copies * _without_one_at(
                            short, large, prefix_a, prefix_b, width
                        )
    return {pair: _arrangement_probability(packed[pair], total, width) for pair in wanted}


class TableOdds(Value):
    """The theory of one table: single-row points, coup results and house edges, exact.

    Every even chance (rouge, noir, couleur, inverse) wins and loses a decided coup with the
    same probability: noir and rouge because the coup table is symmetric, couleur and
    inverse because swapping the suits' colours maps one onto the other. So one edge serves
    all four. The edges are the expected loss per unit staked on one even chance, counted
    from the coup the stake is placed for until the stake is resolved, with these rules:

    - après voids the coup: a stake on it is returned (the player may take it back), so it
      costs nothing; a prisoner is not touched by it either.
    - refait, uninsured, left alone (`house_edge`, by the rulebook's `prison_max_level` and
      `prison_limit_share`): the stake goes to prison, level 1. Each later decided coup is
      taken as independent of the others, with these same probabilities (après skipped): its
      chance winning lowers the level by one, and at level 0 frees the stake, returned
      whole; its chance losing takes the stake; another refait sends it one level deeper,
      and the refait that would pass the limit (Venezia: the fourth) divides it, a sixteenth
      coming back (`deeper`) or an eighth (`at_limit`). With V(L) the expected return of a
      prisoner at level L, V(0) = 1 and V(L) = w V(L - 1) + r V(L + 1), w and r the chances
      of a win and of a refait among the coups that are not après; the edge is
      refait × (1 - V(1)). Refaits counted in a row (`prison_limit_counts = "refaits"`) are
      taken as levels: they differ only for a prisoner that wins a level back and then
      refaits past the limit again.
      With no level limit V(L) = ρ ** L with ρ = w + r ρ², the root below 1; irrational, so
      computed in floating point.
    - `house_edge_france`: the same under the shipped `france` rulebook (no level limit),
      printed beside any rulebook's for comparison.
    - `house_edge_shared`: the player shares at the first refait, taking half back at once:
      refait / 2. To first order all three agree, since V(1) is close to one half.
    - `house_edge_insured`: the stake is insured when placed, for the rulebook's
      `insurance_rate` (1 %) of it paid to the bank and never returned; None where the house
      sells no insurance. A refait does not touch it; it stands for the next coup, still
      the same stake and still insured, until a coup decides it (or an après voids it).
      Wins and losses balancing, the loss per stake placed is the premium alone: 1 % of the
      stake (0.990 % of stake plus premium). Counted per coup the stake stays on the
      layout instead, it is 1 % × (1 - refait), about 0.98 %; published figures differ so.

    The end of the shoe is left out: there `venezia` returns prisoners whole and `france`
    carries them to the next shoe, either of which lowers the edge a little.
    """

    decks: int
    rules: str  # the rulebook's name
    row: Mapping[int, Fraction]
    refait: Fraction
    apres: Fraction
    noir_wins: Fraction
    rouge_wins: Fraction
    house_edge: Fraction | float  # a float where the prison has no level limit
    house_edge_france: Fraction | float
    house_edge_shared: Fraction
    house_edge_insured: Fraction | None

    def as_json(self) -> dict[str, object]:
        """The object `croupier odds --json` prints (docs/FORMATS.md), probabilities as floats."""
        return {
            "decks": self.decks,
            "row": {str(point): float(p) for point, p in self.row.items()},
            "refait": float(self.refait),
            "apres": float(self.apres),
            "house_edge": float(self.house_edge),
            "noir_wins": float(self.noir_wins),
            "rouge_wins": float(self.rouge_wins),
            "house_edge_france": float(self.house_edge_france),
            "house_edge_shared": float(self.house_edge_shared),
            "house_edge_insured": None if self.house_edge_insured is None
            else float(self.house_edge_insured),
        }


class _Shoe(Value):
    row: Mapping[int, Fraction]
    refait: Fraction
    apres: Fraction
    wins: Fraction  # each chance's, rouge's and noir's alike


@cache
def _shoe(decks: int) -> _Shoe:
    counts = shoe_counts(decks)
    ties = coup_distribution(counts, ((point, point) for point in POINTS))
    refait = ties[POINTS[0], POINTS[0]]
    apres = sum(ties.values(), Fraction(0)) - refait
    return _Shoe(MappingProxyType(row_distribution(counts)), refait, apres,
                 (1 - refait - apres) / 2)


def rulebook_decks(rulebook: Rulebook) -> int:
    """The decks of the rulebook's shoe: its copies of each card, else `DEFAULT_DECKS`."""
    return rulebook.copies_per_card or DEFAULT_DECKS


def table_odds(decks: int, rulebook: Rulebook | None = None) -> TableOdds:
    """The exact odds of a table dealing from a full shoe of `decks` decks under `rulebook`
    (default: the default rulebook)."""
    rules = load_rulebook() if rulebook is None else rulebook
    return _table_odds(decks, rules, _compared())


@cache
def _compared() -> Rulebook:
    return load_rulebook(str(COMPARED))


@cache
def _table_odds(decks: int, rulebook: Rulebook, compared: Rulebook) -> TableOdds:
    shoe = _shoe(decks)
    rate = rulebook.insurance_rate
    return TableOdds(
        decks=decks,
        rules=rulebook.name,
        row=shoe.row,
        refait=shoe.refait,
        apres=shoe.apres,
        noir_wins=shoe.wins,
        rouge_wins=shoe.wins,
        house_edge=_prison_edge(shoe, rulebook),
        house_edge_france=_prison_edge(shoe, compared),
        house_edge_shared=shoe.refait / 2,
        house_edge_insured=None if rate is None else Fraction(rate),
    )


def _prison_edge(shoe: _Shoe, rulebook: Rulebook) -> Fraction | float:
    """What a stake sent to prison loses, per unit, under the rulebook's prison."""
    decided = 1 - shoe.apres  # the prisoner's coups: après changes nothing for it
    win, deeper = shoe.wins / decided, shoe.refait / decided
    levels = rulebook.prison_max_level
    if not levels:
        return float(shoe.refait) * (1 - _unlimited_prison_value(float(win), float(deeper)))
    match rulebook.prison_limit_share:
        case PrisonLimitShare.DEEPER:
            divided = Fraction(1, 2 ** (levels + 1))
        case PrisonLimitShare.AT_LIMIT:
            divided = Fraction(1, 2 ** levels)
        case unreachable:
            assert_never(unreachable)
    return shoe.refait * (1 - prison_value(win, deeper, levels, divided))


def prison_value(win: Fraction, refait: Fraction, levels: int,
                 divided: Fraction | None = None) -> Fraction:
    """Expected return of a stake just sent to prison (level 1), per unit, when each later
    coup wins for its chance with probability `win` and is a refait with `refait` (the rest
    lose), and the refait that would take it past `levels` divides it instead, `divided`
    coming back (default: the value of one level deeper, 1 / 2 ** (levels + 1))."""
    # Solve V(L) = win V(L-1) + refait V(L+1) from the top: V(L) = base + slope V(L-1).
    share = Fraction(1, 2 ** (levels + 1)) if divided is None else divided
    base, slope = refait * share, win
    for _ in range(levels - 1):
        pivot = 1 - refait * slope
        base, slope = refait * base / pivot, win / pivot
    return base + slope


def _unlimited_prison_value(win: float, refait: float) -> float:
    return (1 - math.sqrt(1 - 4 * win * refait)) / (2 * refait)


def _without(counts: Counts, value: int) -> Counts:
    return tuple(n - (v == value) for v, n in zip(VALUES, counts, strict=True))


def _card_sets(counts: Counts) -> dict[tuple[int, int], int]:
    """Number of sets of k physical cards totalling s ≤ 30, by (s, k)."""
    sets = {(0, 0): 1}
    for value, copies in zip(VALUES, counts, strict=True):
        grown: dict[tuple[int, int], int] = {}
        for (points, size), ways in sets.items():
            for taken in range(min((LIMIT - points) // value, copies) + 1):
                key = (points + value * taken, size + taken)
                grown[key] = grown.get(key, 0) + ways * math.comb(copies, taken)
        sets = grown
    return sets


def _slot_width(counts: Counts) -> int:
    """Bits per packed slot: room for the largest pair count times the last-card weights."""
    # A slot sums, over the ten last cards of each row, sets of each row times last cards.
    largest_side = max(_card_sets(counts).values())
    bound = (20 * sum(counts) * largest_side) ** 2
    return -(-bound.bit_length() // 8) * 8


def _pair_table(counts: Counts, width: int) -> list[int]:
    """`N(sA, kA, sB, kB)` packed: entry sA * SIDE + sB holds slot kA + SIDE * kB."""
    # Built keyed by (sA, sB, kB) with only kA packed: the many additions stay small.
    states = {0: 1}
    for value, copies in zip(VALUES, counts, strict=True):
        ways = [[math.comb(copies, a + b) * math.comb(a + b, a) for b in range(SIDE)]
                for a in range(SIDE)]
        grown: dict[int, int] = {}
        get = grown.get
        step_b = (value << 5) + (1 << 10)  # key = sA + 32 sB + 1024 kB
        for key, packed in states.items():
            top_b = (LIMIT - ((key >> 5) & 31)) // value
            for a in range(min((LIMIT - (key & 31)) // value, copies) + 1):
                shifted = packed << (width * a)
                row = ways[a]
                target = key + value * a
                for b in range(min(top_b, copies - a) + 1):
                    grown[target] = get(target, 0) + shifted * row[b]
                    target += step_b
        states = grown
    table = [0] * (SIDE * SIDE)
    for key, packed in states.items():
        table[(key & 31) * SIDE + ((key >> 5) & 31)] += packed << (width * SIDE * (key >> 10))
    return table


def _without_one(table: list[int], value: int, width: int) -> list[int]:
    """The table of a shoe short of one card of `value`: divided by (1 + X_v + Y_v)."""
    short = [0] * len(table)
    for prefix_a in range(SIDE):
        for prefix_b in range(SIDE):
            entry = table[prefix_a * SIDE + prefix_b]
            if prefix_a >= value:
                entry -= short[(prefix_a - value) * SIDE + prefix_b] << width
            if prefix_b >= value:
                entry -= short[prefix_a * SIDE + prefix_b - value] << (width * SIDE)
            short[prefix_a * SIDE + prefix_b] = entry
    return short


def _without_one_at(table: list[int], value: int, prefix_a: int, prefix_b: int,
                    width: int) -> int:
    """One entry of `_without_one(table, value)`, from 1 / (1 + t) = sum of (-t) ** n."""
    entry = 0
    for p in range(prefix_a // value + 1):
        row = (prefix_a - p * value) * SIDE + prefix_b
        for q in range(prefix_b // value + 1):
            term = table[row - q * value]
            if term:
                term = (term << (width * (p + SIDE * q))) * math.comb(p + q, p)
                entry = entry - term if (p + q) & 1 else entry + term
    return entry


def _arrangement_probability(packed: int, total: int, width: int) -> Fraction:
    """Sum over the slots (kA, kB) of count * kA! kB! / falling(total, kA + kB + 2)."""
    longest = min(2 * SIDE, total)
    raw = packed.to_bytes(packed.bit_length() // 8 + 1, "little")
    step = width // 8
    numerator = 0
    for k_b in range(SIDE):
        for k_a in range(SIDE):
            start = (k_a + SIDE * k_b) * step
            count = int.from_bytes(raw[start:start + step], "little")
            if count:
                cards = k_a + k_b + 2
                numerator += (count * math.factorial(k_a) * math.factorial(k_b)
                              * math.perm(total - cards, longest - cards))
    return Fraction(numerator, math.perm(total, longest))
