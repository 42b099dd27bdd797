"""Decisions as plain JSON-able records and back: what the journal keeps of what a table
decided, read again by the audit, the statistics, the screens and the floor.

Where docs/FORMATS.md-style replay JSON exists for a decision, its record is that object; the
others have records of their own. `decision_from_record` also reads the records journals
wrote before a retracted coup had its own kind (a `warning` with code `coup_retracted`).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, assert_never

from croupier.cards import Card
from croupier.decisions import (
    Action,
    Alarm,
    BetsChanged,
    Burned,
    CardExposed,
    CardPlaced,
    CardVoided,
    Chance,
    Corrected,
    CoupDecided,
    CoupRetracted,
    CoupVoided,
    DealStopped,
    Decision,
    EndReason,
    Rejected,
    Result,
    Row,
    Settlement,
    SettlementLine,
    ShoeEnded,
    VoidReason,
)
from croupier.errors import CardError, FixtureError
from croupier.jsonout import decision_json


def decision_record(decision: Decision) -> dict[str, Any]:
    """The record of any decision."""
    match decision:
        case CardPlaced():
            return {"event": "card", "number": decision.number, "row": decision.row.value,
                    "card": str(decision.card), "point": decision.point,
                    "face_up": decision.face_up}
        case CardExposed():
            return {"event": "exposed", "number": decision.number, "card": str(decision.card)}
        case CardVoided():
            return {"event": "voided_card", "card": str(decision.card)}
        case DealStopped():
            return {"event": "deal_stopped", "reason": decision.reason.value,
                    "number": decision.number}
        case Corrected():
            return {"event": "correction", "action": decision.action, "who": decision.who,
                    "why": decision.why, "detail": decision.detail}
        case BetsChanged():
            return {"event": "bets", "open": decision.open}
        case CoupRetracted():
            return {"event": "coup_retracted", "number": decision.number}
        case (Burned() | CoupDecided() | CoupVoided() | ShoeEnded() | Alarm() | Settlement()
              | Rejected()):
            known = decision_json(decision)
            assert known is not None
            return known
        case _:
            assert_never(decision)


def decision_from_record(record: dict[str, Any]) -> Decision:
    """The decision a record stands for; `FixtureError` names what is wrong with a bad one."""
    try:
        return _decision(record)
    except (KeyError, TypeError, ValueError, AttributeError, CardError) as err:
        raise FixtureError(f"not a decision record ({err}): {record!r:.120}") from None


def _cards(texts: list[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(text) for text in texts)


def _decision(r: dict[str, Any]) -> Decision:
    kind = r["event"]
    if kind == "coup":
        return CoupDecided(
            int(r["number"]), _cards(r["noir"]["cards"]), _cards(r["rouge"]["cards"]),
            int(r["noir"]["point"]), int(r["rouge"]["point"]), Result(r["result"]),
            Chance(r["couleur"]) if r["couleur"] else None, tuple(r["calls"]),
            tuple(r.get("calls_en", ())), tuple(Chance(c) for c in r["pay"]),
            int(r["face_up"]), _cards(r.get("exposed", [])), _cards(r.get("voided", [])))
    if kind == "burn":
        return Burned(_cards(r["cards"]), _cards(r.get("exposed", [])), int(r.get("unseen", 0)))
    if kind == "void_coup":
        return CoupVoided(int(r["number"]), VoidReason(r["reason"]))
    if kind == "shoe_end":
        return ShoeEnded(EndReason(r["reason"]), int(r["talon"]), int(r["burned"]),
                         int(r["dealt"]), int(r["voided"]))
    if (kind == "warning" and r.get("code") == "coup_retracted") or kind == "coup_retracted":
        return CoupRetracted(int(r["number"]))
    if kind == "warning":
        card = Card.parse(r["card"]) if r.get("card") else None
        return Alarm(str(r["code"]), str(r["message"]), card)
    if kind == "settlement":
        return Settlement(int(r["number"]), tuple(_line(line) for line in r["lines"]))
    if kind == "rejected":
        return Rejected(str(r["reason"]))
    if kind == "card":
        return CardPlaced(int(r["number"]), Row(r["row"]), Card.parse(r["card"]),
                          int(r["point"]), bool(r["face_up"]))
    if kind == "exposed":
        return CardExposed(int(r["number"]), Card.parse(r["card"]))
    if kind == "voided_card":
        return CardVoided(Card.parse(r["card"]))
    if kind == "deal_stopped":
        return DealStopped(EndReason(r["reason"]), int(r["number"]))
    if kind == "correction":
        return Corrected(str(r["action"]), str(r["who"]), str(r["why"]), str(r["detail"]))
    if kind == "bets":
        return BetsChanged(bool(r["open"]))
    raise ValueError(f"unknown decision {kind!r}")


def _line(r: dict[str, Any]) -> SettlementLine:
    return SettlementLine(
        int(r["seat"]), Chance(r["chance"]), Decimal(r["stake"]), Action(r["action"]),
        Decimal(r["amount"]) if r.get("amount") is not None else None,
        int(r["level"]) if r.get("level") is not None else None,
        Chance(r["to"]) if r.get("to") else None)
