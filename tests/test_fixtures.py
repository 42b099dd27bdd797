"""The hand-made fixtures of `hardware-sims/fixtures/` against `croupier replay --json`.

Each `NAME.RULES.expected.jsonl` was derived by hand from docs/RULES.md, never by running the
engine, so these tests check the engine against an independent reading of the rules.
An expected object names only the fields docs/FORMATS.md (replay) requires; the engine may add more.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.expected_events import assert_events_match

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "hardware-sims" / "fixtures"
RULEBOOKS = ("venezia", "france")
# Another engineer's wire captures live in the same folder and have no expectations here.
FOREIGN_PREFIX = "wire_"

# (fixture, rulebook) -> the rule the engine breaks there, re-derived by hand.
KNOWN_ENGINE_BUGS: dict[tuple[str, str], str] = {}


def _expectations() -> list[Any]:
    params = []
    for path in sorted(FIXTURES.glob("*.expected.jsonl")):
        name, rules = path.name.removesuffix(".expected.jsonl").rsplit(".", 1)
        bug = KNOWN_ENGINE_BUGS.get((name, rules))
        marks = [pytest.mark.xfail(strict=True, reason=bug)] if bug else []
        params.append(pytest.param(name, rules, id=f"{name}-{rules}", marks=marks))
    return params


def _replay(shoe: Path | str, rules: str | None = "venezia") -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "croupier", "replay", str(shoe), "--json"]
    if rules is not None:
        command += ["--rules", rules]
    return subprocess.run(
        command, capture_output=True, text=True, encoding="utf-8", cwd=REPO, timeout=30,
        check=False,
    )


@pytest.mark.parametrize(("name", "rules"), _expectations())
def test_replay_matches_hand_derived_events(name: str, rules: str) -> None:
    expected_path = FIXTURES / f"{name}.{rules}.expected.jsonl"
    expected = [json.loads(line) for line in expected_path.read_text("utf-8").splitlines()]
    result = _replay(FIXTURES / f"{name}.shoe", rules)
    assert result.returncode == 0, result.stderr
    actual = [json.loads(line) for line in result.stdout.splitlines()]
    assert_events_match(expected, actual)


def test_every_hand_made_fixture_has_an_expectation() -> None:
    shoes = [p for p in FIXTURES.glob("*.shoe") if not p.name.startswith(FOREIGN_PREFIX)]
    assert shoes
    for shoe in shoes:
        found = [r for r in RULEBOOKS if (FIXTURES / f"{shoe.stem}.{r}.expected.jsonl").exists()]
        assert found, f"{shoe.name} has no expected output"


def test_expectations_name_only_known_fixtures_and_rulebooks() -> None:
    for path in FIXTURES.glob("*.expected.jsonl"):
        name, rules = path.name.removesuffix(".expected.jsonl").rsplit(".", 1)
        assert rules in RULEBOOKS, path.name
        assert (FIXTURES / f"{name}.shoe").exists(), path.name


def test_default_rulebook_is_venezia() -> None:
    shoe = FIXTURES / "faceup_limit.shoe"
    assert _replay(shoe, None).stdout == _replay(shoe, "venezia").stdout


def test_bad_token_exits_2_naming_token_line_and_column(tmp_path: Path) -> None:
    shoe = tmp_path / "bad.shoe"
    shoe.write_text("# a comment\n4C KD 9S 2H QC\n8H  1x QS\n", encoding="utf-8")
    result = _replay(shoe)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    # The token `1x` is on line 3, 1-based column 5; either `3:5` or `line 3 ... column 5`.
    assert "1x" in lines[0]
    assert re.search(r"\b3:5\b|line 3\b.*\bcol(umn)? 5\b", lines[0]), lines[0]


def test_bad_token_line_counts_only_line_ends(tmp_path: Path) -> None:
    shoe = tmp_path / "bad.shoe"
    shoe.write_text("# page one\f page two\n4C KD 9S 2H QC\nxx\n", encoding="utf-8")
    result = _replay(shoe)
    assert result.returncode == 2
    assert "xx" in result.stderr
    assert re.search(r"\b3:1\b|line 3\b.*\bcol(umn)? 1\b", result.stderr), result.stderr


def test_a_byte_order_mark_is_not_a_token(tmp_path: Path) -> None:
    shoe = tmp_path / "bom.shoe"
    shoe.write_text("\ufeff4C KD 9S 2H QC\n", encoding="utf-8")
    result = _replay(shoe)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[0])["cards"][0] == "4C"


@pytest.mark.parametrize("token", ["CUTT", "^", "^^QH", "11H", "QX", "10", "Q"])
def test_each_bad_token_is_refused(tmp_path: Path, token: str) -> None:
    shoe = tmp_path / "bad.shoe"
    shoe.write_text(f"4C KD 9S 2H QC {token}\n", encoding="utf-8")
    result = _replay(shoe)
    assert result.returncode == 2
    assert token in result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr


def test_missing_file_exits_2(tmp_path: Path) -> None:
    result = _replay(tmp_path / "absent.shoe")
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert "absent.shoe" in result.stderr


def test_directory_exits_2(tmp_path: Path) -> None:
    result = _replay(tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr


def test_file_not_utf8_exits_2(tmp_path: Path) -> None:
    shoe = tmp_path / "latin1.shoe"
    shoe.write_bytes("# carte à jouer\n4C KD 9S 2H QC\n".encode("latin-1"))
    result = _replay(shoe)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr
