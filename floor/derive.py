"""What a table's rows tell the floor: coups, cards, settlements, alarms and corrections.

A pure fold over verified rows: it takes the table's state as the floor last left it (shoe,
coup, the rows being dealt) and gives back the records to insert and the new state. A row it
cannot read is not dropped silently: it becomes a floor alarm, and the raw row is kept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from journal.store import Row

# Only these kinds of row tell the floor anything beyond themselves.
TOLD = frozenset({"decisions", "auth"})
# One decoder for every row: `json.loads(..., parse_float=...)` would build one per call.
_JSON = json.JSONDecoder(parse_float=Decimal)
# Refused PINs and locks are alarms for surveillance; granted attempts are not.
_AUTH_ALARMS = frozenset({"wrong_pin", "locked", "role", "no_pin"})


@dataclass(frozen=True, slots=True)
class TableState:
    shoe: int = 1
    coup: int = 0
    dealing: dict[str, Any] = field(default_factory=dict)
    last_call: str | None = None
    last_card_at: datetime | None = None


@dataclass(slots=True)
class Derived:
    """Rows for each derived table, as tuples in the column order of `arrival`."""

    coups: list[tuple[Any, ...]] = field(default_factory=list)
    cards: list[tuple[Any, ...]] = field(default_factory=list)
    settlements: list[tuple[Any, ...]] = field(default_factory=list)
    alarms: list[tuple[Any, ...]] = field(default_factory=list)
    corrections: list[tuple[Any, ...]] = field(default_factory=list)
    retracted: list[tuple[int, int]] = field(default_factory=list)  # (shoe, coup number)


def derive(table: str, rows: list[Row], state: TableState) -> tuple[Derived, TableState]:
    out = Derived()
    lists = (out.coups, out.cards, out.settlements, out.alarms, out.corrections, out.retracted)
    for row in rows:
        if row.kind not in TOLD:
            continue
        sizes = [len(found) for found in lists]
        try:
            state = _row(table, row, state, out, sizes)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            for found, size in zip(lists, sizes, strict=True):
                del found[size:]  # what the row began to give is taken back
            at = parse_time(row.at) or datetime.now(UTC)
            out.alarms.append((table, row.seq, at, "floor", "unreadable_row",
                               f"row {row.seq} ({row.kind}) is stored but not understood: "
                               f"{type(err).__name__}: {err}"))
    return out, state


def parse_time(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _row(
    table: str, row: Row, state: TableState, out: Derived, sizes: list[int]
) -> TableState:
    at = datetime.fromisoformat(row.at)
    body = _JSON.decode(row.body)
    # A device's alarm or an unread card is answered by the table's own warning, in the
    # decisions that follow its input: that warning is the alarm, once.
    if row.kind == "decisions":
        for decision in body["decisions"]:
            state = _decision(table, row.seq, at, decision, state, out=out, sizes=sizes)
    elif row.kind == "auth" and body["result"] in _AUTH_ALARMS:
        out.alarms.append((table, row.seq, at, "table", f"auth_{body['result']}",
                           f"{body['action']} by {body.get('who') or 'someone'} refused: "
                           f"{body['result'].replace('_', ' ')}"))
    return state


def _decision(
    table: str, seq: int, at: datetime, d: dict[str, Any], state: TableState, *, out: Derived,
    sizes: list[int],
) -> TableState:
    """`sizes`: the lengths of `out`'s lists before this row, so that each derived record's
    index counts within its row, whatever the batch."""
    match d["event"]:
        case "card":
            number, row_name = int(d["number"]), str(d["row"])
            dealing: dict[str, Any] = state.dealing if state.dealing.get("number") == number \
                else {"number": number, "noir": [], "rouge": [], "noir_point": 0,
                      "rouge_point": 0}
            dealing = {**dealing, row_name: [*dealing[row_name], str(d["card"])],
                       f"{row_name}_point": int(d["point"])}
            out.cards.append((table, seq, len(out.cards) - sizes[1], state.shoe, number,
                              row_name, str(d["card"]), int(d["point"]), bool(d["face_up"]), at))
            # A card is most rows of a day: the state is made directly, not `replace`d.
            return TableState(state.shoe, number, dealing, state.last_call, at)
        case "coup":
            out.coups.append((table, seq, state.shoe, int(d["number"]), at, str(d["result"]),
                              d.get("couleur"), int(d["noir"]["point"]),
                              int(d["rouge"]["point"]), [str(c) for c in d["noir"]["cards"]],
                              [str(c) for c in d["rouge"]["cards"]],
                              [str(c) for c in d["calls"]]))
            return replace(state, coup=int(d["number"]), last_call=", ".join(d["calls"]))
        case "settlement":
            for line in d["lines"]:
                out.settlements.append((
                    table, seq, len(out.settlements) - sizes[2], state.shoe, d.get("number"), at,
                    line.get("seat"), line.get("chance"), _amount(line.get("stake")),
                    str(line["action"]), _amount(line.get("amount")), line.get("level")))
        case "warning":
            if d["code"] == "coup_retracted":
                out.retracted.append((state.shoe, int(d["number"])))
            out.alarms.append((table, seq, at, "table", str(d["code"]), str(d["message"])))
        case "correction":
            out.corrections.append((table, seq, len(out.corrections) - sizes[4], at,
                                    str(d["action"]), str(d["who"]), str(d["why"]),
                                    str(d["detail"])))
        case "shoe_end":
            return replace(state, shoe=state.shoe + 1, coup=0, dealing={})
    return state


def _amount(value: Any) -> Decimal | None:
    return None if value is None else Decimal(str(value))
