"""Stakes on the layout and the lines that settle them, in the croupier's order
(docs/RULES.md §6)."""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import assert_never

from croupier.decisions import PAY_ORDER, Action, Chance, SettlementLine
from croupier.rulebook import InsuredRounding, Rounding
from croupier.value import Value


class Stake(Value):
    """Chips on the layout. `level` 0 is a free stake; n, in prison after n refaits.
    `insured`: how much of it is insured against the refait (0: none); `premium`: what its
    insurance cost for the coup to come."""

    ident: int
    seat: int
    chance: Chance
    amount: Decimal
    insured: Decimal = Decimal(0)
    level: int = 0
    choosable: bool = False  # its owner may still share, keep or move it
    premium: Decimal = Decimal(0)
    refaits: int = 0  # refaits it went through in a row, with no decided coup between

    @property
    def in_prison(self) -> bool:
        return self.level > 0


def line(stake: Stake, action: Action, **extra: object) -> SettlementLine:
    """The settlement line doing `action` to the stake."""
    return SettlementLine(stake.seat, stake.chance, stake.amount, action, **extra)  # type: ignore[arg-type]


def step(action: Action) -> int:
    """The croupier's step an action is taken at. Art. 56: collections first, then payments
    chance by chance in PAY_ORDER; paying a winner and freeing a prisoner whose chance won
    are one step, taken chance by chance: a freed inverse prisoner comes before a paid rouge
    stake."""
    match action:
        case Action.PREMIUM:
            return 0
        case Action.COLLECT:
            return 1
        case Action.PAY | Action.FREE:
            return 2
        case Action.SHARE:
            return 3
        case Action.RETURN:
            return 4
        case Action.MOVE:
            return 5
        case Action.PRISON:
            return 6
        case Action.STAND:
            return 7
        case unreachable:
            assert_never(unreachable)


def payout_order(lines: list[SettlementLine]) -> tuple[SettlementLine, ...]:
    """Collections, then payments chance by chance, each from the farthest seat in."""
    return tuple(sorted(lines, key=lambda ln: (step(ln.action), PAY_ORDER.index(ln.chance),
                                               -ln.seat)))


def to_unit(amount: Decimal, unit: Decimal, way: Rounding | InsuredRounding) -> Decimal:
    """`amount` in whole `unit`s, rounded `way` (no unit: unchanged)."""
    if not unit:
        return amount
    match way:
        case Rounding.UP | InsuredRounding.UP:
            rounding = ROUND_CEILING
        case Rounding.DOWN | InsuredRounding.DOWN | InsuredRounding.EXACT:
            rounding = ROUND_FLOOR  # exact: the amount is in whole units already
        case _:
            assert_never(way)
    return (amount / unit).to_integral_value(rounding) * unit
