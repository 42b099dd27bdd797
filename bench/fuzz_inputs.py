"""What `make fuzz` sends: a shoe's stream of messages in each dialect's frames, and the
damage a bad line does to them."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from croupier.cards import ALL_CARDS
from drivers import angel, bee
from drivers.checks import crc16_ccitt
from drivers.messages import CardRead, CutRead, Message, Misread, ShoeAlarm
from drivers.native_frames import SEQ_MODULUS, FrameType, NativeFrame
from drivers.native_messages import message_frame

COUNTERS = (10, 16, 32, 64, 100, 128, 256)


@dataclass(frozen=True, slots=True)
class Faults:
    """Per-input rates (per frame, or per byte); many inputs get none at all."""

    drop_frame: float
    dup_frame: float
    stale: float
    flip: float
    drop_byte: float
    dup_byte: float
    noise: float

    @classmethod
    def draw(cls, rng: random.Random) -> Faults:
        if rng.random() < 0.15:
            return cls(0, 0, 0, 0, 0, 0, 0)
        scale = rng.choice((0.003, 0.02, 0.08))
        return cls(*(rng.random() * scale for _ in range(7)))

    @property
    def per_byte(self) -> float:
        return self.flip + self.drop_byte + self.dup_byte


@dataclass(frozen=True, slots=True)
class Stream:
    """What a shoe sent: messages, each with its sequence number, and where the count
    started again (indices into `messages`)."""

    messages: list[Message]
    seqs: list[int]
    restarts: frozenset[int]
    bottom: int  # the counter's lowest number
    top: int  # and its highest


def shoe_stream(rng: random.Random, values: int, first: int) -> Stream:
    count = rng.randint(1, 52)  # cards unique in a stream, so that alignment is exact
    cards = rng.sample(ALL_CARDS, 52)
    messages: list[Message] = []
    # one cut card and one failed read at most, as in a shoe: so that alignment is exact
    for index in range(count):
        roll = rng.random()
        if roll < 0.04 and CutRead() not in messages:
            messages.append(CutRead())
        elif roll < 0.08 and Misread() not in messages:
            messages.append(Misread())
        elif roll < 0.11:
            messages.append(ShoeAlarm(f"E{rng.randint(0, 9)} SHOE {index}"))
        else:
            messages.append(CardRead(cards[index % 52], rng.random() < 0.05))
    start = rng.randrange(values)
    seqs = [first + (start + i) % values for i in range(count)]
    restarts: set[int] = set()
    if count > 3 and rng.random() < 0.2:
        at = rng.randrange(1, count)
        seqs[at:] = [first + i % values for i in range(count - at)]
        restarts.add(at)
    return Stream(messages, seqs, frozenset(restarts), first, first + values - 1)


@dataclass(frozen=True, slots=True)
class Span:
    """Where bytes that arrived came from, recorded as the line damaged them: `start` their
    offset in what arrived, `frame` the index of the frame sent they are a copy of (None:
    noise, or a stale frame put back). Only this tells which message a frame received came
    from: its number may be damaged too (issue 11, seed 30007158)."""

    start: int
    frame: int | None

    def shifted(self, offset: int, frames: int) -> Span:
        """The span in a longer stream, `offset` bytes and `frames` frames on."""
        return Span(self.start + offset, None if self.frame is None else self.frame + frames)


def damage(
    frames: list[bytes],
    faults: Faults,
    rng: random.Random,
    stale: list[bytes],
    spans: list[Span] | None = None,
) -> bytes:
    """The bytes that arrive for `frames`; `stale` are frames sent earlier, which a bad
    line or a confused shoe may put back. Where each part of them came from goes to
    `spans`, when given (it draws nothing: the bytes are those drawn without it)."""
    out = bytearray()
    origins: list[Span] = [] if spans is None else spans
    for index, frame in enumerate(frames):
        if stale and rng.random() < faults.stale:
            origins.append(Span(len(out), None))
            out += rng.choice(stale)
        if rng.random() < faults.noise:
            origins.append(Span(len(out), None))
            out += rng.randbytes(rng.randint(1, 12))
        if rng.random() < faults.drop_frame:
            continue
        copies = 2 if rng.random() < faults.dup_frame else 1
        for _ in range(copies):
            origins.append(Span(len(out), index))
            out += _bytes_damaged(frame, faults, rng)
    return bytes(out)


def _bytes_damaged(frame: bytes, faults: Faults, rng: random.Random) -> bytes:
    """`frame` with each byte dropped, flipped or doubled at the faults' rates: the distance
    to the next damaged byte is drawn (geometric), not a coin tossed for every byte."""
    rate = faults.per_byte
    if not rate:
        return frame
    out = bytearray()
    at = 0
    log_keep = math.log(1.0 - rate)
    while True:
        skip = int(math.log(1.0 - rng.random()) / log_keep)
        if at + skip >= len(frame):
            return bytes(out + frame[at:])
        out += frame[at : at + skip]
        at += skip
        byte = frame[at]
        roll = rng.random() * rate
        if roll < faults.flip:
            out.append(byte ^ (1 << rng.randrange(8)))
        elif roll < faults.flip + faults.dup_byte:
            out += bytes((byte, byte))
        at += 1  # dropped, or done


def native_frames(stream: Stream, rng: random.Random) -> list[bytes]:
    frames = []
    for index, (message, seq) in enumerate(zip(stream.messages, stream.seqs, strict=True)):
        if index in stream.restarts or (index == 0 and rng.random() < 0.5):
            frames.append(NativeFrame(seq, FrameType.HEARTBEAT).encode())
        frames.append(message_frame(message, seq).encode())
        if rng.random() < 0.1:
            frames.append(NativeFrame((seq + 1) % SEQ_MODULUS, FrameType.HEARTBEAT).encode())
    return frames


def angel_frames(stream: Stream) -> list[bytes]:
    frames = [
        angel.encode_frame(seq, angel.message_data(message), crc16_ccitt)
        for message, seq in zip(stream.messages, stream.seqs, strict=True)
    ]
    return [frame for frame in frames for _ in range(angel.COPIES)]


def bee_frames(stream: Stream) -> list[bytes]:
    return [bee.message_text(message) for message in stream.messages]
