"""The journal's verification and the statistics against theory in the screen's language."""

from __future__ import annotations

import re
from typing import Final

from journal.store import Verdict
from ui.i18n import Lang, tr

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
