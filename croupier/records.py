"""Every event and decision as a plain JSON-able record, and events back from records.

This is what the journal stores: the session-script vocabulary of docs/FORMATS.md where it
has a word, and the same style for the rest. Decimal amounts stay `Decimal` here; the
writer turns them into exact JSON numbers (`croupier.jsonout.dumps`).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from croupier.cards import Card
from croupier.decisions import (
    Chance,
)
from croupier.errors import CardError, FixtureError, RulebookError
from croupier.events import (
    BaizeChecked,
    BurnUnseen,
    CardDrawn,
    CardDropped,
    CardUnread,
    ChoosePrison,
    CloseBets,
    CorrectCard,
    CutCard,
    DeviceAlarm,
    EndSession,
    EndShoe,
    NewShoe,
    PlaceStake,
    PrisonChoice,
    ReopenBets,
    SetTable,
    ShoeEmpty,
    ShoeEvent,
    TableEvent,
    VoidCard,
    VoidCoup,
    Withdraw,
    not_an_event,
)
from croupier.rulebook import rulebook_data, rulebook_from_data

_BARE: dict[type, str] = {
    BurnUnseen: "burn_unseen", CutCard: "cut", VoidCard: "void_card", NewShoe: "new_shoe",
    ShoeEmpty: "shoe_empty", EndSession: "end_session", CloseBets: "close_bets",
}
_BARE_BY_NAME: dict[str, Any] = {name: kind for kind, name in _BARE.items()}
_CHEF: dict[type, str] = {VoidCoup: "void_coup", EndShoe: "end_shoe", ReopenBets: "reopen_bets"}
_CHEF_BY_NAME: dict[str, type[VoidCoup | EndShoe | ReopenBets]] = {
    name: kind for kind, name in _CHEF.items()}


def event_record(event: ShoeEvent | TableEvent) -> dict[str, Any]:
    """The record of an input event."""
    match event:
        case CardDrawn() | CardDropped():
            name = "card" if type(event) is CardDrawn else "card_dropped"
            record: dict[str, Any] = {"type": name, "card": str(event.card)}
            if event.face_up:
                record["face_up"] = True
            return record
        case (BurnUnseen() | CutCard() | VoidCard() | NewShoe() | ShoeEmpty() | EndSession()
              | CloseBets()):
            return {"type": _BARE[type(event)]}
        case SetTable():
            return _table_record(event)
        case PlaceStake():
            return {"type": "stake", "seat": event.seat, "chance": event.chance.value,
                    "amount": event.amount, "insured": event.insured}
        case Withdraw():
            return {"type": "withdraw", "seat": event.seat, "chance": event.chance.value}
        case ChoosePrison():
            record = {"type": "prison", "seat": event.seat, "chance": event.chance.value,
                      "choice": event.choice.value}
            if event.to is not None:
                record["to"] = event.to.value
            return record
        case CardUnread():
            return {"type": "card_unread", "source": event.source,
                    "guess": str(event.guess) if event.guess else None,
                    "confidence": str(event.confidence)}
        case DeviceAlarm():
            record = {"type": "device_alarm", "source": event.source, "text": event.text}
            if event.check:
                record["check"] = True
            return record
        case BaizeChecked():
            return {"type": "baize_checked", "who": event.who}
        case VoidCoup() | EndShoe() | ReopenBets():
            return {"type": _CHEF[type(event)], "who": event.who, "why": event.why}
        case CorrectCard():
            return {"type": "correct_card", "card": str(event.card), "who": event.who,
                    "why": event.why}
        case _:
            raise TypeError(not_an_event(event))


def _table_record(event: SetTable) -> dict[str, Any]:
    record: dict[str, Any] = {"type": "table"}
    if event.rulebook is not None:
        record["rulebook"] = rulebook_data(event.rulebook)
    if event.minimum is not None:
        record["minimum"] = event.minimum
    if event.maximum is not None:
        record["maximum"] = event.maximum
    if event.unreadable is not None:
        record["unreadable"] = event.unreadable
    return record


def event_from_record(record: dict[str, Any]) -> ShoeEvent | TableEvent:
    """The event a record stands for; `FixtureError` names what is wrong with a bad one."""
    try:
        return _event(record)
    except (KeyError, TypeError, ValueError, CardError, RulebookError) as err:
        if isinstance(err, FixtureError):
            raise
        raise FixtureError(f"not an event record ({err}): {record!r:.120}") from None


def _event(r: dict[str, Any]) -> ShoeEvent | TableEvent:
    kind = r["type"]
    if kind in _BARE_BY_NAME:
        return _BARE_BY_NAME[kind]()  # type: ignore[no-any-return]
    if kind in ("card", "card_dropped"):
        drawn = CardDrawn if kind == "card" else CardDropped
        return drawn(Card.parse(r["card"]), bool(r.get("face_up", False)))
    if kind == "table":
        rulebook = rulebook_from_data(r["rulebook"], "journal") if "rulebook" in r else None
        unreadable = str(r["unreadable"]) if "unreadable" in r else None
        return SetTable(rulebook, _amount(r.get("minimum")), _amount(r.get("maximum")),
                        unreadable)
    if kind == "stake":
        return PlaceStake(int(r["seat"]), Chance(r["chance"]), Decimal(r["amount"]),
                          bool(r["insured"]))
    if kind == "withdraw":
        return Withdraw(int(r["seat"]), Chance(r["chance"]))
    if kind == "prison":
        to = Chance(r["to"]) if r.get("to") else None
        return ChoosePrison(int(r["seat"]), Chance(r["chance"]), PrisonChoice(r["choice"]), to)
    if kind == "card_unread":
        guess = Card.parse(r["guess"]) if r.get("guess") else None
        return CardUnread(str(r["source"]), guess, float(r["confidence"]))
    if kind == "device_alarm":
        return DeviceAlarm(str(r["source"]), str(r["text"]), r.get("check") is True)
    if kind == "baize_checked":
        return BaizeChecked(str(r["who"]))
    if kind in _CHEF_BY_NAME:
        return _CHEF_BY_NAME[kind](str(r["who"]), str(r["why"]))
    if kind == "correct_card":
        return CorrectCard(Card.parse(r["card"]), str(r["who"]), str(r["why"]))
    raise ValueError(f"unknown type {kind!r}")


def _amount(value: Any) -> Decimal | None:
    return None if value is None else Decimal(value)
