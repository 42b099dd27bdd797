"""Readable lines for people: the transcript of `croupier replay` and the live table."""

from __future__ import annotations

from typing import assert_never

from croupier.cards import Card
from croupier.decisions import (
    Action,
    Alarm,
    BetsChanged,
    Burned,
    CardExposed,
    CardPlaced,
    CardVoided,
    Corrected,
    CoupDecided,
    CoupRetracted,
    CoupVoided,
    DealStopped,
    Decision,
    EndReason,
    Rejected,
    Result,
    Settlement,
    SettlementLine,
    ShoeEnded,
    VoidReason,
)
from croupier.money import money_text


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
    match decision:
        case CoupDecided():
            return _coup(decision)
        case CardPlaced():
            face = "  (face up)" if decision.face_up else ""
            return [f"  {decision.row.value:<5}  {decision.card}  -> {decision.point}{face}"]
        case Burned():
            unseen = f" and {decision.unseen} unseen" if decision.unseen else ""
            lines = [f"Messieurs, les cinq cartes: burned {_cards(decision.cards)}{unseen}"]
            if decision.exposed:
                lines.append(f"  face-up cards burned as well: {_cards(decision.exposed)}")
            return lines
        case CardExposed():
            return [f"  {decision.card} came out face up: burned, it does not count"]
        case CardVoided():
            return [f"  {decision.card} is void (dropped); the next card takes its place"]
        case CoupVoided():
            return [f"Coup {decision.number} is annulled ({_void_reason(decision.reason)}): "
                    "stakes are returned as they stood"]
        case DealStopped():
            return [f"Last coup of the shoe: stopped by {_end_reason(decision.reason)}"]
        case ShoeEnded():
            return [
                f"End of the shoe ({_end_reason(decision.reason)}): talon {decision.talon}; "
                f"burned {decision.burned} + dealt {decision.dealt} + voided {decision.voided} "
                f"+ talon {decision.talon} = {decision.total} cards"
            ]
        case Settlement():
            if not decision.lines:
                return []  # nobody had a stake: nothing to collect or pay
            return [f"  settlement after coup {decision.number}:"] + [
                _settlement_line(line) for line in decision.lines
            ]
        case Alarm():
            return [f"ALARM [{decision.code}] {decision.message}"]
        case Rejected():
            return [f"rejected: {decision.reason}"]
        case Corrected() | CoupRetracted() | BetsChanged():
            return []  # said by the decisions that follow them
        case _:
            assert_never(decision)


def _void_reason(reason: VoidReason) -> str:
    match reason:
        case VoidReason.CUT_CARD:
            return "the red card"
        case VoidReason.EXHAUSTED:
            return "no cards left"
        case VoidReason.CHEF:
            return "voided by the chef de table"
        case _:
            assert_never(reason)


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
    elif coup.result is Result.REFAIT:
        lines.append("  refait: stakes are shared or go to prison")
    else:
        lines.append("  après: coup nul, stakes stand and may be changed")
    if coup.exposed:
        lines.append(f"  burned face up: {_cards(coup.exposed)}")
    if coup.voided:
        lines.append(f"  voided: {_cards(coup.voided)}")
    return lines


def _action_words(action: Action) -> tuple[str, str]:
    """What the croupier does, and what the amount of the line means."""
    match action:
        case Action.COLLECT:
            return "collect", "takes"
        case Action.PAY:
            return "pay", "wins"
        case Action.PRISON:
            return "to prison", ""
        case Action.FREE:
            return "free", "gives back"
        case Action.SHARE:
            return "share", "gives back"
        case Action.MOVE:
            return "move", ""
        case Action.RETURN:
            return "return", "gives back"
        case Action.STAND:
            return "stands", ""
        case Action.PREMIUM:
            return "premium", "bank takes"
        case _:
            assert_never(action)


def _settlement_line(line: SettlementLine) -> str:
    verb, amount_word = _action_words(line.action)
    text = (f"    {verb:<10} seat {line.seat:<2} {line.chance.value:<8} "
            f"stake {money_text(line.stake)}")
    if line.amount is not None:
        text += f", {amount_word} {money_text(line.amount)}"
    if line.to is not None:
        text += f" to {line.to.value}"
    if line.level is not None:
        text += f" (prison level {line.level})"
    return text
