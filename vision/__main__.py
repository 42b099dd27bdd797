"""`python -m vision classify|read IMAGE... --json [--deck DIR]` (docs/FORMATS.md (vision))."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from vision.design import Design, builtin_design, load_design
from vision.errors import VisionError
from vision.images import read_picture
from vision.layout import read_layout, read_one


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (
        ("classify", "name the one card face in each image"),
        ("read", "read a whole coup laid in rows on the baize in each image"),
    ):
        sub = commands.add_parser(name, help=text, description=text)
        sub.add_argument("images", nargs="+", metavar="IMAGE")
        sub.add_argument(
            "--json", action="store_true", help="one JSON object per image (the only output)"
        )
        sub.add_argument(
            "--deck", metavar="DIR", help="folder of the 52 faces of the design to calibrate on"
        )
    args = parser.parse_args(argv)
    try:
        design = load_design(args.deck) if args.deck else builtin_design()
    except VisionError as err:
        print(f"vision: {err}", file=sys.stderr)
        return 2
    failed: list[str] = []
    for path in args.images:
        try:
            result = _classify(path, design) if args.command == "classify" else _read(path, design)
        except VisionError as err:
            failed.append(str(err))
            result = (
                {"image": path, "card": None, "confidence": 0.0}
                if args.command == "classify"
                else {"image": path, "rows": []}
            )
            result["error"] = str(err)
        print(json.dumps(result), flush=True)
    if failed:
        more = f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""
        print(f"vision: {failed[0]}{more}", file=sys.stderr)
        return 2
    return 0


def _classify(path: str, design: Design) -> dict[str, object]:
    picture = read_picture(path)
    reading = read_one(picture.pixels, design, bare_face=picture.bare_face)
    card = str(reading.card) if reading.card else None
    return {"image": path, "card": card, "confidence": reading.confidence}


def _read(path: str, design: Design) -> dict[str, object]:
    picture = read_picture(path)
    rows = read_layout(picture.pixels, design, bare_face=picture.bare_face)
    return {
        "image": path,
        "rows": [[str(s.reading.card) if s.reading.card else None for s in row] for row in rows],
    }


if __name__ == "__main__":
    sys.exit(main())
