"""What the tailleur announces, in French, with the English beside it (RULES.md §4)."""

from __future__ import annotations

from typing import Final

from croupier.decisions import Chance, Result

_FRENCH_POINTS: Final = (
    "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "quarante",
)
_ENGLISH_POINTS: Final = (
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "forty",
)

# The result is always said in terms of rouge and couleur (Venezia, Britannica).
_FRENCH_RESULTS: Final = {
    (Result.ROUGE, Chance.COULEUR): "rouge gagne et couleur",
    (Result.ROUGE, Chance.INVERSE): "rouge gagne, la couleur perd",
    (Result.NOIR, Chance.COULEUR): "rouge perd, la couleur gagne",
    (Result.NOIR, Chance.INVERSE): "rouge perd et couleur",
}
_ENGLISH_RESULTS: Final = {
    (Result.ROUGE, Chance.COULEUR): "red and colour",
    (Result.ROUGE, Chance.INVERSE): "red and inverse",
    (Result.NOIR, Chance.COULEUR): "black and colour",
    (Result.NOIR, Chance.INVERSE): "black and inverse",
}


def point_call(point: int, *, english: bool = False) -> str:
    """`34` → `quatre`: "trente" is omitted, 40 is `quarante`."""
    if not 31 <= point <= 40:
        raise ValueError(f"a row's point is 31 to 40, not {point}")
    return (_ENGLISH_POINTS if english else _FRENCH_POINTS)[point - 31]


def coup_calls(
    noir_point: int, rouge_point: int, result: Result, couleur: Chance | None
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The French calls in order, and their English: noir point, rouge point, result."""
    french = [point_call(noir_point), point_call(rouge_point)]
    english = [point_call(noir_point, english=True), point_call(rouge_point, english=True)]
    if couleur is None:
        french[1] += " après"
        english[1] += " tie"
    else:
        french.append(_FRENCH_RESULTS[result, couleur])
        english.append(_ENGLISH_RESULTS[result, couleur])
    return tuple(french), tuple(english)
