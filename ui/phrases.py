"""The journal's rows as the chef says them: the table's inputs, its decisions, the
corrections, in the screen's language and the casino's local time.

The engine's own words are English: here they become sentences in French, English or Italian,
made of the refusals' (ui.refusals), the alarms' (ui.device_alarms) and the cards' and clock's
(ui.notation) words. What cannot be put into words says so and points at the raw row, which
keeps everything.
"""

from __future__ import annotations

import json
import re
import textwrap
from datetime import tzinfo
from decimal import Decimal
from typing import Any, Final, assert_never

from croupier.decision_records import decision_from_record
from croupier.decisions import (
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
    Rejected,
    Result,
    Settlement,
    SettlementLine,
    ShoeEnded,
)
from croupier.errors import CardError, FixtureError
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
    VoidCard,
    VoidCoup,
    Withdraw,
)
from croupier.money import money_text
from croupier.records import event_from_record
from croupier.table import Event
from ui.device_alarms import alarm_text, device_name, device_text
from ui.i18n import Lang, action_name, chance_name, tr
from ui.notation import card_text, card_word, chance_word
from ui.refusals import auth_refusal_text, refusal_text

WIDTH: Final = 72  # characters a line: the journal's column shows them whole at 1280 px


# -- corrections ------------------------------------------------------------------------

_CORRECTED: Final = re.compile(r"(?P<was>\w+) read as (?P<now>\w+)")
_VOIDED: Final = re.compile(r"coup (?P<number>\d+) voided")


def correction_what(corrected: Corrected, lang: Lang) -> str:
    """What a correction changed, in the screen's language."""
    text = detail_text(corrected.detail, lang)
    return chef_action(corrected.action, lang) if text is None else text


def detail_text(detail: str, lang: Lang) -> str | None:
    """The engine's account of a correction done (`8S read as KC`, `coup 3 voided`) in the
    screen's language; None for one this screen does not know."""
    if found := _CORRECTED.fullmatch(detail):
        return tr("what_correct_card", lang, was=card_word(found["was"]),
                  now=card_word(found["now"]))
    if found := _VOIDED.fullmatch(detail):
        return tr("what_coup_voided", lang, number=found["number"])
    words = {"shoe ended": "what_shoe_ended", "bets reopened": "what_bets_reopened"}
    return tr(words[detail], lang) if detail in words else None


_CHEF_ACTIONS: Final = {"void_coup": "what_void_coup", "end_shoe": "what_end_shoe",
                        "reopen_bets": "what_reopen_bets", "correct_card": "what_correct_last",
                        "set_pin": "action_set_pin"}


def chef_action(action: str, lang: Lang) -> str:
    """A correction or a PIN change by its name; one unknown here by the name it has."""
    return tr(_CHEF_ACTIONS[action], lang) if action in _CHEF_ACTIONS else action


# -- events and decisions ---------------------------------------------------------------

def event_text(event: Event, lang: Lang, zone: tzinfo | None = None) -> str:
    """An input of the table: a card, a stake, a choice, a correction asked for."""
    match event:
        case CardDrawn(card=card, face_up=face_up):
            return tr("ev_card_face_up" if face_up else "ev_card", lang, card=card_text(card))
        case CardDropped(card=card):
            return tr("ev_card_dropped", lang, card=card_text(card))
        case BurnUnseen():
            return tr("ev_burn_unseen", lang)
        case CutCard():
            return tr("ev_cut", lang)
        case VoidCard():
            return tr("ev_void_card", lang)
        case ShoeEmpty():
            return tr("ev_shoe_empty", lang)
        case NewShoe():
            return tr("ev_new_shoe", lang)
        case CardUnread(source=source, guess=guess):
            device = device_name(source, lang)
            return (tr("ev_unread_guess", lang, device=device, card=card_text(guess)) if guess
                    else tr("ev_unread", lang, device=device))
        case DeviceAlarm(source=source, text=text):
            return device_text(source, text, lang, zone)
        case VoidCoup() | EndShoe() | ReopenBets():
            what = {VoidCoup: "what_void_coup", EndShoe: "what_end_shoe",
                    ReopenBets: "what_reopen_bets"}[type(event)]
            return tr("ev_chef", lang, what=tr(what, lang), who=event.who, why=event.why)
        case CorrectCard(card=card, who=who, why=why):
            return tr("ev_chef", lang, what=tr("ev_correct_card", lang, card=card_text(card)),
                      who=who, why=why)
        case SetTable(rulebook=rulebook, minimum=minimum, maximum=maximum):
            parts = []
            if rulebook is not None:
                parts.append(tr("ev_table_rules", lang, rules=rulebook.name))
            if minimum is not None or maximum is not None:
                parts.append(tr("ev_table", lang, minimum=_money(minimum),
                                maximum=_money(maximum)))
            return "\n".join(parts) or tr("rf_setup", lang)
        case PlaceStake(seat=seat, chance=chance, amount=amount, insured=insured):
            return tr("ev_stake_insured" if insured else "ev_stake", lang, seat=seat,
                      amount=money_text(amount), chance=chance_name(chance, lang).lower())
        case Withdraw(seat=seat, chance=chance):
            return tr("ev_withdraw", lang, seat=seat, chance=chance_name(chance, lang).lower())
        case ChoosePrison(seat=seat, chance=chance, choice=choice, to=to):
            key = {PrisonChoice.SHARE: "ev_prison_share", PrisonChoice.KEEP: "ev_prison_keep",
                   PrisonChoice.MOVE: "ev_prison_move"}[choice]
            return tr(key, lang, seat=seat, chance=chance_name(chance, lang).lower(),
                      to=chance_name(to, lang).lower() if to else "?")
        case EndSession():
            return tr("ev_end_session", lang)
        case CloseBets():
            return tr("ev_close_bets", lang)
        case BaizeChecked(who=who):
            return tr("ev_baize_checked", lang, who=who)
        case _:
            assert_never(event)


def _money(amount: Decimal | None) -> str:
    return "—" if amount is None else money_text(amount)


def coup_outcome(coup: CoupDecided, lang: Lang) -> str:
    """`noir gagne, couleur perd`; a tie or a refait says where the stakes go."""
    match coup.result:
        case Result.APRES:
            return tr("apres_outcome", lang)
        case Result.REFAIT:
            return tr("refait_outcome", lang)
        case Result.NOIR | Result.ROUGE:
            winner = tr("wins", lang, chance=chance_word(coup.result.value, lang))
            couleur = chance_word(Chance.COULEUR.value, lang)
            colour = tr("wins" if coup.couleur is Chance.COULEUR else "loses", lang,
                        chance=couleur)
            return f"{winner}, {colour}"
        case _:
            assert_never(coup.result)


def call_gloss(coup: CoupDecided | None, noir_point: int, lang: Lang) -> str:
    """What goes beneath the tailleur's French calls: the same calls in the screen's
    language (nothing in French: the calls are French already). `noir_point`: the noir
    row's point once complete (above 30), before the coup is decided."""
    if lang is Lang.FR:
        return ""
    if coup is None:
        return tr(f"point_{noir_point}", lang) if 31 <= noir_point <= 40 else ""
    said = [tr(f"point_{coup.noir_point}", lang), tr(f"point_{coup.rouge_point}", lang)]
    if coup.couleur is None:
        tie = "gloss_refait" if coup.result is Result.REFAIT else "gloss_tie"
        said[1] = tr(tie, lang, point=said[1])
    else:
        said.append(tr(f"gloss_{coup.result.value}_{coup.couleur.value}", lang))
    return " · ".join(said)


def settlement_line_text(line: SettlementLine, lang: Lang) -> str:
    """One stake's fate: `Payer · place 5 · noir 100 → 100`."""
    text = (f"{action_name(line.action, lang)} · {tr('seat', lang).lower()} {line.seat} · "
            f"{chance_name(line.chance, lang).lower()} {money_text(line.stake)}")
    if line.amount is not None and line.amount != line.stake:
        text += f" → {money_text(line.amount)}"
    if line.level is not None:
        text += f" ({tr('level', lang)} {line.level})"
    if line.to is not None:
        text += f" → {chance_name(line.to, lang).lower()}"
    return text


def decision_lines(decision: Decision, lang: Lang, zone: tzinfo | None = None) -> list[str]:
    """What the table decided, a line each (a payout: its heading, then a line a stake)."""
    match decision:
        case Burned(cards=cards):
            return [tr("de_burn", lang, cards=" ".join(card_text(c) for c in cards))]
        case CardPlaced(row=row, card=card, point=point):
            return [tr("de_card", lang, row=chance_name(Chance(row.value), lang),
                       card=card_text(card), point=point)]
        case CardExposed(card=card):
            return [tr("de_exposed", lang, card=card_text(card))]
        case CardVoided(card=card):
            return [tr("de_voided_card", lang, card=card_text(card))]
        case CoupDecided():
            return [tr("de_coup", lang, number=decision.number, noir=decision.noir_point,
                       rouge=decision.rouge_point, outcome=coup_outcome(decision, lang))]
        case CoupVoided(number=number, reason=reason):
            return [tr("de_coup_void", lang, number=number,
                       reason=tr("reason_" + reason.value, lang))]
        case DealStopped(number=number, reason=reason):
            return [tr("de_deal_stopped", lang, number=number,
                       reason=tr("reason_" + reason.value, lang))]
        case ShoeEnded():
            return [tr("de_shoe_end", lang, reason=tr("reason_" + decision.reason.value, lang),
                       burned=decision.burned, dealt=decision.dealt, voided=decision.voided,
                       talon=decision.talon)]
        case Alarm():
            return [tr("de_alarm", lang, text=alarm_text(decision, lang, zone))]
        case Rejected(reason=reason):
            return [tr("de_rejected", lang, text=refusal_text(reason, lang))]
        case Settlement(number=number, lines=()):
            return [f"{tr('de_settlement', lang, number=number)} {tr('nothing_to_pay', lang)}"]
        case Settlement(number=number, lines=lines):
            return [tr("de_settlement", lang, number=number),
                    *("  " + settlement_line_text(line, lang) for line in lines)]
        case Corrected(action="baize_checked", who=who):
            return [tr("de_baize", lang, who=who)]
        case Corrected(who=who, why=why):
            return [tr("de_correction", lang, who=who, why=why or "—",
                       what=correction_what(decision, lang))]
        case CoupRetracted(number=number):
            return [tr("de_retracted", lang, number=number)]
        case BetsChanged(open=is_open):
            return [tr("de_bets_open" if is_open else "de_bets_closed", lang)]
        case _:
            assert_never(decision)


# -- journal rows -----------------------------------------------------------------------

def row_text(kind: str, body: str, lang: Lang, zone: tzinfo | None = None) -> str:
    """A journal row as the chef reads it, in lines of at most `WIDTH` characters: never cut
    off, whatever the column's width."""
    return row_words(kind, body, (lang,), zone)[0]


def row_words(kind: str, body: str, langs: tuple[Lang, ...],
              zone: tzinfo | None = None) -> tuple[str, ...]:
    """`row_text` in each of `langs`, the row read once."""
    try:
        data = json.loads(body, parse_float=Decimal)
    except (ValueError, ArithmeticError):
        data = None
    return tuple(_wrapped(_lines(kind, data, lang, zone), lang) for lang in langs)


def _lines(kind: str, data: object, lang: Lang, zone: tzinfo | None) -> list[str] | None:
    if not isinstance(data, dict):
        return None
    try:
        return _row_lines(kind, data, lang, zone)
    except (ValueError, TypeError, KeyError, ArithmeticError, FixtureError, CardError):
        return None


def _wrapped(lines: list[str] | None, lang: Lang) -> str:
    if lines is None:
        lines = [tr("unreadable_row", lang)]
    out: list[str] = []
    for line in lines or [tr("nothing_happened", lang)]:
        if len(line) <= WIDTH:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        out += textwrap.wrap(line, WIDTH, subsequent_indent=indent + "  ") or [line]
    return "\n".join(out)


def _row_lines(kind: str, data: dict[str, Any], lang: Lang,
               zone: tzinfo | None) -> list[str] | None:
    match kind:
        case "input":
            return [event_text(event_from_record(data), lang, zone)]
        case "decisions":
            found = data["decisions"]
            return [line for record in found
                    for line in decision_lines(decision_from_record(record), lang, zone)]
        case "auth":
            return [_auth_text(data, lang)]
        case "correction":  # one decision of a decisions row (ui.audit_data)
            return decision_lines(decision_from_record(data), lang, zone)
        case "opened":
            rulebook = data.get("rulebook")
            name = rulebook.get("title") or rulebook.get("name") if isinstance(rulebook, dict) \
                else None
            return [tr("row_opened", lang, rules=name or "?")]
        case "rejected":
            return [tr("row_script_refused", lang, line=data["line"],
                       reason=refusal_text(str(data["reason"]), lang))]
        case "override":
            return [tr("row_override", lang, row=data["bad_row"], who=data.get("who", "?"),
                       why=data.get("why", "?"))]
        case "log":
            return [tr("row_log", lang)]
    return None


def _auth_text(data: dict[str, Any], lang: Lang) -> str:
    what = chef_action(str(data.get("action", "?")), lang)
    who = str(data.get("who") or "—")
    result = data.get("result")
    if result == "granted":
        return tr("auth_pin_set", lang) if data.get("pin_hash") else tr(
            "auth_granted", lang, action=what, who=who)
    return tr("auth_refused", lang, action=what, who=who, why=auth_refusal_text(result, lang))


def kind_name(kind: str, lang: Lang) -> str:
    key = "kind_" + kind
    text = tr(key, lang)
    return kind if text == key else text


_FAILURES: Final = (("cannot open the journal", "fail_open"),
                    ("cannot read the journal", "fail_read"),
                    ("the table stopped", "fail_stopped"))


def failure_text(message: str, lang: Lang) -> str:
    """The table's own failure (`TableBridge.failed`) in the screen's language; its details
    (paths, errors) are for the terminal."""
    return tr(next((key for start, key in _FAILURES if message.startswith(start)),
                   "fail_other"), lang)
