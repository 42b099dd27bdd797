"""Readable lines for people: the transcript of `croupier replay` and the live table."""

from __future__ import annotations

from typing import assert_never

from croupier.cards import Card
from croupier.decisions import (
    Alarm,
    Burned,
    CardExposed,
    CardPlaced,
    CardVoided,
    CoupDecided,
    CoupVoided,
    DealStopped,
    Decision,
    EndReason,
    Rejected,
    Settlement,
    SettlementLine,
    ShoeEnded,
)
from croupier.money import money_text

# What the croupier does, and what the amount of the line means.
_ACTION_WORDS = {
    "collect": ("collect", "takes"),
    "pay": ("pay", "wins"),
    "prison": ("to prison", ""),
    "free": ("free", "gives back"),
    "share": ("share", "gives back"),
    "move": ("move", ""),
    "return": ("return", "gives back"),
    "stand": ("stands", ""),
    "premium": ("premium", "bank takes"),
}

def _end_reason(reason: EndReason) -> str:
    match reason:
        case EndReason.CUT_CARD:
            return "the red card"
        case EndReason.FACE_UP_LIMIT:
            return "the third coup with a face-up card"
        case EndReason.EXHAUSTED:
            return "no cards left (les cartes passent)"
        case EndReason.CHEF:
            return "the chef de table"
        case _:
            assert_never(reason)


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards) or "-"


def describe(decision: Decision) -> list[str]:
    """The lines that tell a person what the decision means."""
    if isinstance(decision, CoupDecided):
        return _coup(decision)
    if isinstance(decision, CardPlaced):
        face = "  (face up)" if decision.face_up else ""
        return [f"  {decision.row.value:<5}  {decision.card}  -> {decision.point}{face}"]
    if isinstance(decision, Burned):
        unseen = f" and {decision.unseen} unseen" if decision.unseen else ""
        lines = [f"Messieurs, les cinq cartes: burned {_cards(decision.cards)}{unseen}"]
        if decision.exposed:
            lines.append(f"  face-up cards burned as well: {_cards(decision.exposed)}")
        return lines
    if isinstance(decision, CardExposed):
        return [f"  {decision.card} came out face up: burned, it does not count"]
    if isinstance(decision, CardVoided):
        return [f"  {decision.card} is void (dropped); the next card takes its place"]
    if isinstance(decision, CoupVoided):
        why = "the red card" if decision.reason.value == "cut_card" else "no cards left"
        return [f"Coup {decision.number} is annulled ({why}): stakes are returned as they "
                "stood"]
    if isinstance(decision, DealStopped):
        return [f"Last coup of the shoe: stopped by {_end_reason(decision.reason)}"]
    if isinstance(decision, ShoeEnded):
        return [
            f"End of the shoe ({_end_reason(decision.reason)}): talon {decision.talon}; "
            f"burned {decision.burned} + dealt {decision.dealt} + voided {decision.voided} "
            f"+ talon {decision.talon} = {decision.total} cards"
        ]
    if isinstance(decision, Settlement):
        if not decision.lines:
            return []  # nobody had a stake: nothing to collect or pay
        return [f"  settlement after coup {decision.number}:"] + [
            _settlement_line(line) for line in decision.lines
        ]
    if isinstance(decision, Alarm):
        return [f"ALARM [{decision.code}] {decision.message}"]
    if isinstance(decision, Rejected):
        return [f"rejected: {decision.reason}"]
    return []


def _coup(coup: CoupDecided) -> list[str]:
    width = max(len(coup.noir), len(coup.rouge)) * 3 + 1
    rows = [
        ("noir", coup.noir, coup.noir_point, 0),
        ("rouge", coup.rouge, coup.rouge_point, 1),
    ]
    lines = [f"Coup {coup.number}" + (f"  ({coup.face_up} face up)" if coup.face_up else "")]
    for name, cards, point, i in rows:
        lines.append(
            f"  {name:<5}  {_cards(cards):<{width}} {point}  "
            f"{coup.calls[i]} ({coup.calls_en[i]})"
        )
    if len(coup.calls) > 2:
        lines.append(f"  {coup.calls[2]} ({coup.calls_en[2]})")
        lines.append("  pay: " + ", then ".join(c.value for c in coup.pay))
    elif coup.result.value == "refait":
        lines.append("  refait: stakes are shared or go to prison")
    else:
        lines.append("  après: coup nul, stakes stand and may be changed")
    if coup.exposed:
        lines.append(f"  burned face up: {_cards(coup.exposed)}")
    if coup.voided:
        lines.append(f"  voided: {_cards(coup.voided)}")
    return lines


def _settlement_line(line: SettlementLine) -> str:
    verb, amount_word = _ACTION_WORDS[line.action.value]
    text = (f"    {verb:<10} seat {line.seat:<2} {line.chance.value:<8} "
            f"stake {money_text(line.stake)}")
    if line.amount is not None:
        text += f", {amount_word} {money_text(line.amount)}"
    if line.to is not None:
        text += f" to {line.to.value}"
    if line.level is not None:
        text += f" (prison level {line.level})"
    return text
