"""Rulebooks: what differs between casinos, as data files with a source for every rule.

A rulebook is a TOML file with `format`, `name`, `title` and one table per rule holding its
`value` and its `source` (docs/RULES.md names every rule and what varies it). The shipped
ones live in `croupier/rulebooks/`; a casino adds its own by dropping a file into a folder
named by `$CROUPIER_RULEBOOKS`, or by naming the file's path.

Rulebooks grow: each rule says in which format it appeared. A file (or a journal's record
of one) written in an older format gets, for every later rule, the default that does what
the code did before that rule existed, so every journal ever written replays as it played.
A file must state every rule of its own format. Optional rules take `"none"`.
"""

from __future__ import annotations

import enum
import os
import tomllib
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from croupier.calls import FRENCH_WORDS, CallWords
from croupier.errors import RulebookError
from croupier.value import Value, fields

# Paths as strings, not pathlib: a one-shoe replay starts often, and pathlib costs it 3 ms.
SHIPPED = os.path.join(os.path.dirname(__file__), "rulebooks")
DEFAULT = "venezia"
FORMAT = 2  # the rulebook format this code writes
NONE = "none"


class FaceUpPolicy(enum.Enum):
    COUNT = "count"  # the card stays valid (Venezia)
    BURN = "burn"  # the card is burned at once and does not count (France, Art. 56)


class PrisonerFate(enum.Enum):
    WITHDRAW = "withdraw"  # returned whole
    CARRY = "carry"  # stays in prison into the next shoe
    REFUND_BY_LEVEL = "refund_by_level"  # half, a quarter, an eighth ... by level


class AboveMaximum(enum.Enum):
    REFUSE = "refuse"  # the stake is refused whole
    PLAY_MAXIMUM = "play_maximum"  # the maximum plays, the excess goes back at once


class MaximumRule(enum.Enum):
    AT_MOST = "at_most"  # maximum ≤ ratio × minimum
    EQUAL = "equal"  # maximum = ratio × minimum


class LimitsChange(enum.Enum):
    OPEN_BETS = "open_bets"  # whenever bets are open
    CLOSED_TABLE = "closed_table"  # only between shoes, with the layout clear


class Rounding(enum.Enum):
    UP = "up"
    DOWN = "down"


class InsuredRounding(enum.Enum):
    UP = "up"  # the whole stake is insured, the premium taken on the next whole unit
    DOWN = "down"  # whole units are insured; the rest of the stake is not (partial insurance)
    EXACT = "exact"  # only stakes in whole units may be insured


class InsurancePer(enum.Enum):
    STAKE = "stake"  # one premium when the stake is placed, good until it leaves
    COUP = "coup"  # a premium for every coup the stake is insured for


class PremiumOnVoid(enum.Enum):
    KEEP = "keep"
    RETURN = "return"


class PrisonLimitCounts(enum.Enum):
    LEVELS = "levels"  # a prisoner's own level
    REFAITS = "refaits"  # refaits a prisoner went through in a row, no level won between


class PrisonLimitShare(enum.Enum):
    DEEPER = "deeper"  # shared at the value of one level deeper (Venezia: a sixteenth)
    AT_LIMIT = "at_limit"  # shared at the value it had at the limit (an eighth)


class Rulebook(Value):
    """The rules of one casino; `sources` maps each rule's name to where it comes from.

    Whole numbers and amounts of 0 mean "none" (no limit, no rounding, no minimum);
    `insurance_rate` None means the house sells no insurance."""

    name: str
    title: str
    burn_cards: int
    talon_cards: int
    copies_per_card: int  # 0: no copy count
    face_up_policy: FaceUpPolicy
    face_up_coup_limit: int  # 0: no limit
    prison_move: bool
    prison_max_level: int  # 0: no limit
    insurance_rate: Decimal | None  # None: no insurance
    insurance_minimum: Decimal
    insurance_unit: Decimal  # 0: the insured amount is not rounded
    prisoners_at_shoe_end: PrisonerFate
    prisoners_at_session_end: PrisonerFate
    maximum_ratio: int  # 0: no ratio
    sources: dict[str, str]
    format: int = FORMAT
    above_maximum: AboveMaximum = AboveMaximum.REFUSE
    prisoners_toward_maximum: bool = False
    maximum_rule: MaximumRule = MaximumRule.AT_MOST
    limits_change: LimitsChange = LimitsChange.OPEN_BETS
    chip: Decimal = Decimal(0)  # the smallest chip; 0: amounts are not rounded
    premium_rounding: Rounding = Rounding.UP
    share_rounding: Rounding = Rounding.DOWN
    insured_rounding: InsuredRounding = InsuredRounding.UP
    premium_minimum: Decimal = Decimal(0)
    insurance_per: InsurancePer = InsurancePer.STAKE
    premium_on_void: PremiumOnVoid = PremiumOnVoid.KEEP
    prison_limit_counts: PrisonLimitCounts = PrisonLimitCounts.LEVELS
    prison_limit_share: PrisonLimitShare = PrisonLimitShare.DEEPER
    prisoners_at_reshuffle: PrisonerFate = PrisonerFate.WITHDRAW
    calls: CallWords = FRENCH_WORDS

    def __hash__(self) -> int:
        return hash(self.name)


def _count(value: Any) -> int:
    if value == NONE:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"a whole number of 0 or more, or {NONE!r}")
    return value


def _decimal(value: Any) -> Decimal:
    if value == NONE:
        return Decimal(0)
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise ValueError(f"a decimal number written as a string, e.g. \"0.01\", or {NONE!r}")
    try:
        number = Decimal(value)
    except InvalidOperation:
        raise ValueError("a decimal number, e.g. \"0.01\"") from None
    if not number.is_finite() or number < 0:
        raise ValueError("a finite decimal number of 0 or more")
    return number


def _rate(value: Any) -> Decimal | None:
    return None if value == NONE else _decimal(value)


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("true or false")
    return value


def _enum(kind: type[enum.Enum]) -> Callable[[Any], enum.Enum]:
    def parse(value: Any) -> enum.Enum:
        try:
            return kind(value)
        except ValueError:
            raise ValueError("one of " + ", ".join(repr(m.value) for m in kind)) from None

    return parse


def _calls(value: Any) -> CallWords:
    if not isinstance(value, dict):
        raise ValueError("a table of points, apres and results")
    return CallWords.from_data(value)


class _Rule(Value):
    """How one rule is read from a file, and from which format on."""

    parse: Callable[[Any], Any]
    since: int = 1
    # For files of an older format: the value that does what the code did before the rule
    # existed (or a function of the rules already read), and the source saying so.
    default: Any = None


_BEFORE = "rulebooks of format 1 (before this rule existed): "
_RULES: dict[str, _Rule] = {
    "burn_cards": _Rule(_count),
    "talon_cards": _Rule(_count),
    "copies_per_card": _Rule(_count),
    "face_up_policy": _Rule(_enum(FaceUpPolicy)),
    "face_up_coup_limit": _Rule(_count),
    "prison_move": _Rule(_boolean),
    "prison_max_level": _Rule(_count),
    "insurance_rate": _Rule(_rate),
    "insurance_minimum": _Rule(_decimal),
    "insurance_unit": _Rule(_decimal),
    "prisoners_at_shoe_end": _Rule(_enum(PrisonerFate)),
    "prisoners_at_session_end": _Rule(_enum(PrisonerFate)),
    "maximum_ratio": _Rule(_count),
    "above_maximum": _Rule(_enum(AboveMaximum), 2, "refuse"),
    "prisoners_toward_maximum": _Rule(_boolean, 2, False),
    "maximum_rule": _Rule(_enum(MaximumRule), 2, "at_most"),
    "limits_change": _Rule(_enum(LimitsChange), 2, "open_bets"),
    "chip": _Rule(_decimal, 2, NONE),
    "premium_rounding": _Rule(_enum(Rounding), 2, "up"),
    "share_rounding": _Rule(_enum(Rounding), 2, "down"),
    "insured_rounding": _Rule(_enum(InsuredRounding), 2, "up"),
    "premium_minimum": _Rule(_decimal, 2, NONE),
    "insurance_per": _Rule(_enum(InsurancePer), 2, "stake"),
    "premium_on_void": _Rule(_enum(PremiumOnVoid), 2, "keep"),
    "prison_limit_counts": _Rule(_enum(PrisonLimitCounts), 2, "levels"),
    "prison_limit_share": _Rule(_enum(PrisonLimitShare), 2, "deeper"),
    # Before, a shoe suspended for face-up cards ended like any other.
    "prisoners_at_reshuffle": _Rule(_enum(PrisonerFate), 2,
                                    lambda data: data["prisoners_at_shoe_end"]["value"]),
    "calls": _Rule(_calls, 2, FRENCH_WORDS.data()),
}
_NAMED = {"name", "title", "sources", "format"}
RULE_NAMES = tuple(_RULES)
assert set(_RULES) == set(fields(Rulebook)) - _NAMED


def parse_rulebook(text: str, origin: str) -> Rulebook:
    """Build a rulebook from TOML text; `origin` names the file in error messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RulebookError(f"{origin}: not valid TOML: {err}") from err
    return rulebook_from_data(data, origin)


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, CallWords):
        return value.data()
    return NONE if value is None else value


def rulebook_data(rulebook: Rulebook) -> dict[str, Any]:
    """The rulebook as its file says it (format, name, title, each rule's value and source),
    so that a journal keeps the very rules a table played by."""
    data: dict[str, Any] = {"format": rulebook.format, "name": rulebook.name,
                            "title": rulebook.title}
    for rule, source in rulebook.sources.items():
        data[rule] = {"value": _plain(getattr(rulebook, rule)), "source": source}
    return data


def _format(data: dict[str, Any], origin: str) -> int:
    version = data.get("format", 1)  # format 1 files carried no format
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= FORMAT:
        raise RulebookError(f"{origin}: 'format' is {version!r}; this croupier reads "
                            f"rulebook formats 1 to {FORMAT}")
    return version


def rulebook_from_data(data: dict[str, Any], origin: str) -> Rulebook:
    """Build a rulebook from the shape of its file; `origin` names it in error messages."""
    if not isinstance(data, dict):
        raise RulebookError(f"{origin}: a rulebook is a table of rules")
    version = _format(data, origin)
    values: dict[str, Any] = {"format": version}
    sources: dict[str, str] = {}
    for key in ("name", "title"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise RulebookError(f"{origin}: {key!r} must be a non-empty string")
        values[key] = data[key]
    known = {rule for rule, spec in _RULES.items() if spec.since <= version}
    unknown = set(data) - known - {"name", "title", "format"}
    if unknown:
        raise RulebookError(f"{origin}: unknown rule(s): {', '.join(sorted(unknown))} "
                            f"(rulebook format {version})")
    for rule, spec in _RULES.items():
        if spec.since > version:
            default = spec.default(data) if callable(spec.default) else spec.default
            entry: Any = {"value": default, "source": _BEFORE + f"{rule} = {default!r}"}
        else:
            entry = data.get(rule)
        if not isinstance(entry, dict) or "value" not in entry:
            raise RulebookError(f"{origin}: rule {rule!r} is missing (a table with a value)")
        source = entry.get("source")
        if not isinstance(source, str) or not source.strip():
            raise RulebookError(f"{origin}: rule {rule!r} must name its source")
        try:
            values[rule] = spec.parse(entry["value"])
        except ValueError as err:
            raise RulebookError(
                f"{origin}: rule {rule!r} has value {entry['value']!r}; expected {err}"
            ) from None
        sources[rule] = source
    return Rulebook(**values, sources=sources)


def rulebook_folders() -> list[str]:
    """Where rulebooks are looked up by name: the casino's folders first, then the shipped."""
    extra = os.environ.get("CROUPIER_RULEBOOKS", "")
    return [p for p in extra.split(os.pathsep) if p] + [SHIPPED]


def available_rulebooks() -> list[str]:
    names = set()
    for folder in rulebook_folders():
        try:
            names |= {f.removesuffix(".toml") for f in os.listdir(folder) if f.endswith(".toml")}
        except OSError:
            continue  # a folder named in CROUPIER_RULEBOOKS that is not there holds none
    return sorted(names)


def load_rulebook(name_or_path: str = DEFAULT) -> Rulebook:
    """A rulebook by name (`venezia`, `france`, a casino's own) or by the path of its file."""
    path = name_or_path
    if not path.endswith(".toml"):
        found = [os.path.join(f, f"{name_or_path}.toml") for f in rulebook_folders()]
        candidates = [p for p in found if os.path.isfile(p)]
        if not candidates:
            known = ", ".join(available_rulebooks())
            raise RulebookError(f"no rulebook named {name_or_path!r} (known: {known})")
        path = candidates[0]
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError) as err:
        raise RulebookError(f"cannot read rulebook {path!r}: {err}") from err
    return parse_rulebook(text, path)
