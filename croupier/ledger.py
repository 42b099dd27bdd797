"""The stake ledger: what is on the layout, and how each coup settles it (RULES.md §2, §5–7).

Pure like the shoe engine: fed table events and the shoe's decisions, it answers with
settlements in the order the croupier acts, or with a `Rejected` that changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import ROUND_CEILING, Decimal

from croupier.decisions import (
    Action,
    Chance,
    CoupDecided,
    Decision,
    Rejected,
    Result,
    Settlement,
    SettlementLine,
)
from croupier.events import ChoosePrison, PlaceStake, PrisonChoice, SetTable, Withdraw
from croupier.money import money_text
from croupier.rulebook import PrisonerFate, Rulebook

# Art. 56: collections first, then payments chance by chance, inverse, noir or rouge, couleur.
CHANCE_ORDER = (Chance.INVERSE, Chance.NOIR, Chance.ROUGE, Chance.COULEUR)
# The croupier's steps, in order. Paying a winner and freeing a prisoner whose chance won are
# one step, taken chance by chance: a freed inverse prisoner comes before a paid rouge stake.
ACTION_STEP = {
    Action.PREMIUM: 0,
    Action.COLLECT: 1,
    Action.PAY: 2,
    Action.FREE: 2,
    Action.SHARE: 3,
    Action.RETURN: 4,
    Action.MOVE: 5,
    Action.PRISON: 6,
    Action.STAND: 7,
}


@dataclass(frozen=True, slots=True)
class Stake:
    """Chips on the layout. `level` 0 is a free stake; n, in prison after n refaits."""

    ident: int
    seat: int
    chance: Chance
    amount: Decimal
    insured: bool = False
    level: int = 0
    choosable: bool = False  # its owner may still share, keep or move it

    @property
    def in_prison(self) -> bool:
        return self.level > 0


def _line(stake: Stake, action: Action, **extra: object) -> SettlementLine:
    return SettlementLine(stake.seat, stake.chance, stake.amount, action, **extra)  # type: ignore[arg-type]


def payout_order(lines: list[SettlementLine]) -> tuple[SettlementLine, ...]:
    """Collections, then payments chance by chance, each from the farthest seat in."""
    return tuple(
        sorted(
            lines,
            key=lambda ln: (ACTION_STEP[ln.action], CHANCE_ORDER.index(ln.chance), -ln.seat),
        )
    )


class Ledger:
    """Every stake on one table's layout, from placement to settlement."""

    def __init__(self, rulebook: Rulebook) -> None:
        self.rulebook = rulebook
        self.minimum: Decimal | None = None
        self.maximum: Decimal | None = None
        self.stakes: list[Stake] = []
        self.choices_open = False
        self._next_ident = 1

    # -- the players -------------------------------------------------------------------

    def set_table(self, event: SetTable, *, shoe_idle: bool, bets_open: bool) -> list[Decision]:
        if not (shoe_idle or bets_open):
            return [Rejected("the table's settings change only while bets are open")]
        minimum = self.minimum if event.minimum is None else event.minimum
        maximum = self.maximum if event.maximum is None else event.maximum
        rulebook = event.rulebook or self.rulebook
        changing = event.rulebook is not None and event.rulebook != self.rulebook
        if changing and (not shoe_idle or self.stakes):
            return [Rejected("the rulebook changes only between shoes, with the layout clear")]
        if minimum is not None and minimum <= 0:
            return [Rejected(f"minimum {money_text(minimum)} must be more than 0")]
        if minimum is not None and maximum is not None:
            if maximum < minimum:
                return [Rejected(f"maximum {money_text(maximum)} below the minimum "
                                 f"{money_text(minimum)}")]
            if maximum > minimum * rulebook.maximum_ratio:
                return [
                    Rejected(
                        f"maximum {money_text(maximum)} above {rulebook.maximum_ratio} times the "
                        f"minimum {money_text(minimum)}"
                    )
                ]
        above = [s for s in self.stakes if not s.in_prison and maximum is not None
                 and s.amount > maximum]
        if above:
            # A stake is never above the maximum (Venezia: no win from exceeding it is paid).
            return [Rejected(f"seat {above[0].seat}'s stake of {money_text(above[0].amount)} on "
                             f"{above[0].chance.value} is above the new maximum: it must be "
                             "lowered first")]
        self.rulebook, self.minimum, self.maximum = rulebook, minimum, maximum
        return []

    def place(self, event: PlaceStake, *, bets_open: bool, number: int) -> list[Decision]:
        if not bets_open:
            return [Rejected("bets are closed (rien ne va plus)")]
        if event.seat < 1:
            return [Rejected(f"seat {event.seat} does not exist: seats count from 1")]
        if event.amount <= 0:
            return [Rejected(f"stake of {money_text(event.amount)} must be more than 0")]
        existing = self._free(event.seat, event.chance)
        total = event.amount + (existing.amount if existing else 0)
        already = f" with {money_text(existing.amount)} already there" if existing else ""
        if existing and existing.insured != event.insured:
            state = "insured" if existing.insured else "not insured"
            return [Rejected(f"seat {event.seat}'s stake on {event.chance.value} is {state}: "
                             "add to it the same way")]
        if self.minimum is not None and total < self.minimum:
            return [Rejected(f"stake of {money_text(total)}{already} below the minimum "
                             f"{money_text(self.minimum)}")]
        if self.maximum is not None and total > self.maximum:
            return [Rejected(f"stake of {money_text(total)}{already} above the maximum "
                             f"{money_text(self.maximum)}")]
        if event.insured and total < self.rulebook.insurance_minimum:
            return [Rejected(f"insurance needs a stake of at least "
                             f"{money_text(self.rulebook.insurance_minimum)} under "
                             f"{self.rulebook.name}, not {money_text(total)}")]
        if existing:
            stake = replace(existing, amount=total)
            self.stakes[self.stakes.index(existing)] = stake
        else:
            stake = Stake(self._next_ident, event.seat, event.chance, total, event.insured)
            self._next_ident += 1
            self.stakes.append(stake)
        if not event.insured:
            return []
        premium = self.premium(total) - (self.premium(existing.amount) if existing else 0)
        return [Settlement(number, (_line(stake, Action.PREMIUM, amount=premium),))]

    def premium(self, amount: Decimal) -> Decimal:
        """The insurance premium on a stake: the rate of the insured amount, rounded up to
        the rulebook's unit where it has one (the Swiss seed's 500 CHF)."""
        unit = self.rulebook.insurance_unit
        insured = (amount / unit).to_integral_value(ROUND_CEILING) * unit if unit else amount
        return insured * self.rulebook.insurance_rate

    def withdraw(self, event: Withdraw, *, bets_open: bool, number: int) -> list[Decision]:
        if not bets_open:
            return [Rejected("bets are closed (rien ne va plus)")]
        stake = self._free(event.seat, event.chance)
        if stake is None:
            if self._prisoners(event.seat, event.chance):
                return [Rejected(f"seat {event.seat}'s stake on {event.chance.value} is in "
                                 "prison: it cannot be withdrawn")]
            return [Rejected(f"seat {event.seat} has no stake on {event.chance.value}")]
        self.stakes.remove(stake)
        return [Settlement(number, (_line(stake, Action.RETURN, amount=stake.amount),))]

    def choose(self, event: ChoosePrison, *, number: int) -> list[Decision]:
        if not self.choices_open:
            return [Rejected("no prison choice is open: choices follow a refait, until the "
                             "next coup's first card")]
        prisoners = [s for s in self._prisoners(event.seat, event.chance) if s.choosable]
        if not prisoners:
            return [Rejected(f"seat {event.seat} has no prisoner on {event.chance.value} "
                             "awaiting a choice")]
        to = event.to
        if event.choice is PrisonChoice.MOVE:
            if not self.rulebook.prison_move:
                return [Rejected(f"the {self.rulebook.name} rulebook does not allow moving a "
                                 "prisoner")]
            if to is None or to is event.chance:
                return [Rejected("a prisoner moves to another chance: say which with 'to'")]
        lines = []
        for stake in prisoners:
            if event.choice is PrisonChoice.SHARE:
                self.stakes.remove(stake)
                lines.append(_line(stake, Action.SHARE, amount=self._share(stake)))
            elif event.choice is PrisonChoice.KEEP:
                lines.append(_line(stake, Action.PRISON, level=stake.level))
            elif to is not None:
                moved = replace(stake, chance=to)
                self.stakes[self.stakes.index(stake)] = moved
                lines.append(_line(stake, Action.MOVE, to=to, level=stake.level))
        return [Settlement(number, payout_order(lines))]

    # -- the coups ---------------------------------------------------------------------

    def settle(self, coup: CoupDecided) -> Settlement:
        """Every stake on the layout after a decided, après or refait coup."""
        lines: list[SettlementLine] = []
        kept: list[Stake] = []
        if coup.result is Result.REFAIT:
            for stake in self.stakes:
                self._refait(stake, lines, kept)
        elif coup.result is Result.APRES:
            kept = list(self.stakes)
            lines = [_line(s, Action.STAND) for s in kept]
        else:
            for stake in self.stakes:
                self._decided(stake, stake.chance in coup.pay, lines, kept)
        self.stakes = kept
        self.choices_open = coup.result is Result.REFAIT
        return Settlement(coup.number, payout_order(lines))

    def _refait(self, stake: Stake, lines: list[SettlementLine], kept: list[Stake]) -> None:
        if not stake.in_prison and stake.insured:
            kept.append(stake)
            lines.append(_line(stake, Action.STAND))
            return
        deeper = replace(stake, level=stake.level + 1, choosable=True)
        limit = self.rulebook.prison_max_level
        if limit and deeper.level > limit:
            # Venezia: at the fourth refait the sum left in play is divided.
            lines.append(_line(stake, Action.SHARE, amount=self._share(deeper)))
            return
        kept.append(deeper)
        lines.append(_line(stake, Action.PRISON, level=deeper.level))

    def _decided(
        self, stake: Stake, won: bool, lines: list[SettlementLine], kept: list[Stake]
    ) -> None:
        if not won:
            lines.append(_line(stake, Action.COLLECT, amount=stake.amount))
        elif stake.in_prison:
            freer = replace(stake, level=stake.level - 1, choosable=False)
            if freer.in_prison:
                kept.append(freer)
                lines.append(_line(stake, Action.PRISON, level=freer.level))
            else:
                lines.append(_line(stake, Action.FREE, amount=stake.amount))
        else:
            lines.append(_line(stake, Action.PAY, amount=stake.amount))

    @staticmethod
    def _share(stake: Stake) -> Decimal:
        """A prisoner's value is halved at each refait (Art. 52)."""
        return stake.amount / Decimal(2**stake.level)

    def end_of_shoe(self, number: int, *, voided: bool) -> Settlement | None:
        """The shoe stopped: free stakes go back, prisoners as the rulebook says."""
        return self.clear(number, self.rulebook.prisoners_at_shoe_end, always=voided)

    def end_of_session(self, number: int) -> Settlement | None:
        return self.clear(number, self.rulebook.prisoners_at_session_end)

    def clear(
        self, number: int, fate: PrisonerFate, *, always: bool = False
    ) -> Settlement | None:
        """Give back every free stake; prisoners go back, carry on or are refunded by level."""
        lines: list[SettlementLine] = []
        kept: list[Stake] = []
        for stake in self.stakes:
            if not stake.in_prison or fate is PrisonerFate.WITHDRAW:
                lines.append(_line(stake, Action.RETURN, amount=stake.amount))
            elif fate is PrisonerFate.REFUND_BY_LEVEL:
                lines.append(_line(stake, Action.SHARE, amount=self._share(stake)))
            else:
                kept.append(stake)
                lines.append(_line(stake, Action.STAND))
        self.stakes = kept
        if not lines and not always:
            return None
        return Settlement(number, payout_order(lines))

    def close_choices(self) -> None:
        """The next coup's first card is out: what was not chosen stays in prison."""
        if self.choices_open:
            self.choices_open = False
            self.stakes = [replace(s, choosable=False) for s in self.stakes]

    # -- lookups -----------------------------------------------------------------------

    def _free(self, seat: int, chance: Chance) -> Stake | None:
        for stake in self.stakes:
            if (stake.seat, stake.chance, stake.in_prison) == (seat, chance, False):
                return stake
        return None

    def _prisoners(self, seat: int, chance: Chance) -> list[Stake]:
        return [s for s in self.stakes if (s.seat, s.chance) == (seat, chance) and s.in_prison]

