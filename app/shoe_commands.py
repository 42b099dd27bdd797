"""`croupier decode` and `croupier table`, handed over by `app.cli`."""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
from typing import TYPE_CHECKING

from app.argparsing import CommandParser
from croupier.errors import CroupierError
from drivers.checks import CHECKS, UNVERIFIED
from drivers.decode import decode_bytes
from drivers.dialects import DIALECTS, DecoderOptions, dialect_named
from drivers.errors import ShoeError
from drivers.to_events import message_json, message_line

if TYPE_CHECKING:  # the journal loads only for a table, not for `decode`
    from app.reading import Source
    from app.runtime import Playing
    from croupier.rulebook import Rulebook
    from drivers.backends import CameraWitness, ShoeSource

TABLE_BACKENDS = ("serial", "sim", "replay", "capture")
MAX_CAPTURE = 64 * 2**20  # a day of a busy shoe at 115200 baud is a few MiB


def _seq_range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    if not (low.isdigit() and high.isdigit() and int(low) < int(high) <= 255):
        raise argparse.ArgumentTypeError(f"want LOW-HIGH within 0-255, e.g. 48-57, not {text!r}")
    return int(low), int(high)


def _add_check(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--check",
        default=UNVERIFIED,
        choices=[UNVERIFIED, *CHECKS],
        help="angel's check algorithm, which is not published (default: not verified, "
        "two agreeing copies needed)",
    )
    parser.add_argument(
        "--seq-range",
        type=_seq_range,
        metavar="LOW-HIGH",
        help="angel's sequence numbers, when the shoe model's range is known (default: "
        "learned from the stream)",
    )


def _decode_parser() -> CommandParser:
    parser = CommandParser(prog="croupier decode", description="Decode bytes captured from a shoe.")
    parser.add_argument("file", help="the raw bytes, or - for stdin")
    parser.add_argument("--dialect", required=True, choices=list(DIALECTS))
    parser.add_argument("--json", action="store_true", help="one JSON object per message")
    _add_check(parser)
    return parser


def decode(args: list[str]) -> int:
    options = _decode_parser().parse_args(args)
    try:
        if options.file == "-":
            if sys.stdin is None:
                raise OSError(0, "there is no standard input")
            data = sys.stdin.buffer.read(MAX_CAPTURE + 1)
        else:
            with open(options.file, "rb") as f:
                data = f.read(MAX_CAPTURE + 1)
    except OSError as err:
        print(f"croupier decode: cannot read {options.file!r}: {err.strerror}", file=sys.stderr)
        return 2
    if len(data) > MAX_CAPTURE:
        print(f"croupier decode: {options.file!r} is larger than {MAX_CAPTURE // 2**20} MiB; "
              "split the capture", file=sys.stderr)
        return 2
    found = decode_bytes(data, options.dialect, check=options.check, seq_range=options.seq_range)
    for message in found:
        if not options.json:
            print(message_line(message))
        elif (obj := message_json(message)) is not None:
            print(json.dumps(obj, ensure_ascii=False))
    return 0


def _table_parser() -> CommandParser:
    parser = CommandParser(
        prog="croupier table",
        description="A headless live table: prints each card, the points, the calls and the "
        "payout order as the coup unfolds. Ctrl-C stops it.",
    )
    parser.add_argument("--shoe", help="the shoe's port: a device, socket://host:port, a pty")
    parser.add_argument("--dialect", default="native", choices=list(DIALECTS))
    parser.add_argument("--rules", default="venezia", help="rulebook name or .toml path")
    parser.add_argument(
        "--backend",
        default="serial",
        choices=TABLE_BACKENDS,
        help="what --shoe names: a port (serial), a fixture played by the simulator (sim) "
        "or directly (replay), a capture file (capture)",
    )
    parser.add_argument("--camera", metavar="SOURCE",
                        help="a camera over the layout: a device index, a video file or a "
                        "folder of frames; alone it reads the cards, beside --shoe it "
                        "witnesses them: any difference from the shoe is an alarm")
    parser.add_argument("--journal", metavar="FILE.db",
                        help="the table's journal, restored if it exists (default: "
                        "table.db in the user's data folder)")
    parser.add_argument("--new-shoe", action="store_true",
                        help="a fresh sixain: close the journal's shoe and burn again")
    parser.add_argument("--no-journal", action="store_true",
                        help="keep nothing (tests and demonstrations only)")
    parser.add_argument("--key-file", help="the table's secret for a keyed journal")
    parser.add_argument("--floor", metavar="DSN",
                        help="ship the journal to the casino floor's PostgreSQL as it grows")
    parser.add_argument("--table", dest="table_id", metavar="ID",
                        help="the table's name on the floor (with --floor)")
    _add_check(parser)
    return parser


def table(args: list[str]) -> int:
    from app.runtime import Runtime, TextSink
    from croupier.events import NewShoe
    from croupier.rulebook import load_rulebook
    from journal.live import JournaledTable

    options = _table_parser().parse_args(args)
    if options.shoe is None and options.camera is None:
        _table_parser().error("give --shoe, --camera, or both")
    if (options.floor is None) != (options.table_id is None) or (
            options.floor and options.no_journal):
        _table_parser().error("--floor and --table go together, with a journal")
    try:
        rulebook = load_rulebook(options.rules)
        playing, sources, camera = _open_table(options, rulebook)
    except (CroupierError, ShoeError, OSError) as err:
        print(f"croupier table: {err}", file=sys.stderr)
        return 2
    runtime = Runtime(lambda: playing, sources, TextSink(sys.stdout, sys.stderr,
                                                          "croupier table: "),
                      camera=camera, until_sources_end=True, stop_on_error=True)
    if runtime.open() is None:  # any gap alarmed first; the sink said why it could not
        return 1
    shipping: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
    if isinstance(playing, JournaledTable):
        print(f"croupier table: journal {playing.journal.path} "
              f"({playing.journal.head[0]} rows)", file=sys.stderr)
        if options.floor:
            from floor.beside import shipper_beside

            shipping = shipper_beside(str(playing.journal.path), options.table_id,
                                      options.floor)
    if options.new_shoe:
        runtime.submit(NewShoe())
    # Ctrl-C stops the table even when started from a shell that ignores it in background
    # jobs (an ignored SIGINT is inherited); SIGTERM stops it as cleanly.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    print(f"croupier table: rules {rulebook.name}; Ctrl-C to stop", file=sys.stderr)
    try:
        with shipping:
            runtime.run()
    except KeyboardInterrupt:
        print("croupier table: stopped", file=sys.stderr)
    # The journal can no longer be written: stopped, rather than show what it did not keep.
    return 1 if runtime.error is not None else 0


def _open_table(
    options: argparse.Namespace, rulebook: Rulebook
) -> tuple[Playing, list[Source], CameraWitness | None]:
    """The table's journal (or memory), its sources and its witness, all opened, or none
    left open."""
    from app.journal_commands import read_secret
    from app.memory_table import MemoryTable
    from app.reading import opened
    from drivers.backends import CameraReader, CameraWitness, open_backend
    from journal.live import JournaledTable, default_journal_path

    sources: list[Source] = []
    backends: list[ShoeSource] = []
    camera: CameraWitness | None = None
    playing: Playing | None = None
    try:
        dialect = dialect_named(options.dialect)
        if options.no_journal:
            playing = MemoryTable(rulebook)
        else:
            journal = options.journal or str(default_journal_path())
            playing = JournaledTable.open(journal, rulebook,
                                          secret=read_secret(options.key_file))
        decoding = DecoderOptions(check=options.check, resume_at=playing.link,
                                  seq_range=options.seq_range)
        if options.shoe is not None:
            shoe = open_backend(options.backend, options.shoe, dialect=options.dialect,
                                options=decoding)
            backends.append(shoe)
            # A live link's gap is alarmed when the table restarts; a capture has none.
            live = options.backend in ("serial", "sim")
            sources.append(opened("shoe", shoe, resends=dialect.resends if live else None))
        if options.camera is not None and options.shoe is not None:
            camera = CameraWitness(options.camera)  # the shoe deals, the camera witnesses
        elif options.camera is not None:
            reader = CameraReader(options.camera, rulebook)
            backends.append(reader)
            sources.append(opened("camera", reader, resends=None))
    except BaseException:
        for backend in backends:
            backend.close()
        if camera is not None:
            camera.close()
        if playing is not None:
            playing.close()
        raise
    return playing, sources, camera


def main(command: str, args: list[str]) -> int:
    """Entry point for `croupier decode …` and `croupier table …`."""
    try:
        if command == "decode":
            return decode(args)
        if command == "table":
            return table(args)
    except ShoeError as err:
        print(f"croupier {command}: {err}", file=sys.stderr)
        return 2
    print(f"croupier: {command!r} is not a drivers command", file=sys.stderr)
    return 2
