"""The shoe simulator: plays a `.shoe` fixture down a pty or a loopback TCP port, in any
dialect, at a dealer's pace or flat out, with faults, answering native resend requests.

    python -m hardware_sims.shoe_sim FIXTURE --dialect D [--pty | --listen 127.0.0.1:PORT]
        [--pace SECONDS] [--faults SPEC] [--seed N]

The first line on stdout is what a receiver opens: the pty's path (a symlink that stays
the same across a pulled cable) or a `socket://` URL. The first card waits for a receiver;
after that the shoe deals at its pace whether or not the cable is in. It runs until
stopped (SIGTERM or Ctrl-C), or `--linger` seconds after the last message.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType as StackFrame

from app.argparsing import CommandParser, seconds
from croupier.errors import CroupierError
from croupier.events import CardDrawn, CutCard
from croupier.fixtures import parse_shoe
from drivers.checks import CHECKS, UNVERIFIED
from drivers.dialects import DIALECTS, DecoderOptions, Dialect, dialect_named
from drivers.messages import CardRead, CutRead, Message
from drivers.native_frames import SEQ_MODULUS, FrameType, NativeFrame, NativeFramer
from hardware_sims.sim_faults import FaultInjector, FaultSpec, FaultSpecError
from hardware_sims.sim_links import Link, PtyLink, TcpLink

IDLE_WAIT = 0.05
HISTORY = 512  # frames kept for resending: more than a whole shoe


def fixture_messages(text: str, origin: str) -> list[Message]:
    """What a shoe reads, in order, for a fixture's cards and cut card."""
    messages: list[Message] = []
    for event in parse_shoe(text, origin=origin):
        if isinstance(event, CardDrawn):
            messages.append(CardRead(event.card, event.face_up))
        elif isinstance(event, CutCard):
            messages.append(CutRead())
    return messages


class ShoeSimulator:
    """Sends the messages over a link, one sequence number each, keeping the native
    protocol's history so that resend requests can be answered."""

    def __init__(
        self,
        messages: list[Message],
        dialect: Dialect,
        link: Link,
        *,
        pace: float = 0.0,
        faults: FaultSpec | None = None,
        seed: int = 0,
        heartbeat: float = 1.0,
        options: DecoderOptions | None = None,
    ) -> None:
        self._messages = messages
        self._dialect = dialect
        self._link = link
        self._pace = pace
        self._spec = faults or FaultSpec()
        self._faults = FaultInjector(self._spec, random.Random(seed))
        self._heartbeat_every = heartbeat
        self._options = options or DecoderOptions()
        self._native = dialect.name == "native"
        self._seq = 0
        self._history: dict[int, bytes] = {}
        self._requests = NativeFramer()
        self._last_sent = 0.0
        self.sent = 0

    def run(
        self, stop: Callable[[float], bool], clock: Callable[[], float] = time.monotonic
    ) -> None:
        """Runs until `stop(now)` says so; `now` is the clock's time."""
        unplugs = list(self._spec.unplugs)
        next_at = clock()
        replug_at: float | None = None
        was_connected = False
        while not stop(now := clock()):
            if replug_at is not None and now >= replug_at:
                self._link.replug()
                replug_at = None
            connected = replug_at is None and self._link.connected(now)
            if connected and not was_connected and self._native:
                self._heartbeat(now)  # a receiver arrived: tell it where the count stands
            was_connected = connected
            if not self.sent and not connected:
                next_at = now  # the dealer waits for the table before the first card
            if replug_at is None and unplugs and self.sent >= unplugs[0].after:
                self._link.unplug()
                replug_at = now + unplugs.pop(0).seconds
                continue
            more = self.sent < len(self._messages)
            flat_out_ready = connected and not self._link.pending()
            dealing = self._pace > 0 and (self.sent or connected)
            if more and now >= next_at and (dealing or flat_out_ready):
                self._send(self._messages[self.sent], connected, now)
                next_at = now + self._pace
            elif self._native and connected and now - self._last_sent >= self._heartbeat_every:
                self._heartbeat(now)
            wait = IDLE_WAIT
            if more and self._pace > 0:
                wait = min(wait, max(0.0, next_at - now))
            elif more and flat_out_ready:
                wait = 0.0
            incoming = self._link.exchange(wait)
            if incoming and self._native:
                self._answer(incoming, now)

    def _send(self, message: Message, connected: bool, now: float) -> None:
        """A shoe deals whether or not the cable is in: unsent frames are lost (and kept for
        resending, in the native protocol)."""
        frame = self._dialect.encode(self._faults.message(message), self._seq, self._options)
        if self._native:
            self._history[self._seq] = frame
            self._history.pop((self._seq - HISTORY) % SEQ_MODULUS, None)
        if connected:
            for _ in range(self._dialect.copies):
                self._link.write(self._faults.frame(frame))
        self._seq = (self._seq + 1) % SEQ_MODULUS
        self.sent += 1
        self._last_sent = now

    def _heartbeat(self, now: float) -> None:
        self._link.write(self._faults.frame(NativeFrame(self._seq, FrameType.HEARTBEAT).encode()))
        self._last_sent = now

    def _answer(self, data: bytes, now: float) -> None:
        for frame in self._requests.feed(data):
            if isinstance(frame, NativeFrame) and frame.type is FrameType.RESEND:
                for offset in range(frame.payload[0]):
                    held = self._history.get((frame.seq + offset) % SEQ_MODULUS)
                    if held is not None:
                        self._link.write(self._faults.frame(held))
                self._last_sent = now


def _parser() -> CommandParser:
    parser = CommandParser(
        prog="python -m hardware_sims.shoe_sim", description=__doc__.split("\n")[0]
    )
    parser.add_argument("fixture", help="a .shoe fixture")
    parser.add_argument("--dialect", required=True, choices=list(DIALECTS))
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--pty", action="store_true", help="serve a pseudo-terminal (default)")
    where.add_argument("--listen", metavar="HOST:PORT", help="serve a loopback TCP port")
    parser.add_argument("--pace", type=seconds, default=0.0, help="seconds a card (0: flat out)")
    parser.add_argument("--faults", default="", help="fault spec, see hardware_sims.sim_faults")
    parser.add_argument("--seed", type=int, default=0, help="seed of the faults")
    parser.add_argument("--heartbeat", type=seconds, default=1.0,
                        help="native heartbeat period")
    parser.add_argument(
        "--check",
        default="crc16-ccitt",
        choices=[UNVERIFIED, *CHECKS],
        help="angel check algorithm to send",
    )
    parser.add_argument("--linger", type=seconds,
                        help="exit this long after the last message")
    parser.add_argument("--exit-with-parent", action="store_true",
                        help="exit when the process that started it is gone (even killed)")
    return parser


def _listen_address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if host not in ("127.0.0.1", "localhost", "::1") or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"--listen wants a loopback HOST:PORT (127.0.0.1:7000), not {text!r}")
    return host, int(port)


def _stop_on_signal(signum: int, frame: StackFrame | None) -> None:
    raise SystemExit(0)


def main(argv: list[str] | None = None) -> int:
    options = _parser().parse_args(argv)
    try:
        text = Path(options.fixture).read_text(encoding="utf-8")
        messages = fixture_messages(text, options.fixture)
        spec = FaultSpec.parse(options.faults)
        address = _listen_address(options.listen) if options.listen else None
        if options.pace < 0 or options.heartbeat <= 0:
            raise ValueError("--pace must be >= 0 and --heartbeat > 0")
    except (OSError, UnicodeDecodeError, CroupierError, FaultSpecError, ValueError) as err:
        print(f"shoe_sim: {err}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, _stop_on_signal)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even if ignored by the shell
    directory = Path(tempfile.mkdtemp(prefix="shoe-sim-"))
    link: Link | None = None
    try:
        link = TcpLink(*address) if address else PtyLink(directory)
        print(link.url, flush=True)
        simulator = ShoeSimulator(
            messages,
            dialect_named(options.dialect),
            link,
            pace=options.pace,
            faults=spec,
            seed=options.seed,
            heartbeat=options.heartbeat,
            options=DecoderOptions(check=options.check),
        )
        done_at: list[float] = []
        parent = os.getppid()

        def stop(now: float) -> bool:
            if options.exit_with_parent and os.getppid() != parent:
                return True  # orphaned: the table that owned this shoe was killed
            if options.linger is None or simulator.sent < len(messages):
                return False
            done_at[:] = done_at or [now]
            return now - done_at[0] >= options.linger

        simulator.run(stop)
    except KeyboardInterrupt:
        pass
    except OSError as err:
        print(f"shoe_sim: {err}", file=sys.stderr)
        return 1
    finally:
        if link is not None:
            link.close()
        shutil.rmtree(directory, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
