"""Driver benchmarks: decoding throughput per dialect, and the latency from the last byte
of a card's frame written to a pty to the engine's decision, over thousands of cards."""

from __future__ import annotations

import os
import queue
import random
import statistics
import threading
import time
import tty

from croupier.cards import ALL_CARDS
from croupier.engine import Shoe
from croupier.events import CardDrawn, ShoeEvent
from croupier.rulebook import load_rulebook
from croupier.shuffle import regulation_shoe
from drivers.decode import decode_bytes
from drivers.dialects import DIALECTS, DecoderOptions, dialect_named
from drivers.messages import CardRead, CutRead, Message
from drivers.serial_shoe import SerialShoe

SHOES_DECODED = 40
LATENCY_CARDS = 2000
NOISE_BYTES = 1_000_000
WAIT = 2.0  # longest wait for one card's decision before it counts as lost


def shoe_messages(shoes: int, seed: int = 1) -> list[Message]:
    rng = random.Random(seed)
    return [
        CardRead(e.card, e.face_up) if isinstance(e, CardDrawn) else CutRead()
        for _ in range(shoes)
        for e in regulation_shoe(rng, face_up_rate=0.01)
    ]


def throughput(dialect: str, data: bytes) -> float:
    start = time.perf_counter()
    decode_bytes(data, dialect)
    return len(data) / (time.perf_counter() - start) / 1e6


def clean_stream(dialect: str, messages: list[Message]) -> bytes:
    spec = dialect_named(dialect)
    options = DecoderOptions()
    data = b"".join(spec.transmission(m, i, options) for i, m in enumerate(messages))
    assert len(decode_bytes(data, dialect)) == len(messages), dialect
    return data


def latency(dialect: str, cards: int) -> list[float]:
    """Seconds from the write of a card's last byte to the engine's answer, per card."""
    spec = dialect_named(dialect)
    options = DecoderOptions()
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    shoe = SerialShoe(path, dialect)
    events: queue.Queue[ShoeEvent] = queue.Queue()
    def read() -> None:
        for event in shoe.events():
            events.put(event)

    reader = threading.Thread(target=read, name="bench-reader")
    reader.start()
    rulebook = load_rulebook("venezia")
    engine = Shoe(rulebook)
    rng = random.Random(7)
    times: list[float] = []
    try:
        time.sleep(0.2)  # the reader opens (and flushes) the port first
        for n in range(cards):
            if n % 300 == 0:
                engine = Shoe(rulebook)  # a fresh sixain every 300 cards
            message = CardRead(rng.choice(ALL_CARDS))
            os.write(master, spec.transmission(message, n, options))
            written = time.perf_counter()
            while True:
                event = events.get(timeout=WAIT)
                engine.apply(event)
                if isinstance(event, CardDrawn):
                    break
            times.append(time.perf_counter() - written)
    finally:
        shoe.close()
        reader.join(5.0)
        os.close(master)
        os.close(slave)
    return times


def main() -> None:
    messages = shoe_messages(SHOES_DECODED)
    noise = random.Random(3).randbytes(NOISE_BYTES)
    print(f"decoding throughput ({SHOES_DECODED} shoes, {len(messages)} messages):")
    for dialect in DIALECTS:
        data = clean_stream(dialect, messages)
        clean, noisy = throughput(dialect, data), throughput(dialect, noise)
        print(
            f"  {dialect:<7} clean {clean:7.2f} MB/s ({len(data) / 1e3:.0f} kB)"
            f"   random bytes {noisy:7.2f} MB/s ({NOISE_BYTES / 1e6:.0f} MB)"
        )
    print(f"latency, last byte written to the pty -> engine decision ({LATENCY_CARDS} cards):")
    for dialect in DIALECTS:
        times = sorted(latency(dialect, LATENCY_CARDS))
        p50 = statistics.median(times) * 1e3
        p99 = times[int(len(times) * 0.99) - 1] * 1e3
        worst = times[-1] * 1e3
        print(f"  {dialect:<7} p50 {p50:6.3f} ms   p99 {p99:6.3f} ms   max {worst:6.3f} ms")
