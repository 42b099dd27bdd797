"""The stake ledger: what is on the layout, and how each coup settles it (docs/RULES.md §2, §5–7).

Pure like the shoe engine: fed table events and the shoe's decisions, it answers with
settlements in the order the croupier acts, or with a `Rejected` that changes nothing.
"""

from __future__ import annotations

from decimal import Decimal
from typing import assert_never

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
from croupier.rulebook import (
    AboveMaximum,
    InsurancePer,
    InsuredRounding,
    LimitsChange,
    MaximumRule,
    PremiumOnVoid,
    PrisonerFate,
    PrisonLimitCounts,
    PrisonLimitShare,
    Rounding,
    Rulebook,
)
from croupier.stakes import Stake, line, payout_order, to_unit
from croupier.value import replace


class Ledger:
    """Every stake on one table's layout, from placement to settlement."""

    def __init__(self, rulebook: Rulebook) -> None:
        self.rulebook = rulebook
        self.minimum: Decimal | None = None
        self.maximum: Decimal | None = None
        self.stakes: list[Stake] = []
        self.choices_open = False
        # Why the last set-up was refused: until a valid one, the table takes nothing else.
        self.refused: str | None = None
        self._next_ident = 1

    # -- the table's set-up ------------------------------------------------------------

    def set_table(self, event: SetTable, *, shoe_idle: bool, bets_open: bool) -> list[Decision]:
        """A set-up that is no valid set-up (rules that cannot be read, limits no table can
        have) leaves the table with none: it takes nothing else until a valid one. One that
        comes at the wrong time is refused and the set-up in force stays."""
        invalid = self._invalid(event)
        if invalid is not None:
            self.refused = invalid
            return [Rejected(f"{invalid}; nothing is accepted until a valid table set-up")]
        untimely = self._untimely(event, shoe_idle=shoe_idle, bets_open=bets_open)
        if untimely is not None:
            return [Rejected(untimely)]
        self.refused = None
        self.rulebook = event.rulebook or self.rulebook
        if event.minimum is not None:
            self.minimum = event.minimum
        if event.maximum is not None:
            self.maximum = event.maximum
        return []

    def _limits(self, event: SetTable) -> tuple[Decimal | None, Decimal | None]:
        return (self.minimum if event.minimum is None else event.minimum,
                self.maximum if event.maximum is None else event.maximum)

    def _invalid(self, event: SetTable) -> str | None:
        if event.unreadable is not None:
            return event.unreadable
        minimum, maximum = self._limits(event)
        rulebook = event.rulebook or self.rulebook
        if minimum is not None and minimum <= 0:
            return f"minimum {money_text(minimum)} must be more than 0"
        if minimum is None or maximum is None:
            return None
        if maximum < minimum:
            return f"maximum {money_text(maximum)} below the minimum {money_text(minimum)}"
        ratio = rulebook.maximum_ratio
        match rulebook.maximum_rule:
            case MaximumRule.AT_MOST if ratio and maximum > minimum * ratio:
                return (f"maximum {money_text(maximum)} above {ratio} times the minimum "
                        f"{money_text(minimum)} under {rulebook.name}")
            case MaximumRule.EQUAL if ratio and maximum != minimum * ratio:
                return (f"maximum {money_text(maximum)} is not {ratio} times the minimum "
                        f"{money_text(minimum)}, as {rulebook.name} requires")
        return None

    def _untimely(self, event: SetTable, *, shoe_idle: bool, bets_open: bool) -> str | None:
        if not (shoe_idle or bets_open):
            return "the table's settings change only while bets are open"
        minimum, maximum = self._limits(event)
        rulebook = event.rulebook or self.rulebook
        closed = shoe_idle and not self.stakes
        if event.rulebook is not None and event.rulebook != self.rulebook and not closed:
            return "the rulebook changes only between shoes, with the layout clear"
        limits_move = (minimum, maximum) != (self.minimum, self.maximum)
        if limits_move and rulebook.limits_change is LimitsChange.CLOSED_TABLE and not closed:
            return (f"the {rulebook.name} rulebook changes the limits only with the table "
                    "closed: between shoes, with the layout clear")
        above = [s for s in self.stakes if not s.in_prison and maximum is not None
                 and s.amount > maximum]
        if above:
            return (f"seat {above[0].seat}'s stake of {money_text(above[0].amount)} on "
                    f"{above[0].chance.value} is above the new maximum: it must be lowered "
                    "first")
        return None

    # -- the players -------------------------------------------------------------------

    def place(self, event: PlaceStake, *, bets_open: bool, number: int) -> list[Decision]:
        if not bets_open:
            return [Rejected("bets are closed: they open with faites vos jeux, after the burn, "
                             "and close with rien ne va plus")]
        if event.seat < 1:
            return [Rejected(f"seat {event.seat} does not exist: seats count from 1")]
        if event.amount <= 0:
            return [Rejected(f"stake of {money_text(event.amount)} must be more than 0")]
        if event.insured and self.rulebook.insurance_rate is None:
            return [Rejected(f"the {self.rulebook.name} rulebook sells no insurance")]
        existing = self._free(event.seat, event.chance)
        total = event.amount + (existing.amount if existing else 0)
        already = f" with {money_text(existing.amount)} already there" if existing else ""
        if existing and bool(existing.insured) != event.insured:
            state = "insured" if existing.insured else "not insured"
            return [Rejected(f"seat {event.seat}'s stake on {event.chance.value} is {state}: "
                             "add to it the same way")]
        if self.minimum is not None and total < self.minimum:
            return [Rejected(f"stake of {money_text(total)}{already} below the minimum "
                             f"{money_text(self.minimum)}")]
        excess = self._excess(event, total)
        if excess and self.rulebook.above_maximum is AboveMaximum.REFUSE:
            return [Rejected(f"stake of {money_text(total)}{already} above the maximum "
                             f"{money_text(self.maximum or Decimal(0))}")]
        if excess >= event.amount:
            return [Rejected(f"seat {event.seat} already has the maximum "
                             f"{money_text(self.maximum or Decimal(0))} on {event.chance.value}")]
        total -= excess
        insured = Decimal(0)
        if event.insured:
            refusal = self._insurable(total)
            if refusal:
                return [Rejected(refusal)]
            insured = self._covered(total)
        premium = self.premium(total) if insured else Decimal(0)
        paid = existing.premium if existing else Decimal(0)
        stake = Stake(existing.ident if existing else self._next_ident, event.seat,
                      event.chance, total, insured, premium=max(premium, paid))
        if existing:
            self.stakes[self.stakes.index(existing)] = stake
        else:
            self._next_ident += 1
            self.stakes.append(stake)
        lines = []
        if premium > paid:
            lines.append(line(stake, Action.PREMIUM, amount=premium - paid))
        if not excess:
            return [Settlement(number, payout_order(lines))] if lines else []
        # Venezia: a win from exceeding the maximum is not paid, the excess goes back: the
        # excess is refused (said as a refusal of that line) and the maximum plays.
        lines.append(SettlementLine(event.seat, event.chance, excess, Action.RETURN,
                                    amount=excess))
        refused = Rejected(f"seat {event.seat}'s stake of {money_text(total + excess)} on "
                           f"{event.chance.value} is above the maximum "
                           f"{money_text(self.maximum or Decimal(0))}: {money_text(total)} "
                           f"plays, the excess of {money_text(excess)} goes back")
        return [refused, Settlement(number, payout_order(lines))]

    def _excess(self, event: PlaceStake, total: Decimal) -> Decimal:
        """How much of the stake is above the maximum (prisoners counted if the house
        counts them)."""
        if self.maximum is None:
            return Decimal(0)
        counted = total
        if self.rulebook.prisoners_toward_maximum:
            counted += sum((s.amount for s in self._prisoners(event.seat, event.chance)),
                           Decimal(0))
        return max(counted - self.maximum, Decimal(0))

    def _insurable(self, total: Decimal) -> str | None:
        book = self.rulebook
        if total < book.insurance_minimum:
            return (f"insurance needs a stake of at least {money_text(book.insurance_minimum)} "
                    f"under {book.name}, not {money_text(total)}")
        unit = book.insurance_unit
        if unit and book.insured_rounding is InsuredRounding.EXACT and total % unit:
            return (f"{book.name} insures stakes in whole units of {money_text(unit)}, not "
                    f"{money_text(total)}")
        if not self._covered(total):
            return f"{book.name} insures whole units of {money_text(unit)}: {money_text(total)} " \
                   "holds none"
        return None

    def _covered(self, total: Decimal) -> Decimal:
        """How much of a stake its insurance covers: all of it, or its whole units."""
        if self.rulebook.insured_rounding is InsuredRounding.DOWN:
            return to_unit(total, self.rulebook.insurance_unit, Rounding.DOWN)
        return total

    def premium(self, amount: Decimal) -> Decimal:
        """The premium insuring a stake of `amount`: the rate of the insured amount taken in
        the rulebook's insurance units, at least the minimum premium, in whole chips."""
        book = self.rulebook
        base = to_unit(self._covered(amount), book.insurance_unit, book.insured_rounding)
        premium = max(base * (book.insurance_rate or 0), book.premium_minimum)
        return to_unit(premium, book.chip, book.premium_rounding)

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
        # A premium bought for the coup to come buys nothing once the stake is gone.
        unused = stake.premium if self.rulebook.insurance_per is InsurancePer.COUP else 0
        return [Settlement(number, (line(stake, Action.RETURN, amount=stake.amount + unused),))]

    def choose(self, event: ChoosePrison, *, bets_open: bool, number: int) -> list[Decision]:
        if not self.choices_open:
            return [Rejected("no prison choice is open: choices follow a refait, until the "
                             "next coup's first card")]
        if not bets_open:
            # Venezia, The Cards: after rien ne va plus players cannot withdraw or shift.
            return [Rejected("rien ne va plus: prison choices are made before it")]
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
            match event.choice:
                case PrisonChoice.SHARE:
                    self.stakes.remove(stake)
                    lines.append(line(stake, Action.SHARE, amount=self._share(stake.amount,
                                                                               stake.level)))
                case PrisonChoice.KEEP:
                    lines.append(line(stake, Action.PRISON, level=stake.level))
                case PrisonChoice.MOVE:
                    assert to is not None
                    self.stakes[self.stakes.index(stake)] = replace(stake, chance=to)
                    lines.append(line(stake, Action.MOVE, to=to, level=stake.level))
                case _ as never:
                    assert_never(never)
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
            for stake in self.stakes:
                self._stand(stake, lines, kept)
        else:
            for stake in self.stakes:
                self._decided(stake, stake.chance in coup.pay, lines, kept)
        self.stakes = kept
        self.choices_open = coup.result is Result.REFAIT
        return Settlement(coup.number, payout_order(lines))

    def _stand(self, stake: Stake, lines: list[SettlementLine], kept: list[Stake]) -> None:
        """The stake stays for the next coup; insurance bought per coup is bought again."""
        if stake.insured and self.rulebook.insurance_per is InsurancePer.COUP:
            premium = self.premium(stake.insured)
            lines.append(line(stake, Action.PREMIUM, amount=premium))
            stake = replace(stake, premium=premium)
        kept.append(stake)
        lines.append(line(stake, Action.STAND))

    def _refait(self, stake: Stake, lines: list[SettlementLine], kept: list[Stake]) -> None:
        if stake.insured:
            rest = stake.amount - stake.insured
            self._stand(replace(stake, amount=stake.insured), lines, kept)
            if not rest:
                return
            # Partial insurance: the part no unit covers goes to prison on its own.
            stake = Stake(self._next_ident, stake.seat, stake.chance, rest)
            self._next_ident += 1
        deeper = replace(stake, level=stake.level + 1, choosable=True,
                         refaits=stake.refaits + 1)
        limit = self.rulebook.prison_max_level
        match self.rulebook.prison_limit_counts:
            case PrisonLimitCounts.LEVELS:
                counted = deeper.level
            case PrisonLimitCounts.REFAITS:
                counted = deeper.refaits
            case _ as never:
                assert_never(never)
        if limit and counted > limit:
            # Venezia: at the fourth refait the sum left in play is divided.
            match self.rulebook.prison_limit_share:
                case PrisonLimitShare.DEEPER:
                    level = deeper.level
                case PrisonLimitShare.AT_LIMIT:
                    level = stake.level
                case _ as other:
                    assert_never(other)
            lines.append(line(stake, Action.SHARE, amount=self._share(stake.amount, level)))
            return
        kept.append(deeper)
        lines.append(line(stake, Action.PRISON, level=deeper.level))

    def _decided(
        self, stake: Stake, won: bool, lines: list[SettlementLine], kept: list[Stake]
    ) -> None:
        if not won:
            lines.append(line(stake, Action.COLLECT, amount=stake.amount))
        elif stake.in_prison:
            freer = replace(stake, level=stake.level - 1, choosable=False, refaits=0)
            if freer.in_prison:
                kept.append(freer)
                lines.append(line(stake, Action.PRISON, level=freer.level))
            else:
                lines.append(line(stake, Action.FREE, amount=stake.amount))
        else:
            lines.append(line(stake, Action.PAY, amount=stake.amount))

    def _share(self, amount: Decimal, level: int) -> Decimal:
        """What a prisoner at `level` is worth: halved at each refait (Art. 52), in whole
        chips rounded the rulebook's way."""
        value = amount / Decimal(2**level)
        return to_unit(value, self.rulebook.chip, self.rulebook.share_rounding)

    def end_of_shoe(self, number: int, *, voided: bool, reshuffle: bool) -> Settlement | None:
        """The shoe stopped: free stakes go back, prisoners as the rulebook says (a shoe
        suspended for face-up cards is reshuffled and play goes on: its own rule)."""
        fate = (self.rulebook.prisoners_at_reshuffle if reshuffle
                else self.rulebook.prisoners_at_shoe_end)
        return self.clear(number, fate, always=voided, voided=voided)

    def end_of_session(self, number: int) -> Settlement | None:
        return self.clear(number, self.rulebook.prisoners_at_session_end)

    def clear(
        self, number: int, fate: PrisonerFate, *, always: bool = False, voided: bool = False
    ) -> Settlement | None:
        """Give back every free stake; prisoners go back, carry on or are refunded by level.
        Where the house returns the premium of a voided coup, it goes back with the stake."""
        refund = voided and self.rulebook.premium_on_void is PremiumOnVoid.RETURN
        lines: list[SettlementLine] = []
        kept: list[Stake] = []
        for stake in self.stakes:
            if not stake.in_prison or fate is PrisonerFate.WITHDRAW:
                back = stake.amount + (stake.premium if refund else 0)
                lines.append(line(stake, Action.RETURN, amount=back))
            elif fate is PrisonerFate.REFUND_BY_LEVEL:
                lines.append(line(stake, Action.SHARE,
                                   amount=self._share(stake.amount, stake.level)))
            else:
                kept.append(stake)
                lines.append(line(stake, Action.STAND))
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
