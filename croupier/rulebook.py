"""Rulebooks: what differs between casinos, as data files with a source for every rule.

A rulebook is a TOML file with `name`, `title` and one table per rule holding its `value`
and its `source`. The shipped ones live in `croupier/rulebooks/`; a casino adds its own by
dropping a file into a folder named by `$CROUPIER_RULEBOOKS`, or by naming the file's path.
"""

from __future__ import annotations

import enum
import os
import tomllib
from dataclasses import dataclass, fields
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from croupier.errors import RulebookError

SHIPPED = Path(__file__).with_name("rulebooks")
DEFAULT = "venezia"


class FaceUpPolicy(enum.Enum):
    COUNT = "count"  # the card stays valid (Venezia)
    BURN = "burn"  # the card is burned at once and does not count (France, Art. 56)


class PrisonerFate(enum.Enum):
    WITHDRAW = "withdraw"  # returned whole
    CARRY = "carry"  # stays in prison into the next shoe
    REFUND_BY_LEVEL = "refund_by_level"  # half, a quarter, an eighth ... by level


@dataclass(frozen=True, slots=True)
class Rulebook:
    """The rules of one casino; `sources` maps each rule's name to where it comes from."""

    name: str
    title: str
    burn_cards: int
    talon_cards: int
    copies_per_card: int
    face_up_policy: FaceUpPolicy
    face_up_coup_limit: int  # 0: no limit
    prison_move: bool
    prison_max_level: int  # 0: no limit
    insurance_rate: Decimal
    insurance_minimum: Decimal
    insurance_unit: Decimal  # 0: the insured amount is not rounded
    prisoners_at_shoe_end: PrisonerFate
    prisoners_at_session_end: PrisonerFate
    maximum_ratio: int
    sources: dict[str, str]

    def __hash__(self) -> int:
        return hash(self.name)


def _non_negative_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError("a whole number of 0 or more")
    return value


def _decimal(value: Any) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise ValueError("a decimal number written as a string, e.g. \"0.01\"")
    try:
        number = Decimal(value)
    except InvalidOperation:
        raise ValueError("a decimal number, e.g. \"0.01\"") from None
    if not number.is_finite() or number < 0:
        raise ValueError("a finite decimal number of 0 or more")
    return number


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("true or false")
    return value


def _enum(kind: type[enum.Enum]) -> Any:
    def parse(value: Any) -> enum.Enum:
        try:
            return kind(value)
        except ValueError:
            raise ValueError("one of " + ", ".join(repr(m.value) for m in kind)) from None

    return parse


_PARSERS: dict[str, Any] = {
    "burn_cards": _non_negative_int,
    "talon_cards": _non_negative_int,
    "copies_per_card": _non_negative_int,
    "face_up_policy": _enum(FaceUpPolicy),
    "face_up_coup_limit": _non_negative_int,
    "prison_move": _boolean,
    "prison_max_level": _non_negative_int,
    "insurance_rate": _decimal,
    "insurance_minimum": _decimal,
    "insurance_unit": _decimal,
    "prisoners_at_shoe_end": _enum(PrisonerFate),
    "prisoners_at_session_end": _enum(PrisonerFate),
    "maximum_ratio": _non_negative_int,
}
assert set(_PARSERS) == {f.name for f in fields(Rulebook)} - {"name", "title", "sources"}


def parse_rulebook(text: str, origin: str) -> Rulebook:
    """Build a rulebook from TOML text; `origin` names the file in error messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RulebookError(f"{origin}: not valid TOML: {err}") from err
    return rulebook_from_data(data, origin)


def rulebook_data(rulebook: Rulebook) -> dict[str, Any]:
    """The rulebook as its file says it (name, title, each rule's value and source), so that
    a journal keeps the very rules a table played by."""
    data: dict[str, Any] = {"name": rulebook.name, "title": rulebook.title}
    for rule, source in rulebook.sources.items():
        value = getattr(rulebook, rule)
        if isinstance(value, enum.Enum):
            value = value.value
        elif isinstance(value, Decimal):
            value = str(value)
        data[rule] = {"value": value, "source": source}
    return data


def rulebook_from_data(data: dict[str, Any], origin: str) -> Rulebook:
    """Build a rulebook from the shape of its file; `origin` names it in error messages."""
    if not isinstance(data, dict):
        raise RulebookError(f"{origin}: a rulebook is a table of rules")
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for key in ("name", "title"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise RulebookError(f"{origin}: {key!r} must be a non-empty string")
        values[key] = data[key]
    unknown = set(data) - set(_PARSERS) - {"name", "title"}
    if unknown:
        raise RulebookError(f"{origin}: unknown rule(s): {', '.join(sorted(unknown))}")
    for rule, parse in _PARSERS.items():
        entry = data.get(rule)
        if not isinstance(entry, dict) or "value" not in entry:
            raise RulebookError(f"{origin}: rule {rule!r} is missing (a table with a value)")
        source = entry.get("source")
        if not isinstance(source, str) or not source.strip():
            raise RulebookError(f"{origin}: rule {rule!r} must name its source")
        try:
            values[rule] = parse(entry["value"])
        except ValueError as err:
            raise RulebookError(
                f"{origin}: rule {rule!r} has value {entry['value']!r}; expected {err}"
            ) from None
        sources[rule] = source
    return Rulebook(**values, sources=sources)


def rulebook_folders() -> list[Path]:
    """Where rulebooks are looked up by name: the casino's folders first, then the shipped."""
    extra = os.environ.get("CROUPIER_RULEBOOKS", "")
    return [Path(p) for p in extra.split(os.pathsep) if p] + [SHIPPED]


def available_rulebooks() -> list[str]:
    names = {p.stem for folder in rulebook_folders() for p in folder.glob("*.toml")}
    return sorted(names)


def load_rulebook(name_or_path: str = DEFAULT) -> Rulebook:
    """A rulebook by name (`venezia`, `france`, a casino's own) or by the path of its file."""
    path = Path(name_or_path)
    if path.suffix != ".toml":
        found = [f / f"{name_or_path}.toml" for f in rulebook_folders()]
        candidates = [p for p in found if p.is_file()]
        if not candidates:
            known = ", ".join(available_rulebooks())
            raise RulebookError(f"no rulebook named {name_or_path!r} (known: {known})")
        path = candidates[0]
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RulebookError(f"cannot read rulebook {str(path)!r}: {err}") from err
    return parse_rulebook(text, str(path))
