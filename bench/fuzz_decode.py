"""How `make fuzz` decodes what it sends: as a capture (whole, and under a random split of
the reads, which must give the same messages) and live, on a clock, with a native shoe
answering resend requests over the same bad line."""

from __future__ import annotations

import itertools
import random

from bench.fuzz_inputs import Faults, Stream, damage
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
) -> list[Message]:
    """Frames arrive one by one on a clock, the line goes quiet now and then; a native
    shoe answers resend requests, through the same bad line. The bytes the decoder was
    fed go to `received`."""
    decoder = new_decoder(case, live=True, stream=stream)
    history: dict[int, bytes] = {}
    last = 0  # the number of the last data frame sent
    requests = NativeFramer()
    out: list[Message] = []
    now = 0.0

    def answer() -> bytes:
        reply = decoder.outgoing()
        if not reply:
            return b""
        asked = [f for f in requests.feed(reply) if isinstance(f, NativeFrame)]
        frames = [
            history[held]
            for f in asked
            for offset in range(f.payload[0])
            if (held := (f.seq + offset) % SEQ_MODULUS) in history
        ]
        return damage(frames, faults, rng, stale)

    for frame in frames:
        if case == "native":
            seq = int.from_bytes(frame[2:4], "big")
            if history and seq != (last + 1) % SEQ_MODULUS:
                history.clear()  # a shoe whose count restarted resends from its new count
            if frame[4] != FrameType.HEARTBEAT.value:
                history[seq] = frame
                last = seq
        now += 0.002
        arrived = damage([frame], faults, rng, stale)
        if received is not None:
            received += arrived
        out += decoder.feed(arrived, now)
        if rng.random() < 0.05:
            now += 0.5
            out += decoder.idle(now)
        if reply := answer():  # nothing to feed: the decoder already acted at `now`
            out += decoder.feed(reply, now)
    if case == "native":
        end = (stream.seqs[-1] + 1) % SEQ_MODULUS
        beat = NativeFrame(end, FrameType.HEARTBEAT).encode()
        quiet = 0
        # the shoe idles, a heartbeat a second, until the receiver has everything up to the
        # shoe's count delivered or reported lost
        for _ in range(300):
            settled = not isinstance(decoder, NativeReceiver) or decoder.position() == end
            if quiet >= QUIET and settled:
                break
            now += 1.0
            more = decoder.feed(damage([beat], faults, rng, []), now)
            if reply := answer():
                more += decoder.feed(reply, now)
            quiet = 0 if any(not isinstance(m, Garbage) for m in more) else quiet + 1
            out += more
    now += 1.0
    out += decoder.idle(now)
    return out + decoder.finish()
