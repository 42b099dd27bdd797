"""`croupier audit verify|export|set-pin` and `croupier stats`: the journal's commands."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from pathlib import Path
from typing import Any

from app.argparsing import CommandParser
from croupier.errors import CroupierError
from croupier.jsonout import dumps
from journal.files import check_private
from journal.store import Journal, JournalError, verify


def _audit_parser() -> CommandParser:
    parser = CommandParser(prog="croupier audit", description="Check and read a table's journal.")
    sub = parser.add_subparsers(dest="action", required=True, parser_class=CommandParser)
    check = sub.add_parser("verify", help="check the hash chain of every row")
    check.add_argument("journal")
    check.add_argument("--key-file", help="the table's secret, for a keyed journal")
    export = sub.add_parser("export", help="print every row back, in order")
    export.add_argument("journal")
    export.add_argument("--json", action="store_true", help="one JSON object per line")
    export.add_argument("--key-file", help="the table's secret, for a keyed journal")
    accept = sub.add_parser("accept", help="accept the journal's first break so the table "
                            "deals on (the chef's PIN from stdin); verify names it forever")
    accept.add_argument("journal")
    accept.add_argument("--who", required=True, help="the chef de table accepting it")
    accept.add_argument("--why", required=True, help="what was found and why dealing goes on")
    accept.add_argument("--key-file", help="the table's secret, for a keyed journal")
    pin = sub.add_parser("set-pin", help="set the chef de table's PIN (read from stdin)")
    pin.add_argument("journal")
    pin.add_argument("--key-file", help="the table's secret, for a keyed journal")
    return parser


MAX_SECRET = 4096


def read_secret(key_file: str | None) -> bytes | None:
    """The per-table secret: `--key-file`, else `$CROUPIER_TABLE_KEY_FILE`, else none."""
    path = key_file or os.environ.get("CROUPIER_TABLE_KEY_FILE")
    if not path:
        return None
    try:
        check_private(Path(path), "the table secret")
        with open(path, "rb") as f:
            secret = f.read(MAX_SECRET + 1).strip()
    except OSError as err:
        raise JournalError(f"cannot read the table secret {path!r}: {err.strerror}") from err
    if len(secret) > MAX_SECRET:
        raise JournalError(f"the table secret {path!r} is longer than {MAX_SECRET} bytes")
    if not secret:
        raise JournalError(f"the table secret {path!r} is empty")
    return secret


def main(command: str, args: list[str]) -> int:
    try:
        if command == "stats":
            return _stats(args)
        return _audit(_audit_parser().parse_args(args))
    except CroupierError as err:
        print(f"croupier {command}: {err}", file=sys.stderr)
        return 2


def _audit(options: argparse.Namespace) -> int:
    secret = read_secret(options.key_file)
    if options.action == "verify":
        verdict = verify(options.journal, secret=secret)
        if verdict.intact:
            print(f"{options.journal}: intact, {verdict.rows} rows chained"
                  + (" with the table's secret" if secret else ""))
            return 0
        if verdict.bad_row is not None:
            print(f"{options.journal}: row {verdict.bad_row}: {verdict.reason}")
        for accepted in verdict.accepted:
            print(f"{options.journal}: row {accepted.row}: {accepted.reason} (accepted at row "
                  f"{accepted.at_row} by {accepted.who}: {accepted.why})")
        return 1
    if options.action == "export":
        with Journal(options.journal, secret=secret, readonly=True) as journal:
            for row in journal.rows():
                body = hide_secrets(row.data())
                if options.json:
                    print(dumps({"seq": row.seq, "at": row.at, "kind": row.kind, **body}))
                else:
                    print(f"{row.seq:>7} {row.at} {row.kind:<9} {dumps(body)}")
        return 0
    # Written by the journal's one writer: a running table refuses these.
    with Journal(options.journal, secret=secret, create=False) as journal:
        if options.action == "accept":
            return _accept(journal, options.who, options.why)
        return _set_pin(journal)


def _accept(journal: Journal, who: str, why: str) -> int:
    from croupier.table import Table
    from journal.chef import ChefDesk, Role
    from journal.live import JournaledTable, recorded_rulebook

    verdict = journal.check()
    if verdict.dealable:
        print(f"{journal.path}: no break to accept")
        return 0
    desk = ChefDesk(JournaledTable(journal, Table(recorded_rulebook(journal))))
    refused = desk.authorize(Role.CHEF, sys.stdin.readline(100).strip(), "accept", who)
    if refused:
        print(f"croupier audit accept: {refused.why.value}", file=sys.stderr)
        return 1
    at = journal.accept(verdict, who=who, why=why)
    print(f"{journal.path}: row {verdict.bad_row} ({verdict.reason}) accepted at row {at}; "
          "the table deals on, and every verification names it")
    return 0


def hide_secrets(body: object) -> dict[str, Any]:
    """A row's body as shown to people: the PIN's hash never (a short PIN falls to it)."""
    if not isinstance(body, dict):
        return {"body": body}
    return {key: "(hidden)" if key == "pin_hash" else value for key, value in body.items()}


def _set_pin(journal: Journal) -> int:
    from journal.chef import ChefDesk
    from journal.live import JournaledTable

    live = JournaledTable.restore(journal)
    ask = getpass.getpass if sys.stdin.isatty() else (lambda _prompt: sys.stdin.readline(100))
    desk = ChefDesk(live)
    old = ask("current PIN: ").strip() if desk.pin_hash() else None
    pin = ask("new PIN: ").strip()
    try:
        refused = desk.set_pin(pin, old_pin=old, setup=journal.secret is not None)
    except ValueError as err:
        raise JournalError(str(err)) from err
    if refused:
        print(f"croupier audit set-pin: {refused.why.value}", file=sys.stderr)
        return 1
    print("PIN set")
    return 0


def _stats(args: list[str]) -> int:
    from journal.stats import report, theory_of

    parser = CommandParser(prog="croupier stats",
                           description="Observed frequencies against the theory.")
    parser.add_argument("journals", nargs="+", type=Path)
    parser.add_argument("--json", action="store_true", help="one JSON report")
    parser.add_argument("--decks", type=int, default=6, choices=range(1, 9), metavar="N",
                        help="decks in the shoe (default 6)")
    options = parser.parse_args(args)
    for path in options.journals:
        if not path.is_file():
            raise CroupierError(f"no journal at {str(path)!r}")
    result = report(options.journals, theory_of(options.decks), 52 * options.decks)
    if options.json:
        print(dumps(result))
    else:
        _print(result)
    return 0


def _print(result: dict[str, Any]) -> None:
    out = sys.stdout
    for scope in result["scopes"]:
        mark = "  FLAGGED: " + ", ".join(scope["flagged"]) if scope["flagged"] else ""
        out.write(f"{scope['scope']}: {scope['coups']} coups{mark}\n")
        if "marque" in scope:
            out.write(f"  marque  {scope['marque']['results']}\n")
            out.write(f"          {scope['marque']['couleur']}\n")
        if scope.get("cards"):
            cards = scope["cards"]
            out.write(f"  cards   burned {cards['burned']} + dealt {cards['dealt']} + voided "
                      f"{cards['voided']} + talon {cards['talon']} = {sum(cards.values())}\n")
        for test in scope["tests"]:
            flag = "  <-- would be rare in an honest game" if test["flagged"] else ""
            out.write(f"  {test['test']:<38} seen {test['observed']:<32} "
                      f"expected {test['expected']:<36} p = {test['p']:.3g}{flag}\n")
    out.write(f"{result['flagged']} result(s) flagged at p < {result['alpha']}\n")
