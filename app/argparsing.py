"""The argument parser every `croupier` command uses."""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Any, NoReturn


class _Formatter(argparse.HelpFormatter):
    """argparse's help, told the terminal's width: left to find it, argparse imports shutil
    to ask, which is 2 ms of the 45 a one-shoe replay takes from start to end."""

    def __init__(self, prog: str) -> None:
        try:
            columns = int(os.environ["COLUMNS"])
        except (KeyError, ValueError):
            try:
                columns = os.get_terminal_size(sys.stdout.fileno()).columns
            except (AttributeError, ValueError, OSError):
                columns = 80  # not a terminal: shutil.get_terminal_size's fallback too
        super().__init__(prog, width=columns - 2)


class CommandParser(argparse.ArgumentParser):
    """Usage errors exit 2 with one line on stderr, like every other bad input."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: {message}", file=sys.stderr)
        sys.exit(2)


def seconds(text: str) -> float:
    """An argument type: a finite number of seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"seconds are a finite number of 0 or more, not {text}")
    return value


def frame_size(text: str) -> tuple[int, int]:
    """An argument type: `WIDTHxHEIGHT`, each from 16 to 8192 pixels."""
    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit()):
        raise argparse.ArgumentTypeError(f"a size is WIDTHxHEIGHT, such as 1280x720: {text!r}")
    size = int(width), int(height)
    if not all(16 <= side <= 8192 for side in size):
        raise argparse.ArgumentTypeError(f"each side is 16 to 8192 pixels: {text!r}")
    return size
