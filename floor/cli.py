"""`croupier ship` and `croupier floor init|verify|password|key|serve|demo`."""

from __future__ import annotations

import argparse
import getpass
import signal
import sys
import threading
from pathlib import Path
from types import FrameType

import psycopg

from app.argparsing import CommandParser
from croupier.errors import CroupierError
from floor.connect import one_line


def _ship_parser() -> CommandParser:
    parser = CommandParser(prog="croupier ship",
                           description="Send a table's journal rows to the floor.")
    parser.add_argument("journal", help="the table's SQLite journal (opened read-only)")
    parser.add_argument("--table", required=True, help="the table's name on the floor")
    parser.add_argument("--floor", required=True, metavar="DSN",
                        help="the floor's PostgreSQL (libpq string or postgresql:// URI)")
    parser.add_argument("--once", action="store_true",
                        help="send what the journal holds now and exit")
    return parser


def _floor_parser() -> CommandParser:
    parser = CommandParser(prog="croupier floor", description="The casino floor's database.")
    sub = parser.add_subparsers(dest="action", required=True, parser_class=CommandParser)
    for name, text in (("init", "create or migrate the floor's schema"),
                       ("verify", "walk every table's chain on the floor again"),
                       ("password", "set the surveillance page's password (read from stdin)")):
        sub.add_parser(name, help=text).add_argument("--floor", required=True, metavar="DSN")
    key = sub.add_parser("key", help="give the floor a table's secret, to check its HMACs")
    key.add_argument("--floor", required=True, metavar="DSN")
    key.add_argument("--table", required=True)
    key.add_argument("--key-file", required=True)
    serve = sub.add_parser("serve", help="the surveillance page")
    serve.add_argument("--floor", required=True, metavar="DSN")
    serve.add_argument("--listen", default="127.0.0.1:8716", metavar="HOST:PORT")
    serve.add_argument("--session-minutes", type=float, default=480.0,
                       help="how long a login lasts (default 480)")
    demo = sub.add_parser("demo", help="an embedded PostgreSQL, eight tables and the page")
    demo.add_argument("--tables", type=int, default=8, choices=range(1, 51), metavar="N")
    demo.add_argument("--pace", type=float, default=0.4, help="seconds between cards")
    demo.add_argument("--listen", default="127.0.0.1:8716", metavar="HOST:PORT")
    demo.add_argument("--data", type=Path, help="keep the demo's database here")
    return parser


def main(command: str, args: list[str]) -> int:
    try:
        if command == "ship":
            return _ship(_ship_parser().parse_args(args))
        return _floor(_floor_parser().parse_args(args))
    except CroupierError as err:
        print(f"croupier {command}: {err}", file=sys.stderr)
        return 2
    except psycopg.Error as err:  # a floor without its schema, a role without its rights
        print(f"croupier {command}: the floor refused: {one_line(err)}", file=sys.stderr)
        return 2


def _ship(options: argparse.Namespace) -> int:
    from floor.shipper import Shipper, ship_once

    if options.once:
        return ship_once(options.journal, options.table, options.floor)
    shipper = Shipper(options.journal, options.table, options.floor)
    stop = threading.Event()

    def _stop(_signal: int, _frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    shipper.follow(stop, lambda line: print(f"croupier ship: {line}", file=sys.stderr,
                                            flush=True))
    return 0


def _floor(options: argparse.Namespace) -> int:
    match options.action:
        case "init":
            from floor.schema import migrate

            applied = migrate(options.floor)
            print("floor schema: " + (f"applied {', '.join(applied)}" if applied
                                      else "up to date"))
            return 0
        case "verify":
            return _verify(options.floor)
        case "password":
            from floor.auth import set_password

            ask = getpass.getpass if sys.stdin.isatty() else (lambda _p: sys.stdin.readline())
            set_password(options.floor, ask("floor password: ").strip())
            print("floor password set")
            return 0
        case "key":
            from app.journal_commands import read_secret
            from floor.auth import set_table_key

            secret = read_secret(options.key_file)
            assert secret is not None  # a named key file is read or refused
            set_table_key(options.floor, options.table, secret)
            print(f"the floor now checks table {options.table}'s rows with its key")
            return 0
        case "serve":
            from floor.web import serve

            return serve(options.floor, options.listen, options.session_minutes * 60)
        case "demo":
            from floor.demo import run_demo

            return run_demo(options.tables, options.pace, options.listen, options.data)
    raise AssertionError(options.action)


def _verify(dsn: str) -> int:
    from floor.verify import verify_floor

    verdicts = verify_floor(dsn)
    bad = [v for v in verdicts if v.bad_row is not None]
    for v in verdicts:
        if v.bad_row is not None:
            print(f"table {v.table}: row {v.bad_row}: {v.reason}")
        elif not v.hashes_checked:
            print(f"table {v.table}: {v.rows} rows linked (keyed: its HMACs need its key)")
    print(f"{len(verdicts) - len(bad)} of {len(verdicts)} tables hold their chain on the floor")
    return 1 if bad else 0
