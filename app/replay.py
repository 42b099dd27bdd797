"""`croupier replay` and `croupier demo`: the engine fed from a file or a shuffle, text and
JSON out."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from typing import Protocol

from app.argparsing import CommandParser
from app.memory_table import MemoryTable
from croupier.decisions import CardPlaced, Decision, Rejected, Settlement
from croupier.errors import CroupierError
from croupier.events import ShoeEmpty, ShoeEvent
from croupier.fixtures import parse_shoe
from croupier.rulebook import DEFAULT, Rulebook, load_rulebook
from croupier.table import Event, Table

# The session parser, the shuffle and each output's writer are imported where they are used:
# a one-shoe replay is started often, and most of its time is Python importing.
Line = tuple[int, Event | Rejected]  # an event (or a line refused) and its line, 0 for none


def _replay_parser() -> CommandParser:
    parser = CommandParser(prog="croupier replay",
                           description="Play a shoe fixture through the engine.")
    parser.add_argument("fixture", help="a .shoe fixture or a .session.jsonl script")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--rules", default=DEFAULT, help="rulebook name or .toml path")
    parser.add_argument("--journal", metavar="FILE.db", help="record everything in a journal")
    return parser


def _demo_parser() -> CommandParser:
    parser = CommandParser(prog="croupier demo", description="Shuffle a shoe and show it dealt.")
    parser.add_argument("--seed", type=int, help="shuffle seed (default: random)")
    parser.add_argument("--rules", default=DEFAULT, help="rulebook name or .toml path")
    return parser


def main(command: str, args: list[str]) -> int:
    parser = _replay_parser() if command == "replay" else _demo_parser()
    options = parser.parse_args(args)
    session = command == "replay" and options.fixture.endswith(".jsonl")
    try:
        rulebook = load_rulebook(options.rules)
        lines: Iterable[Line]
        if session:
            from croupier.session import parse_session

            parsed = parse_session(_read(options.fixture, MAX_SESSION), load_rulebook,
                                   origin=options.fixture)
            lines = [(entry.line, entry.event) for entry in parsed]
        elif command == "replay":
            lines = _numbered(parse_shoe(_read(options.fixture, MAX_FIXTURE),
                                         origin=options.fixture))
        else:
            lines = _numbered(_demo_shoe(options.seed, rulebook))
        table = _open_table(getattr(options, "journal", None), rulebook)
    except CroupierError as err:
        print(f"croupier {command}: {err}", file=sys.stderr)
        return 2
    write = _print_json if command == "replay" and options.json else _print_text
    try:
        for line, decision in _play(table, lines):
            if isinstance(decision, CardPlaced) or (isinstance(decision, Settlement)
                                                     and not session):
                continue
            write(decision, line)
    except CroupierError as err:
        # The journal could not be written (a full disk): what it holds stays chained.
        print(f"croupier {command}: stopped: {err}", file=sys.stderr)
        return 2
    finally:
        table.close()
    return 0


def _numbered(events: list[ShoeEvent]) -> list[Line]:
    return [(0, event) for event in events]


def _demo_shoe(seed: int | None, rulebook: Rulebook) -> list[ShoeEvent]:
    import random

    from croupier.shuffle import regulation_shoe

    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    print(f"Demo shoe, seed {seed}, rules {rulebook.name}: {rulebook.title}")
    return regulation_shoe(random.Random(seed), face_up_rate=0.004, rulebook=rulebook)


class _Playing(Protocol):
    @property
    def table(self) -> Table: ...
    def apply(self, event: Event) -> list[Decision]: ...
    def note_rejected(self, line: int, reason: str) -> None: ...
    def close(self) -> None: ...


def _open_table(journal: str | None, rulebook: Rulebook) -> _Playing:
    if journal is None:
        return MemoryTable(rulebook)
    from journal.live import JournaledTable

    if os.path.exists(journal) and os.path.getsize(journal):
        raise CroupierError(f"journal {journal!r} already exists: replay into a new file")
    return JournaledTable.open(journal, rulebook)


def _play(
    table: _Playing, lines: Iterable[Line]
) -> Iterator[tuple[int, Decision]]:
    for line, event in lines:
        if isinstance(event, Rejected):
            table.note_rejected(line, event.reason)
            decisions: list[Decision] = [event]
        else:
            decisions = table.apply(event)
        for decision in decisions:
            yield line, decision
    if table.table.shoe_open:
        # The script ended: the shoe is closed as its talon is counted.
        for decision in table.apply(ShoeEmpty()):
            yield 0, decision


def _print_text(decision: Decision, line: int) -> None:
    from croupier.transcript import describe

    where = f"line {line}: " if isinstance(decision, Rejected) else ""
    print("\n".join(where + text for text in describe(decision)))


def _print_json(decision: Decision, line: int) -> None:
    from croupier.jsonout import decision_json, dumps

    obj = decision_json(decision)
    if obj is not None:
        if isinstance(decision, Rejected):
            obj = {"event": "rejected", "line": line, "reason": decision.reason}
        sys.stdout.write(dumps(obj) + "\n")


MAX_FIXTURE = 2**20  # a shoe fixture is about 1 KiB
MAX_SESSION = 16 * 2**20  # a day's session script is about 2 MiB


def _read(path: str, limit: int) -> str:
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)  # never more: the path may be /dev/zero
        if len(data) > limit:
            raise CroupierError(f"{path!r} is larger than {limit // 2**20} MiB: "
                                "not a fixture or a session script")
        return data.decode("utf-8-sig")  # a byte-order mark is not a token
    except (OSError, UnicodeDecodeError) as err:
        raise CroupierError(f"cannot read {path!r}: {str(err)[:160]}") from err
