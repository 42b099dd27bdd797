"""The plan's and the layout's lines in the screen's language."""

from __future__ import annotations

from croupier.decisions import Action
from croupier.money import money_text
from croupier.stakes import Stake
from ui.i18n import Lang, chance_name, tr

# A line's colour by what the croupier does: red for chips taken, green for chips given.
ACTION_COLOURS = {Action.COLLECT: "#ff9b9b", Action.PREMIUM: "#ff9b9b", Action.PAY: "#7CFC9A",
                  Action.FREE: "#7CFC9A", Action.SHARE: "#7CFC9A", Action.RETURN: "#7CFC9A"}
PLAIN = "#f4f1e6"


def stake_text(stake: Stake, lang: Lang) -> str:
    text = f"{tr('seat', lang)} {stake.seat} · {chance_name(stake.chance, lang)} · " \
           f"{money_text(stake.amount)}"
    if stake.insured:
        text += f" ({tr('insured', lang)} {money_text(stake.insured)})"
    if stake.in_prison:
        text += f" — {tr('prison', lang)} {tr('level', lang)} {stake.level}"
    return text
