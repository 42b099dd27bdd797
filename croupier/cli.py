"""The `croupier` command: engine commands here, edge commands handed to their packages."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import cast

# Edge commands live with the edge they drive, imported only when asked for, so that
# `croupier replay` never pays for pyserial, OpenCV or Qt.
EDGE_COMMANDS = {
    "odds": "croupier.odds",
    "audit": "journal.cli",
    "stats": "journal.cli",
    "decode": "drivers.cli",
    "table": "drivers.cli",
    "ui": "ui.cli",
    "screenshot": "ui.cli",
    "ship": "floor.cli",
    "floor": "floor.cli",
}
ENGINE_COMMANDS = ("replay", "demo")
USAGE = "usage: croupier {" + ",".join((*ENGINE_COMMANDS, *EDGE_COMMANDS)) + "} ..."


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
    if command in ENGINE_COMMANDS:
        from croupier import commands

        return commands.run(command, rest)
    if command in EDGE_COMMANDS:
        module = importlib.import_module(EDGE_COMMANDS[command])
        edge_main = cast(Callable[[str, list[str]], int], module.main)
        return edge_main(command, rest)
    print(f"croupier: invalid choice: {command!r}\n{USAGE}", file=sys.stderr)
    return 2
