"""The engine's own commands: `replay` and `demo`. Text and JSON in, text and JSON out."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterable

from croupier.decisions import CardPlaced, Decision, Rejected
from croupier.engine import Phase, Shoe
from croupier.errors import CroupierError
from croupier.events import ShoeEmpty, ShoeEvent
from croupier.fixtures import parse_shoe
from croupier.jsonout import decision_json, dumps
from croupier.rulebook import DEFAULT, Rulebook, load_rulebook
from croupier.session import SessionLine, parse_session
from croupier.shuffle import regulation_shoe
from croupier.table import Table
from croupier.transcript import describe


class _Parser(argparse.ArgumentParser):
    """Usage errors exit 2 with one line, like every other bad input."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"{self.prog}: {message}", file=sys.stderr)
        sys.exit(2)


def _replay_parser() -> _Parser:
    parser = _Parser(prog="croupier replay", description="Play a shoe fixture through the engine.")
    parser.add_argument("fixture", help="a .shoe fixture or a .session.jsonl script")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--rules", default=DEFAULT, help="rulebook name or .toml path")
    return parser


def _demo_parser() -> _Parser:
    parser = _Parser(prog="croupier demo", description="Shuffle a shoe and show it dealt.")
    parser.add_argument("--seed", type=int, help="shuffle seed (default: random)")
    parser.add_argument("--rules", default=DEFAULT, help="rulebook name or .toml path")
    return parser


def run(command: str, args: list[str]) -> int:
    parser = _replay_parser() if command == "replay" else _demo_parser()
    options = parser.parse_args(args)
    try:
        rulebook = load_rulebook(options.rules)
        if command == "replay" and options.fixture.endswith(".jsonl"):
            session = parse_session(_read(options.fixture), load_rulebook, origin=options.fixture)
            return _replay_session(session, rulebook, as_json=options.json)
        if command == "replay":
            events = parse_shoe(_read(options.fixture), origin=options.fixture)
        else:
            seed = options.seed
            if seed is None:
                seed = random.SystemRandom().randrange(2**32)
            print(f"Demo shoe, seed {seed}, rules {rulebook.name}: {rulebook.title}")
            events = regulation_shoe(random.Random(seed), face_up_rate=0.004)
    except CroupierError as err:
        print(f"croupier {command}: {err}", file=sys.stderr)
        return 2
    decisions = _play([*events, ShoeEmpty()], rulebook)
    if command == "replay" and options.json:
        _print_json(decisions)
    else:
        _print_transcript(decisions)
    return 0


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8-sig") as f:  # a byte-order mark is not a token
            return f.read()
    except (OSError, UnicodeDecodeError) as err:
        raise CroupierError(f"cannot read {path!r}: {err}") from err


def _replay_session(session: list[SessionLine], rulebook: Rulebook, *, as_json: bool) -> int:
    table = Table(rulebook)
    for entry in [*session, SessionLine(0, ShoeEmpty())]:
        if isinstance(entry.event, Rejected):
            decisions: list[Decision] = [entry.event]
        elif entry.line == 0:
            # The script ended: close the shoe if it is still open, as the talon is counted.
            decisions = [] if table.ended or table.shoe.phase is Phase.CLOSED else (
                table.apply(entry.event))
        else:
            decisions = table.apply(entry.event)
        for decision in decisions:
            if as_json:
                obj = decision_json(decision)
                if obj is not None:
                    if isinstance(decision, Rejected):
                        obj = {"event": "rejected", "line": entry.line, "reason": decision.reason}
                    sys.stdout.write(dumps(obj) + "\n")
            elif not isinstance(decision, CardPlaced):
                where = f"line {entry.line}: " if isinstance(decision, Rejected) else ""
                print("\n".join(where + text for text in describe(decision)))
    return 0


def _play(events: Iterable[ShoeEvent], rulebook: Rulebook) -> list[Decision]:
    shoe = Shoe(rulebook)
    return [d for e in events for d in shoe.apply(e)]


def _print_json(decisions: list[Decision]) -> None:
    out = sys.stdout
    for decision in decisions:
        obj = decision_json(decision)
        if obj is not None:
            out.write(dumps(obj) + "\n")


def _print_transcript(decisions: list[Decision]) -> None:
    for decision in decisions:
        if not isinstance(decision, CardPlaced):
            print("\n".join(describe(decision)))
