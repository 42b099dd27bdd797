"""How `make fuzz` decodes what it sends: as a capture (whole, and under a random split of
the reads, which must give the same messages) and live, on a clock, with a native shoe
answering resend requests over the same bad line."""

from __future__ import annotations

import itertools
import random

from bench.fuzz_inputs import Faults, Span, Stream, damage
from drivers.angel_link import AngelDecoder
from drivers.bee import BeeDecoder
from drivers.decoder import Decoder
from drivers.messages import Garbage, Message
from drivers.native_frames import SEQ_MODULUS, FrameType, NativeFrame, NativeFramer
from drivers.native_receiver import NativeReceiver

QUIET = 3  # heartbeats with nothing new, the count settled, that end a live native input


def new_decoder(case: str, live: bool, stream: Stream | None = None) -> Decoder:
    match case:
        case "native":
            first = None if stream is None or not live else stream.seqs[0]
            return NativeReceiver(can_ask=live, resend_after=0.2, first_expected=first)
        case "angel-check":
            return AngelDecoder(check="crc16-ccitt")
        case "angel-none":
            return AngelDecoder(check="none")
        case _:
            return BeeDecoder()


def decode_capture(case: str, data: bytes, cuts: list[int]) -> tuple[list[Message], bool]:
    """The messages of a capture, and whether a split of its reads gave the same."""
    whole = new_decoder(case, live=False)
    want = whole.feed(data, 0.0) + whole.finish()
    if not cuts:
        return want, True
    split = new_decoder(case, live=False)
    edges = [0, *sorted(c % (len(data) + 1) for c in cuts), len(data)]
    got = [m for a, b in itertools.pairwise(edges) for m in split.feed(data[a:b], 0.0)]
    return want, got + split.finish() == want


def decode_live(
    case: str,
    stream: Stream,
    frames: list[bytes],
    faults: Faults,
    rng: random.Random,
    *,
    stale: list[bytes],
    received: bytearray | None = None,
    spans: list[Span] | None = None,
) -> tuple[list[Message], bool]:
    """Frames arrive one by one on a clock, the line goes quiet now and then; a native
    shoe answers resend requests, through the same bad line. The bytes the decoder was
    fed for `frames` go to `received`, and where each part of them came from to `spans`
    (`damage`). With the messages, whether every byte sent (resends
    and heartbeats too) arrived as sent: the line's quiet spells are no damage."""
    line = _Line(new_decoder(case, live=True, stream=stream), faults, rng, stale)
    out: list[Message] = []
    for index, frame in enumerate(frames):
        if case == "native":
            line.keep(frame)
        line.now += 0.002
        parts: list[Span] = []
        arrived = line.damage([frame], stale, parts)
        if received is not None:
            if spans is not None:
                spans += (part.shifted(len(received), index) for part in parts)
            received += arrived
        out += line.decoder.feed(arrived, line.now)
        if rng.random() < 0.05:
            line.now += 0.5
            out += line.decoder.idle(line.now)
        out += line.answer()  # nothing to feed: the decoder already acted at `now`
    if case == "native":
        out += line.settle((stream.seqs[-1] + 1) % SEQ_MODULUS)
    line.now += 1.0
    out += line.decoder.idle(line.now)
    return out + line.decoder.finish(), line.intact


class _Line:
    """A live decoder on a clock, and a native shoe keeping its frames to resend, through the
    same bad line."""

    def __init__(
        self, decoder: Decoder, faults: Faults, rng: random.Random, stale: list[bytes]
    ) -> None:
        self.decoder, self.faults, self.rng, self.stale = decoder, faults, rng, stale
        self.now = 0.0
        self.history: dict[int, bytes] = {}
        self.last = 0  # the number of the last data frame sent
        self.requests = NativeFramer()
        self.intact = True  # every byte sent so far arrived as sent

    def damage(
        self, frames: list[bytes], stale: list[bytes], spans: list[Span] | None = None
    ) -> bytes:
        """What arrives of `frames`, through the bad line (`stale`: frames it may put back;
        `spans`: where its parts came from)."""
        arrived = damage(frames, self.faults, self.rng, stale, spans)
        self.intact = self.intact and arrived == b"".join(frames)
        return arrived

    def keep(self, frame: bytes) -> None:
        seq = int.from_bytes(frame[2:4], "big")
        if self.history and seq != (self.last + 1) % SEQ_MODULUS:
            self.history.clear()  # a shoe whose count restarted resends from its new count
        if frame[4] != FrameType.HEARTBEAT.value:
            self.history[seq] = frame
            self.last = seq

    def answer(self) -> list[Message]:
        """The shoe's answer to what the decoder asked for, fed to it."""
        reply = self.decoder.outgoing()
        if not reply:
            return []
        asked = [f for f in self.requests.feed(reply) if isinstance(f, NativeFrame)]
        frames = [
            self.history[held]
            for f in asked
            for offset in range(f.payload[0])
            if (held := (f.seq + offset) % SEQ_MODULUS) in self.history
        ]
        resent = self.damage(frames, self.stale)
        return self.decoder.feed(resent, self.now) if resent else []

    def settle(self, end: int) -> list[Message]:
        """The shoe idles, a heartbeat a second, until the receiver has everything up to the
        shoe's count delivered or reported lost."""
        beat = NativeFrame(end, FrameType.HEARTBEAT).encode()
        out: list[Message] = []
        quiet = 0
        for _ in range(300):
            settled = (
                not isinstance(self.decoder, NativeReceiver) or self.decoder.position() == end
            )
            if quiet >= QUIET and settled:
                break
            self.now += 1.0
            more = self.decoder.feed(self.damage([beat], []), self.now)
            more += self.answer()
            quiet = 0 if any(not isinstance(m, Garbage) for m in more) else quiet + 1
            out += more
        return out
