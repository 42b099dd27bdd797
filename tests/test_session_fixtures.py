"""The hand-made session scripts of `hardware-sims/fixtures/sessions/` against `croupier replay`.

Each `NAME.expected.jsonl` was written by hand from docs/RULES.md and docs/FORMATS.md, never by
running the engine, so these tests check the stake ledger against an independent reading
of the rules. An expected object names only the fields worth comparing; a `rejected` one
names a lower-case substring of the reason as `reason_contains`, since the wording is free.
Settlement `lines` are compared whole: every field of every line, in order.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.expected_events import assert_events_match, mismatch

REPO = Path(__file__).resolve().parent.parent
SESSIONS = REPO / "hardware-sims" / "fixtures" / "sessions"
SCRIPT_SUFFIX = ".session.jsonl"
EXPECTED_SUFFIX = ".expected.jsonl"

# fixture name -> the rule the engine breaks there, re-derived by hand from docs/RULES.md.
KNOWN_ENGINE_BUGS: dict[str, str] = {}


def _expectations() -> list[Any]:
    params = []
    for path in sorted(SESSIONS.glob(f"*{EXPECTED_SUFFIX}")):
        name = path.name.removesuffix(EXPECTED_SUFFIX)
        bug = KNOWN_ENGINE_BUGS.get(name)
        marks = [pytest.mark.xfail(strict=True, reason=bug)] if bug else []
        params.append(pytest.param(name, id=name, marks=marks))
    return params


def _read_jsonl(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _replay(script: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "croupier", "replay", str(script), "--json"]
    return subprocess.run(
        command, capture_output=True, text=True, encoding="utf-8", cwd=REPO, timeout=30,
        check=False,
    )


@pytest.mark.parametrize("name", _expectations())
def test_replay_settles_as_derived_by_hand(name: str) -> None:
    expected = _read_jsonl((SESSIONS / f"{name}{EXPECTED_SUFFIX}").read_text("utf-8"))
    result = _replay(SESSIONS / f"{name}{SCRIPT_SUFFIX}")
    assert result.returncode == 0, result.stderr
    actual = _read_jsonl(result.stdout)
    assert_events_match(expected, actual)


def test_every_script_has_an_expectation_and_back() -> None:
    scripts = {p.name.removesuffix(SCRIPT_SUFFIX) for p in SESSIONS.glob(f"*{SCRIPT_SUFFIX}")}
    expected = {p.name.removesuffix(EXPECTED_SUFFIX) for p in SESSIONS.glob(f"*{EXPECTED_SUFFIX}")}
    assert scripts
    assert scripts == expected


def test_every_expected_event_has_a_kind_and_rejections_name_a_reason() -> None:
    for path in SESSIONS.glob(f"*{EXPECTED_SUFFIX}"):
        for number, event in enumerate(_read_jsonl(path.read_text("utf-8")), 1):
            assert "event" in event, f"{path.name}:{number}"
            if event["event"] == "rejected":
                assert {"line", "reason_contains"} <= event.keys(), f"{path.name}:{number}"
                assert event["reason_contains"] == event["reason_contains"].lower()


@pytest.mark.parametrize(
    ("expected", "actual", "fails"),
    [
        ({"event": "rejected", "reason_contains": "maximum"},
         {"event": "rejected", "reason": "Stake above the MAXIMUM"}, False),
        ({"event": "rejected", "reason_contains": "maximum"},
         {"event": "rejected", "reason": "stake below the minimum"}, True),
        ({"event": "rejected", "reason_contains": "maximum"}, {"event": "rejected"}, True),
        ({"lines": [{"seat": 1, "action": "pay", "amount": 50}]},
         {"lines": [{"seat": 1, "action": "pay", "amount": 50.0}]}, False),
        ({"lines": [{"seat": 1, "action": "pay", "amount": 50}]},
         {"lines": [{"seat": 1, "action": "pay", "amount": "50"}]}, True),
        ({"lines": [{"seat": 1, "action": "pay", "amount": 50}]},
         {"lines": [{"seat": 1, "action": "pay", "amount": 50, "note": "x"}]}, True),
        ({"number": 2}, {"number": 2, "extra": True}, False),
        ({"number": 2}, {"numero": 2}, True),
    ],
)
def test_the_comparison_itself(
    expected: dict[str, Any], actual: dict[str, Any], fails: bool
) -> None:
    assert (mismatch(expected, actual) is not None) is fails
