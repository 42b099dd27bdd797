"""The JSON lines of `croupier replay --json` (docs/FORMATS.md (replay))."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any, assert_never

from croupier.decisions import (
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
    Rejected,
    Settlement,
    SettlementLine,
    ShoeEnded,
)
from croupier.money import money_text

# `json.dumps(x, ensure_ascii=False)` builds an encoder on every call: one serves every leaf.
_LEAF = json.JSONEncoder(ensure_ascii=False).encode


def dumps(obj: Any) -> str:
    """One JSON line; decimal amounts are written as exact JSON numbers, never floats."""
    if isinstance(obj, Decimal):
        return money_text(obj)
    if isinstance(obj, dict):
        return "{" + ", ".join(f"{_string(k)}: {dumps(v)}" for k, v in obj.items()) + "}"
    if isinstance(obj, list | tuple):
        return "[" + ", ".join(dumps(v) for v in obj) + "]"
    return _LEAF(obj)


def _string(key: object) -> str:
    if not isinstance(key, str):
        raise TypeError(f"a JSON key must be a string, not {key!r}")
    return _LEAF(key)


def line_json(line: SettlementLine) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": line.seat,
        "chance": line.chance.value,
        "stake": line.stake,
        "action": line.action.value,
    }
    if line.amount is not None:
        out["amount"] = line.amount
    if line.to is not None:
        out["to"] = line.to.value
    if line.level is not None:
        out["level"] = line.level
    return out


def decision_json(decision: Decision) -> dict[str, Any] | None:
    """The replay object of a decision, or None for those replay does not print."""
    match decision:
        case CoupDecided():
            return _coup(decision)
        case Burned():
            burn: dict[str, Any] = {"event": "burn", "cards": [str(c) for c in decision.cards],
                                    "exposed": [str(c) for c in decision.exposed]}
            if decision.unseen:
                burn["unseen"] = decision.unseen
            return burn
        case CoupVoided():
            return {"event": "void_coup", "number": decision.number,
                    "reason": decision.reason.value}
        case ShoeEnded():
            return {"event": "shoe_end", "reason": decision.reason.value,
                    "talon": decision.talon, "burned": decision.burned,
                    "dealt": decision.dealt, "voided": decision.voided,
                    "total": decision.total}
        case Alarm():
            alarm: dict[str, Any] = {"event": "warning", "code": decision.code}
            if decision.card is not None:
                alarm["card"] = str(decision.card)
            alarm["message"] = decision.message
            return alarm
        case Settlement():
            return {"event": "settlement", "number": decision.number,
                    "lines": [line_json(line) for line in decision.lines]}
        case CoupRetracted():
            return {"event": "warning", "code": "coup_retracted", "number": decision.number,
                    "message": f"coup {decision.number} is re-decided: its last card changed"}
        case Rejected():
            return {"event": "rejected", "reason": decision.reason}
        case CardPlaced() | CardExposed() | CardVoided() | DealStopped() | Corrected() | \
                BetsChanged():
            return None
        case _:
            assert_never(decision)


def _coup(decision: CoupDecided) -> dict[str, Any]:
    return {
        "event": "coup",
        "number": decision.number,
        "noir": {"cards": [str(c) for c in decision.noir], "point": decision.noir_point},
        "rouge": {"cards": [str(c) for c in decision.rouge], "point": decision.rouge_point},
        "result": decision.result.value,
        "couleur": decision.couleur.value if decision.couleur else None,
        "calls": list(decision.calls),
        "calls_en": list(decision.calls_en),
        "pay": [c.value for c in decision.pay],
        "face_up": decision.face_up,
        "exposed": [str(c) for c in decision.exposed],
        "voided": [str(c) for c in decision.voided],
    }
