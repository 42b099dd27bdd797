"""The argument parser every `croupier` command uses."""

from __future__ import annotations

import argparse
import math
import sys
from typing import NoReturn


class CommandParser(argparse.ArgumentParser):
    """Usage errors exit 2 with one line on stderr, like every other bad input."""

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
