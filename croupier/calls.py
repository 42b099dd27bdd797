"""What the tailleur announces, in French, with the English beside it (docs/RULES.md §4).

The French words are the rulebook's (`calls`): a casino may announce differently.
"""

from __future__ import annotations

from typing import Any, Final

from croupier.decisions import Chance, Result
from croupier.value import Value

_ENGLISH_POINTS: Final = (
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "forty",
)
_RESULT_KEYS: Final = {
    "rouge_couleur": (Result.ROUGE, Chance.COULEUR),
    "rouge_inverse": (Result.ROUGE, Chance.INVERSE),
    "noir_couleur": (Result.NOIR, Chance.COULEUR),
    "noir_inverse": (Result.NOIR, Chance.INVERSE),
}
_ENGLISH_RESULTS: Final = {
    (Result.ROUGE, Chance.COULEUR): "red and colour",
    (Result.ROUGE, Chance.INVERSE): "red and inverse",
    (Result.NOIR, Chance.COULEUR): "black and colour",
    (Result.NOIR, Chance.INVERSE): "black and inverse",
}


class CallWords(Value):
    """A house's words: the points 31…40, the word after a tied point, the four results."""

    points: tuple[str, ...]
    apres: str
    results: tuple[tuple[str, str], ...]  # (key of _RESULT_KEYS, phrase)

    def result(self, result: Result, couleur: Chance) -> str:
        return next(p for key, p in self.results if _RESULT_KEYS[key] == (result, couleur))

    def data(self) -> dict[str, Any]:
        return {"points": list(self.points), "apres": self.apres, "results": dict(self.results)}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> CallWords:
        """`ValueError` says what is wrong with a rulebook's `calls`."""
        points, apres, results = data.get("points"), data.get("apres"), data.get("results")
        if (not isinstance(points, list) or len(points) != 10
                or not all(isinstance(w, str) and w for w in points)):
            raise ValueError("'points': a list of ten words, for 31 to 40")
        if not isinstance(apres, str) or not apres:
            raise ValueError("'apres': the word said after a tied point")
        if (not isinstance(results, dict) or set(results) != set(_RESULT_KEYS)
                or not all(isinstance(p, str) and p for p in results.values())):
            raise ValueError("'results': a phrase for each of " + ", ".join(_RESULT_KEYS))
        if set(data) - {"points", "apres", "results"}:
            raise ValueError("only 'points', 'apres' and 'results'")
        return cls(tuple(points), apres, tuple((k, results[k]) for k in _RESULT_KEYS))


# The result is said in terms of rouge and couleur (Venezia; Britannica 1911).
FRENCH_WORDS: Final = CallWords(
    points=("un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf",
            "quarante"),
    apres="après",
    results=(
        ("rouge_couleur", "rouge gagne et couleur"),
        ("rouge_inverse", "rouge gagne, la couleur perd"),
        ("noir_couleur", "rouge perd, la couleur gagne"),
        ("noir_inverse", "rouge perd et couleur"),
    ),
)


def point_call(point: int, *, english: bool = False, words: CallWords = FRENCH_WORDS) -> str:
    """`34` → `quatre`: "trente" is omitted, 40 is `quarante`."""
    if not 31 <= point <= 40:
        raise ValueError(f"a row's point is 31 to 40, not {point}")
    return (_ENGLISH_POINTS if english else words.points)[point - 31]


def coup_calls(
    noir_point: int, rouge_point: int, result: Result, couleur: Chance | None,
    words: CallWords = FRENCH_WORDS,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The French calls in order, and their English: noir point, rouge point, result."""
    french = [point_call(noir_point, words=words), point_call(rouge_point, words=words)]
    english = [point_call(noir_point, english=True), point_call(rouge_point, english=True)]
    if couleur is None:
        french[1] += " " + words.apres
        # 31–31 is no tie that leaves stakes alone: it is the refait.
        english[1] += ", refait" if result is Result.REFAIT else " tie"
    else:
        french.append(words.result(result, couleur))
        english.append(_ENGLISH_RESULTS[result, couleur])
    return tuple(french), tuple(english)
