"""The journal's rows, the table's refusals and the alarms as the chef says them, in the
screen's language and the casino's local time.

The engine's and the devices' own words are English, and a device is named by its path: here
they become sentences in French, English or Italian, the device named by what it is (the shoe,
the camera). What cannot be put into words says so and points at the raw row, which keeps
everything.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable
from datetime import datetime, tzinfo
from decimal import Decimal
from typing import Any, Final, assert_never

from croupier.cards import Card, Rank, Suit
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
from journal.chef import Refusal, Refused
from journal.store import Verdict
from ui.i18n import Lang, action_name, chance_name, tr

WIDTH: Final = 72  # characters a line: the journal's column shows them whole at 1280 px
SUIT_SIGNS: Final = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


def card_text(card: Card) -> str:
    """`TD` → `10♦`: what is printed on the card."""
    return ("10" if card.rank is Rank.TEN else card.rank.value) + SUIT_SIGNS[card.suit]


def local_time(at: str, zone: tzinfo | None) -> str:
    """A journal's UTC stamp as the casino's clock shows it, with its zone: `21:04:07 CET`
    (`zone` None: this computer's zone)."""
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        return at
    if moment.tzinfo is None:
        return at  # not a journal's stamp: shown as it is rather than guessed at
    local = moment.astimezone(zone)
    return local.strftime("%H:%M:%S ") + (local.tzname() or local.strftime("%z"))


def _chance(name: object, lang: Lang) -> str:
    try:
        return chance_name(Chance(str(name)), lang).lower()
    except ValueError:
        return str(name)


def _card(name: str) -> str:
    try:
        return card_text(Card.parse(name))
    except CardError:
        return name


# -- devices ----------------------------------------------------------------------------

CAMERA_SOURCE: Final = "camera"  # drivers.camera's source name
TABLE_SOURCE: Final = "table"  # journal.live's, for a table that was down


def device_name(source: str, lang: Lang) -> str:
    """What a source is, never its path: a serial port, a socket or a pty is the shoe."""
    key = {CAMERA_SOURCE: "dev_camera", TABLE_SOURCE: "dev_table"}.get(source, "dev_shoe")
    return tr(key, lang)


_PATH = re.compile(r"(socket://\S+|rfc2217://\S+|/dev/\S+|/\S+/\S+|\bCOM\d+\b)")

_DeviceWords = Callable[[re.Match[str], Lang, tzinfo | None], str]
_DEVICE_TEXTS: Final[tuple[tuple[re.Pattern[str], _DeviceWords], ...]] = (
    (re.compile(r"cannot open it: "), lambda m, lang, zone: tr("dev_cannot_open", lang)),
    (re.compile(r"the (?:reader|camera) stopped: "), lambda m, lang, zone: tr("dev_stopped", lang)),
    (re.compile(r"lost (?P<count>\d+) message\(s\)"),
     lambda m, lang, zone: tr("dev_lost", lang, count=m["count"])),
    (re.compile(r"(?P<count>\d+) unreadable byte\(s\)"),
     lambda m, lang, zone: tr("dev_garbled", lang, count=m["count"])),
    (re.compile(r"the table was down from (?P<since>\S+) to (?P<until>\S+) \(UTC\)"),
     lambda m, lang, zone: tr("dev_down", lang, since=local_time(m["since"], zone),
                              until=local_time(m["until"], zone))),
    (re.compile(r"card (?P<was>\w+) on the layout changed into (?P<now>\w+)"),
     lambda m, lang, zone: tr("dev_layout_changed", lang, was=_card(m["was"]),
                              now=_card(m["now"]))),
    (re.compile(r"card (?P<card>\w+) was taken off the layout"),
     lambda m, lang, zone: tr("dev_layout_taken", lang, card=_card(m["card"]))),
    (re.compile(r"(?:the shoe's count|the shoe restarted its count|seq \d+ .*came behind"
                r"|the shoe's heartbeats)"),
     lambda m, lang, zone: tr("dev_count", lang)),
)


def device_text(source: str, text: str, lang: Lang, zone: tzinfo | None = None) -> str:
    """A device's alarm: the device named, what it said in the screen's language when it is
    one of the known alarms, else its own words quoted, paths left out (the raw row has
    them)."""
    for pattern, words in _DEVICE_TEXTS:
        if (found := pattern.match(text)) is not None:
            return tr("ev_device", lang, device=device_name(source, lang),
                      text=words(found, lang, zone))
    said = _PATH.sub("…", text)
    return tr("ev_device", lang, device=device_name(source, lang),
              text=tr("dev_says", lang, text=said))


def alarm_text(alarm: Alarm, lang: Lang, zone: tzinfo | None = None) -> str:
    """An engine's alarm in the screen's language."""
    source, _, said = alarm.message.partition(": ")
    match alarm.code:
        case "card_unread":
            what = (tr("al_unread_guess", lang, card=card_text(alarm.card)) if alarm.card
                    else tr("al_unread", lang))
            return tr("ev_device", lang, device=device_name(source, lang), text=what)
        case "device" | "baize_check":
            return device_text(source, said, lang, zone)
        case "seventh_copy":
            seen = re.search(r"seen (\d+) times", alarm.message)
            return tr("al_seventh", lang, card=card_text(alarm.card) if alarm.card else "?",
                      seen=seen[1] if seen else "?")
        case "talon_count":
            counts = re.search(r"holds (\d+) cards, not (\d+)", alarm.message)
            return tr("al_talon", lang, cards=counts[1] if counts else "?",
                      expected=counts[2] if counts else "?")
        case "second_cut_card":
            return tr("al_second_cut", lang)
    return tr("de_alarm", lang, text=tr("rf_other", lang))


# -- the table's refusals ---------------------------------------------------------------

_AMOUNT = r"(?P<amount>[\d.]+)"
_SEAT = r"(?P<seat>-?\d+)"
_ON = r"(?P<chance>rouge|noir|couleur|inverse)"
_REFUSALS: Final[tuple[tuple[str, str], ...]] = (
    (r"bets are closed: they open with faites vos jeux", "rf_bets_closed"),
    (r"bets are closed \(rien ne va plus\)", "rf_bets_closed_now"),
    (rf"seat {_SEAT} does not exist", "rf_no_seat"),
    (rf"stake of {_AMOUNT} must be more than 0", "rf_zero"),
    (r"the .+ rulebook sells no insurance", "rf_no_insurance"),
    (rf"seat {_SEAT}'s stake on {_ON} is insured: ", "rf_insured_mismatch"),
    (rf"seat {_SEAT}'s stake on {_ON} is not insured: ", "rf_uninsured_mismatch"),
    (rf"stake of {_AMOUNT}(?: with [\d.]+ already there)? below the minimum (?P<limit>[\d.]+)",
     "rf_below_min"),
    (rf"stake of {_AMOUNT}(?: with [\d.]+ already there)? above the maximum (?P<limit>[\d.]+)",
     "rf_above_max"),
    (rf"seat {_SEAT} already has the maximum (?P<limit>[\d.]+) on {_ON}", "rf_at_max"),
    (rf"seat {_SEAT}'s stake of [\d.]+ on {_ON} is above the maximum (?P<limit>[\d.]+): "
     r"(?P<plays>[\d.]+) plays, the excess of (?P<excess>[\d.]+) goes back", "rf_excess"),
    (rf"insurance needs a stake of at least {_AMOUNT}", "rf_insure_min"),
    (rf".+ insures stakes in whole units of (?P<unit>[\d.]+), not {_AMOUNT}",
     "rf_insure_units"),
    (rf".+ insures whole units of (?P<unit>[\d.]+): {_AMOUNT} holds none", "rf_insure_units"),
    (rf"seat {_SEAT}'s stake on {_ON} is in prison", "rf_withdraw_prison"),
    (rf"seat {_SEAT} has no stake on {_ON}", "rf_no_stake"),
    (r"no prison choice is open", "rf_no_choice"),
    (r"rien ne va plus: prison choices are made before it", "rf_choice_late"),
    (rf"seat {_SEAT} has no prisoner on {_ON}", "rf_no_prisoner"),
    (r"the .+ rulebook does not allow moving a prisoner", "rf_no_move"),
    (r"a prisoner moves to another chance", "rf_move_where"),
    (r"the session has ended", "rf_session_ended"),
    (r"the table's set-up was refused", "rf_setup"),
    (r".*nothing is accepted until a valid table set-up", "rf_setup"),
    (r"the table's settings change only|the rulebook changes only|the .+ rulebook changes "
     r"the limits only|seat \d+'s stake of [\d.]+ on \w+ is above the new maximum",
     "rf_settings_late"),
    (r"bets are already closed", "rf_already_closed"),
    (r"check the rows against the baize first", "rf_check_baize"),
    (r"bets can be reopened only after", "rf_reopen"),
    (r"no alarm asks for the baize to be checked", "rf_no_check"),
    (r"the last card already is (?P<card>\w+)", "rf_same_card"),
    (r"no card to correct", "rf_no_card"),
    (r"only the last card can be changed", "rf_only_last"),
    (r"card (?P<card>\w+) after the shoe was closed", "rf_card_closed"),
    (r"cut card after the shoe was closed", "rf_cut_closed"),
    (r"a card burned unseen belongs to the burn", "rf_burn_over"),
    (r"no card to void", "rf_no_void_card"),
    (r"no coup is being dealt", "rf_no_coup"),
    (r"the shoe is already closed", "rf_shoe_closed"),
)
_REFUSAL_PATTERNS: Final = tuple((re.compile(p), key) for p, key in _REFUSALS)


def refusal_key(reason: str) -> str:
    """The words for the engine's reason; `rf_other` for one this screen does not know."""
    return next((key for pattern, key in _REFUSAL_PATTERNS if pattern.match(reason)),
                "rf_other")


def refusal_text(reason: str, lang: Lang) -> str:
    """A refusal of the table (a `Rejected` reason) in the screen's language."""
    for pattern, key in _REFUSAL_PATTERNS:
        if (found := pattern.match(reason)) is not None:
            values: dict[str, object] = dict(found.groupdict())
            if "chance" in values:
                values["chance"] = _chance(values["chance"], lang)
            if "card" in values:
                values["card"] = _card(str(values["card"]))
            return tr(key, lang, **values)
    return tr("rf_other", lang)


_CHEF_REFUSALS: Final = {
    Refusal.ROLE: "refusal_role", Refusal.NO_PIN: "refusal_no_pin",
    Refusal.SETUP_ONLY: "refusal_setup_only", Refusal.WRONG_PIN: "refusal_wrong_pin",
    Refusal.LOCKED: "refusal_locked", Refusal.NO_REASON: "refusal_no_reason",
}
_AUTH_RESULTS: Final = {
    "role": Refusal.ROLE, "no_pin": Refusal.NO_PIN, "setup_only": Refusal.SETUP_ONLY,
    "wrong_pin": Refusal.WRONG_PIN, "locked": Refusal.LOCKED, "no_reason": Refusal.NO_REASON,
}


def chef_refusal_text(refused: Refused, lang: Lang) -> str:
    text = tr(_CHEF_REFUSALS[refused.why], lang)
    if refused.retry_in > 0:
        text += " — " + tr("locked_for", lang, seconds=f"{refused.retry_in:.0f}")
    return text


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
        return tr("what_correct_card", lang, was=_card(found["was"]), now=_card(found["now"]))
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
            winner = tr("wins", lang, chance=_chance(coup.result.value, lang))
            couleur = _chance(Chance.COULEUR.value, lang)
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
    refusal = _AUTH_RESULTS.get(str(result))
    why = tr(_CHEF_REFUSALS[refusal], lang) if refusal else tr("rf_other", lang)
    return tr("auth_refused", lang, action=what, who=who, why=why)


_VERDICTS: Final = (
    ("its contents were changed", "vr_changed"), ("its fields are damaged", "vr_changed"),
    ("does not follow the row before it", "vr_moved"), ("row ", "vr_missing"),
    ("rows ", "vr_end"), ("the journal's head record", "vr_end"),
    ("the recorded head", "vr_end"),
)


def verdict_text(verdict: Verdict, lang: Lang) -> str:
    """The first row of a journal that does not hold, and why."""
    key = next((k for start, k in _VERDICTS if verdict.reason.startswith(start)), "vr_other")
    return tr("broken_at", lang, row=verdict.bad_row, why=tr(key, lang))


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


_TESTS: Final = {"row points 31-40 (chi-square, 9 df)": "st_points",
                 "rouge against noir": "st_rouge_noir",
                 "couleur against inverse": "st_couleur_inverse",
                 "après": "st_apres", "refait": "st_refait"}
_COUNTED: Final = re.compile(r"(?:cards: )?(?P<count>\d+) of (?P<total>\d+)")


def statistic_text(text: str, lang: Lang) -> str:
    """A test of `journal.stats` by its name, or a count ("16 of 27"), in the screen's
    language; anything else as it is (numbers)."""
    if text in _TESTS:
        return tr(_TESTS[text], lang)
    if found := _COUNTED.fullmatch(text):
        key = "st_cards" if text.startswith("cards") else "st_of"
        return tr(key, lang, count=found["count"], total=found["total"])
    return text


def scope_text(scope: str, lang: Lang) -> str:
    """`table.db shoe 3` → `Sabot 3`; a whole journal's scope → `Journal`."""
    head, _, number = scope.rpartition(" shoe ")
    return f"{tr('shoe', lang)} {number}" if head and number.isdigit() else tr("journal", lang)
