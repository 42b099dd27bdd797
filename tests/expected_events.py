"""Comparing what `croupier replay --json` printed with events written out by hand."""

from __future__ import annotations

from typing import Any


def mismatch(expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
    """The first expected field the actual event lacks or gets wrong, described.

    `reason_contains` asks for a (lower-case) part of the `reason`, whose wording is free.
    """
    for key, want in expected.items():
        if key == "reason_contains":
            reason = actual.get("reason")
            if not isinstance(reason, str) or want not in reason.lower():
                return f"reason {reason!r} does not contain {want!r}"
        elif key not in actual:
            return f"field {key!r} missing"
        elif actual[key] != want:
            return f"field {key!r}: expected {want!r}, got {actual[key]!r}"
    return None


def assert_events_match(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> None:
    """One actual event for each expected one, in order, each holding what was expected."""
    for index, (want, got) in enumerate(zip(expected, actual, strict=False)):
        problem = mismatch(want, got)
        assert problem is None, f"event {index + 1}: {problem}\nexpected {want}\nactual   {got}"
    surplus = actual[len(expected):] or expected[len(actual):]
    assert len(actual) == len(expected), (
        f"{len(expected)} events expected, {len(actual)} printed; unmatched: {surplus}"
    )
