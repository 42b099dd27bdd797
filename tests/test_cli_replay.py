"""`croupier replay` and `croupier demo` as a person or a tool runs them: a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SHORT_SHOE = """# burn, one coup, the cut card, the talon
2C 3C 4C 5C 6C
8S 7C KD 9H   AD 2S JH QC TD
CUT 7D 7H 7S 7C 8D
"""


def croupier(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "croupier", *args],
        capture_output=True, text=True, timeout=60, input=stdin, check=False,
    )


@pytest.fixture
def shoe(tmp_path: Path) -> Path:
    path = tmp_path / "short.shoe"
    path.write_text(SHORT_SHOE)
    return path


def test_replay_json_prints_the_events_of_interfaces_3(shoe: Path) -> None:
    done = croupier("replay", str(shoe), "--json")
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert [e["event"] for e in events] == ["burn", "coup", "shoe_end"]
    assert events[0]["cards"] == ["2C", "3C", "4C", "5C", "6C"]
    coup = events[1]
    assert coup["noir"] == {"cards": ["8S", "7C", "KD", "9H"], "point": 34}
    assert coup["rouge"] == {"cards": ["AD", "2S", "JH", "QC", "TD"], "point": 33}
    assert (coup["result"], coup["couleur"]) == ("rouge", "inverse")
    assert coup["calls"] == ["quatre", "trois", "rouge gagne, la couleur perd"]
    assert (coup["pay"], coup["face_up"], coup["number"]) == (["inverse", "rouge"], 0, 1)
    assert events[2]["reason"] == "cut_card"
    assert events[2]["talon"] == 5


def test_replay_without_json_prints_a_transcript_in_french_and_english(shoe: Path) -> None:
    done = croupier("replay", str(shoe))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for text in ("Coup 1", "quatre (four)", "trois (three)",
                 "rouge gagne, la couleur perd (red and inverse)", "pay: inverse, then rouge"):
        assert text in out


def test_replay_under_the_france_rulebook(tmp_path: Path) -> None:
    path = tmp_path / "f.shoe"
    path.write_text("2C 3C 4C 5C 6C ^9H 8S 7C KD 9H AD 2S JH QC TD")
    done = croupier("replay", str(path), "--json", "--rules", "france")
    coup = json.loads(done.stdout.splitlines()[1])
    assert coup["noir"]["cards"] == ["8S", "7C", "KD", "9H"]
    assert coup["face_up"] == 1


@pytest.mark.parametrize(
    ("text", "token", "place"),
    [("AS KD\nQH ZZ 7C\n", "ZZ", ":2:4:"), ("  ^^AS", "^^AS", ":1:3:"), ("AS 1S", "1S", ":1:4:"),
     ("CUT # ok\n\t11H", "11H", ":2:2:")],
)
def test_a_bad_token_exits_2_naming_it_and_its_place(
    tmp_path: Path, text: str, token: str, place: str
) -> None:
    path = tmp_path / "bad.shoe"
    path.write_text(text)
    done = croupier("replay", str(path), "--json")
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert repr(token) in done.stderr
    assert place in done.stderr


@pytest.mark.parametrize("content", [None, b"\xff\xfe\x00bad"])
def test_an_unreadable_fixture_exits_2(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "x.shoe"
    if content is not None:
        path.write_bytes(content)
    done = croupier("replay", str(path), "--json")
    assert done.returncode == 2
    assert "cannot read" in done.stderr


def test_an_unknown_rulebook_exits_2_listing_the_known_ones(shoe: Path) -> None:
    done = croupier("replay", str(shoe), "--rules", "monaco")
    assert done.returncode == 2
    assert "'monaco'" in done.stderr
    assert "france" in done.stderr
    assert "venezia" in done.stderr


def test_usage_errors_exit_2() -> None:
    assert croupier("replay").returncode == 2
    assert croupier("nonsense").returncode == 2


def test_demo_deals_a_whole_regulation_shoe() -> None:
    done = croupier("demo", "--seed", "7")
    assert done.returncode == 0, done.stderr
    assert "Messieurs, les cinq cartes" in done.stdout
    assert "End of the shoe" in done.stdout
    assert "= 312 cards" in done.stdout


def test_a_replay_imports_no_more_than_it_needs(shoe: Path) -> None:
    """A one-shoe replay is started often and mostly imports (`make bench` times it): the
    core's records are not dataclasses, and argparse is not left to import shutil."""
    probe = (
        "import sys, io, contextlib\n"
        "from app.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['replay', {str(shoe)!r}, '--json']) == 0\n"
        "heavy = {'dataclasses', 'inspect', 'shutil', 'journal', 'drivers'}\n"
        "assert not heavy & set(sys.modules), sorted(heavy & set(sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
