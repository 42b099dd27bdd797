"""The refusals in the screen's language: the table's (the engine's `Rejected` reasons,
matched by pattern) and the chef's desk's (a PIN, a role, a lock)."""

from __future__ import annotations

import re
from typing import Final

from journal.chef import Refusal, Refused
from ui.i18n import Lang, tr
from ui.notation import card_word, chance_word

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
                values["chance"] = chance_word(values["chance"], lang)
            if "card" in values:
                values["card"] = card_word(str(values["card"]))
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


def auth_refusal_text(result: object, lang: Lang) -> str:
    """Why an `auth` row of the journal says the desk refused, from its `result` field."""
    refusal = _AUTH_RESULTS.get(str(result))
    return tr(_CHEF_REFUSALS[refusal], lang) if refusal else tr("rf_other", lang)
