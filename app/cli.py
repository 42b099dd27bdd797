"""The `croupier` command: each subcommand handed to the module of the application that
runs it."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import cast

# Each command's module is imported only when asked for, so that `croupier replay` never
# pays for pyserial, OpenCV or Qt.
COMMANDS = {
    "replay": "app.replay",
    "demo": "app.replay",
    "odds": "app.odds_command",
    "audit": "app.journal_commands",
    "stats": "app.journal_commands",
    "decode": "app.shoe_commands",
    "table": "app.shoe_commands",
    "ui": "app.ui_commands",
    "screenshot": "app.ui_commands",
    "ship": "floor.cli",
    "floor": "floor.cli",
}
USAGE = "usage: croupier {" + ",".join(COMMANDS) + "} ..."


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _dispatch(list(sys.argv[1:] if argv is None else argv))
    except BrokenPipeError:
        # The reader went away (`| head`): say nothing more, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as err:
        # Whatever a command could not read it reports itself; this is output that could
        # not be written (a full disk, a closed terminal).
        print(f"croupier: cannot write the output: {err}", file=sys.stderr)
        return 1


def _dispatch(args: list[str]) -> int:
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command in COMMANDS:
        module = importlib.import_module(COMMANDS[command])
        run = cast(Callable[[str, list[str]], int], module.main)
        return run(command, rest)
    print(f"croupier: invalid choice: {command!r}\n{USAGE}", file=sys.stderr)
    return 2
