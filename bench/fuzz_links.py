"""`make fuzz`: the shoe links under mutated real frames and random bytes, every dialect.

    python -m bench.fuzz_links [--seconds S] [--inputs N] [--seed K]

Each input is a short stream a shoe sends (cards, cut card, failed reads, alarms; numbered
by a counter of 10 to 65536 values that may restart), with its frames and bytes dropped,
doubled, flipped, stale copies and heartbeats put back, noise between them. It is decoded
as a capture (and again under a random split of the reads, which must give the same
messages) and live (with idle calls on a clock; a native shoe answers resend requests
over the same bad line). What was delivered is aligned exactly against what was sent:
each sent message is delivered, delivered as a misread, reported missing (`lost`, or a
restart alarm), or lost silently; each delivered card that matches nothing sent is
invented. Random bytes are decoded too. No input may crash or hang.

Exit status 1 when an invariant breaks: a crash, a hang, a split that changes the output;
a silent loss or an invented card in native or angel with a verified check; a silent loss
in angel without one. Bee has no sequence and no check: its undetectable cases are counted.
"""

from __future__ import annotations

import argparse
import itertools
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import FrameType as StackFrame

from croupier.cards import ALL_CARDS
from drivers import angel, bee
from drivers.angel_link import AngelDecoder
from drivers.bee import BeeDecoder
from drivers.checks import crc16_ccitt
from drivers.decoder import Decoder
from drivers.messages import CardRead, CutRead, Garbage, Lost, Message, Misread, ShoeAlarm, Status
from drivers.native_frames import SEQ_MODULUS, FrameType, NativeFrame, NativeFramer
from drivers.native_messages import message_frame
from drivers.native_receiver import NativeReceiver

HANG_AFTER = 2.0  # seconds one input may take
COUNTERS = (10, 16, 32, 64, 100, 128, 256)
LINK_ALARMS = ("the shoe restarted", "the shoe's ", "seq ")
CASES = ("native", "angel-check", "angel-none", "bee")


class HangError(Exception):
    """An input took longer than `HANG_AFTER`."""


@dataclass(slots=True)
class Tally:
    """What happened to every sent message, and to the inputs, of one case."""

    inputs: int = 0
    random_inputs: int = 0
    seconds: float = 0.0
    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, int] = field(default_factory=dict)

    def add(self, name: str, count: int, seed: int) -> None:
        if count:
            self.counts[name] += count
            self.examples.setdefault(name, seed)


@dataclass(frozen=True, slots=True)
class Faults:
    """Per-input rates; many inputs get none at all."""

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


def damage(frames: list[bytes], faults: Faults, rng: random.Random, stale: list[bytes]) -> bytes:
    """The bytes that arrive for `frames`; `stale` are frames sent earlier, which a bad
    line or a confused shoe may put back."""
    out = bytearray()
    for frame in frames:
        if stale and rng.random() < faults.stale:
            out += rng.choice(stale)
        if rng.random() < faults.noise:
            out += rng.randbytes(rng.randint(1, 12))
        if rng.random() < faults.drop_frame:
            continue
        copies = 2 if rng.random() < faults.dup_frame else 1
        for _ in range(copies):
            for sent in frame:
                if rng.random() < faults.drop_byte:
                    continue
                byte = sent ^ (1 << rng.randrange(8)) if rng.random() < faults.flip else sent
                out.append(byte)
                if rng.random() < faults.dup_byte:
                    out.append(byte)
    return bytes(out)


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
    return [
        angel.encode_frame(seq, angel.message_data(message), crc16_ccitt)
        for message, seq in zip(stream.messages, stream.seqs, strict=True)
        for _ in range(angel.COPIES)
    ]


def bee_frames(stream: Stream) -> list[bytes]:
    return [bee.message_text(message) for message in stream.messages]


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
) -> list[Message]:
    """Frames arrive one by one on a clock, the line goes quiet now and then; a native
    shoe answers resend requests, through the same bad line."""
    decoder = new_decoder(case, live=True, stream=stream)
    history: dict[int, bytes] = {}
    requests = NativeFramer()
    out: list[Message] = []
    now = 0.0
    sent = stale

    def answer() -> bytes:
        asked = [f for f in requests.feed(decoder.outgoing()) if isinstance(f, NativeFrame)]
        frames = [
            history[held]
            for f in asked
            for offset in range(f.payload[0])
            if (held := (f.seq + offset) % SEQ_MODULUS) in history
        ]
        return damage(frames, faults, rng, sent)

    for frame in frames:
        if case == "native" and frame[4] != FrameType.HEARTBEAT.value:
            history[int.from_bytes(frame[2:4], "big")] = frame
        now += 0.002
        out += decoder.feed(damage([frame], faults, rng, sent), now)
        if rng.random() < 0.05:
            now += 0.5
            out += decoder.idle(now)
        out += decoder.feed(answer(), now)
    if case == "native":
        end = (stream.seqs[-1] + 1) % SEQ_MODULUS
        beat = NativeFrame(end, FrameType.HEARTBEAT).encode()
        quiet = 0
        for _ in range(300):  # the shoe idles, a heartbeat a second, until the link settles
            if quiet >= 60:
                break
            now += 1.0
            more = decoder.feed(damage([beat], faults, rng, []), now)
            more += decoder.feed(answer(), now)
            quiet = 0 if any(not isinstance(m, Garbage) for m in more) else quiet + 1
            out += more
    now += 1.0
    out += decoder.idle(now)
    return out + decoder.finish()


def _link_alarm(message: Message) -> bool:
    return isinstance(message, ShoeAlarm) and message.text.startswith(LINK_ALARMS)


def _weight(sent: Message, got: Message) -> int:
    """How well a delivered message stands for a sent one (0: not at all)."""
    if sent == got:
        return 3
    if isinstance(got, Misread) and isinstance(sent, CardRead | Misread):
        return 3 if isinstance(sent, CardRead) and sent.card == got.guess else 1
    return int(isinstance(got, ShoeAlarm) and isinstance(sent, ShoeAlarm))  # text garbled


def _pairs(sent: list[Message], got: list[Message]) -> dict[int, int]:
    """The best order-keeping alignment of delivered messages to sent ones, as
    {index in `got`: index in `sent`}."""
    rows = [[0] * (len(got) + 1)]
    for a in sent:
        above, row = rows[-1], [0]
        for j, b in enumerate(got, 1):
            weight = _weight(a, b)
            row.append(max(above[j], row[j - 1], above[j - 1] + weight if weight else 0))
        rows.append(row)
    pairs: dict[int, int] = {}
    i, j = len(sent), len(got)
    while i and j:
        weight = _weight(sent[i - 1], got[j - 1])
        if rows[i][j] == rows[i - 1][j]:
            i -= 1  # of equal alignments, the one matching earlier sent messages
        elif weight and rows[i][j] == rows[i - 1][j - 1] + weight:
            pairs[j - 1] = i - 1
            i, j = i - 1, j - 1
        else:
            j -= 1
    return pairs


def align(
    stream: Stream,
    got: list[Message],
    tally: Tally,
    seed: int,
    *,
    capture: bool,
    tail: bool,
    bee_alarms: bool,
) -> None:
    """Accounts for every message sent and every message delivered. Messages missing before
    the first one delivered when `capture` (it may begin anywhere) and, when `tail`, after the last
    one (nothing came after them to tell) cannot be noticed by any receiver: they are
    counted apart. With `bee_alarms`, unreadable bytes raise an alarm on a live line. A
    loss reported late (angel learns its range as it goes) is set against a silent one."""
    sent = stream.messages
    matchable: list[Message] = [
        m for m in got if not isinstance(m, Lost | Garbage | Status) and not _link_alarm(m)
    ]
    pairs = _pairs(sent, matchable)
    counts: Counter[str] = Counter()
    start = 0
    reported = 0
    alarmed = False  # a link alarm: a restart, whose losses it cannot count
    garbage = False
    restart_alarm = False  # one that says the count restarted, not one about a frame
    delivered: set[int] = set()  # the numbers of the messages delivered

    def missing(upto: int, where: str) -> None:
        nonlocal reported, alarmed, garbage, restart_alarm
        count = upto - start
        covered = count if alarmed else min(count, reported)
        counts["reported missing"] += covered
        uncovered = count - covered
        if garbage and bee_alarms:
            counts["missing after unreadable bytes (bee: alarmed)"] += uncovered
            uncovered = 0
        elif uncovered and where == "SILENT LOSS":
            # angel learns its range: an end of the count, lost before the range showed it
            edges = min(uncovered, edge_unknown(upto))
            counts["lost at an end of a count not yet known (angel)"] += edges
            uncovered -= edges
        counts[where] += uncovered
        counts["lost over-reported"] += max(0, reported - count)
        if restart_alarm and not count and not any(start <= r <= upto for r in stream.restarts):
            counts["false restart alarm"] += 1
        reported, alarmed, garbage, restart_alarm = 0, False, False, False

    def edge_unknown(upto: int) -> int:
        """How many messages missing in sent[start:upto] are at an end of a count whose range
        was not known yet: numbered outside the numbers delivered so far, or the last before
        a restart (which looks like a wrap) and the first after it."""
        if stream.top >= SEQ_MODULUS - 1 or stream.top == stream.bottom:
            return 0  # native counts to 65535, bee does not count
        if not delivered:
            return 0
        low, high = min(delivered), max(delivered)
        found = sum(not low <= seq <= high for seq in stream.seqs[start:upto])
        # a count restarting just after the lost ones looks like a wrap at its last number
        for r in stream.restarts:
            if start <= r <= upto:
                found += r - start + (r < upto)  # and the first of the new count
        return found

    index = 0
    for message in got:
        if isinstance(message, Lost):
            reported += message.count
        elif isinstance(message, ShoeAlarm) and _link_alarm(message):
            alarmed = True
            restart_alarm = restart_alarm or "restarted" in message.text
        elif isinstance(message, Garbage):
            garbage = True
        elif isinstance(message, Status):
            counts["status from noise"] += 1
        else:
            j = pairs.get(index)
            index += 1
            if j is None:
                name = "INVENTED" if isinstance(message, CardRead | CutRead) else "invented misread"
                counts["alarm from noise" if isinstance(message, ShoeAlarm) else name] += 1
                continue
            head = capture and not start
            missing(j, "missing before the first frame (capture)" if head else "SILENT LOSS")
            counts["delivered" if message == sent[j] else "delivered garbled, or as a misread"] += 1
            delivered.add(stream.seqs[j])
            start = j + 1
    missing(len(sent), "missing at the end, nothing after it" if tail else "SILENT LOSS")
    late = min(counts["SILENT LOSS"], counts["lost over-reported"])
    counts["SILENT LOSS"] -= late
    counts["lost over-reported"] -= late
    counts["loss reported late"] += late
    for name, count in counts.items():
        tally.add(BEE_NAMES.get(name, name) if bee_alarms else name, count, seed)


def run_input(case: str, seed: int, tally: Tally) -> None:
    rng = random.Random(seed)
    if rng.random() < 0.1:
        data = rng.randbytes(rng.randint(0, 400))
        decoded, same = decode_capture(case, data, [rng.randrange(401) for _ in range(5)])
        tally.random_inputs += 1
        tally.add("split changed the output", int(not same), seed)
        tally.add("card from random bytes", sum(isinstance(m, CardRead) for m in decoded), seed)
        return
    if case == "native":
        stream = shoe_stream(rng, SEQ_MODULUS, 0)
        frames = native_frames(stream, rng)
    elif case.startswith("angel"):
        values = rng.choice(COUNTERS)
        first = 0x30 if values == 10 and rng.random() < 0.5 else rng.randrange(257 - values)
        stream = shoe_stream(rng, values, first)
        frames = angel_frames(stream)
    else:
        stream = shoe_stream(rng, 1, 0)
        frames = bee_frames(stream)
    faults = Faults.draw(rng)
    # a stale frame long after it was sent: only native numbers can tell it from news
    stale = frames[:1] if case == "native" else []
    if rng.random() < 0.5:
        data = damage(frames, faults, rng, stale)
        cuts = [rng.randrange(len(data) + 1) for _ in range(rng.randint(0, 8))]
        decoded, same = decode_capture(case, data, cuts)
        tally.add("split changed the output", int(not same), seed)
        align(stream, decoded, tally, seed, capture=True, tail=True, bee_alarms=case == "bee")
    else:
        decoded = decode_live(case, stream, frames, faults, rng, stale=stale)
        # a native shoe's heartbeat tells of its last frame; the dialects have none
        # a native table knows the first number; the dialects cannot know what came before
        # their first message, nor, with no heartbeat, what came after their last
        edges = case != "native"
        align(stream, decoded, tally, seed, capture=edges, tail=edges, bee_alarms=case == "bee")


def _hang(signum: int, frame: StackFrame | None) -> None:
    raise HangError


def fuzz_case(case: str, seeds: Iterator[int], deadline: float, limit: int) -> Tally:
    tally = Tally()
    began = time.monotonic()
    previous = signal.signal(signal.SIGALRM, _hang)
    try:
        for seed in seeds:
            if tally.inputs >= limit or time.monotonic() >= deadline:
                break
            tally.inputs += 1
            signal.setitimer(signal.ITIMER_REAL, HANG_AFTER)
            try:
                run_input(case, seed, tally)
            except HangError:
                tally.add("HANG", 1, seed)
            except Exception:  # every failure is counted, with its seed to replay it
                tally.add("CRASH", 1, seed)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, previous)
    tally.seconds = time.monotonic() - began
    return tally


BEE_NAMES = {  # bee has no sequence and no check: the link cannot see these
    "SILENT LOSS": "lost, undetectable (bee)",
    "INVENTED": "doubled, undetectable (bee)",
}
FORBIDDEN = {
    "native": ("CRASH", "HANG", "split changed the output", "SILENT LOSS", "INVENTED"),
    "angel-check": ("CRASH", "HANG", "split changed the output", "SILENT LOSS", "INVENTED"),
    "angel-none": ("CRASH", "HANG", "split changed the output", "SILENT LOSS"),
    "bee": ("CRASH", "HANG", "split changed the output"),
}


def report(case: str, tally: Tally) -> bool:
    rate = tally.inputs / tally.seconds if tally.seconds else 0.0
    print(f"{case}: {tally.inputs} inputs ({tally.random_inputs} of random bytes) in "
          f"{tally.seconds:.0f} s, {rate:.0f}/s", flush=True)
    for name, count in sorted(tally.counts.items()):
        print(f"  {name:48} {count:>10}   (seed {tally.examples[name]})")
    broken = [name for name in FORBIDDEN[case] if tally.counts[name]]
    if broken:
        print(f"  FAILED: {', '.join(broken)}")
    return not broken


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fuzz_links", description=__doc__)
    parser.add_argument("--seconds", type=float, default=600.0, help="total time, shared")
    parser.add_argument("--inputs", type=int, default=1_000_000, help="at most, per dialect")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--case", choices=CASES, action="append", help="default: all")
    parser.add_argument("--replay", type=int, metavar="SEED", help="run one seed, show it")
    options = parser.parse_args(argv)
    cases = options.case or list(CASES)
    if options.replay is not None:
        for case in cases:
            tally = Tally()
            run_input(case, options.replay, tally)
            report(case, tally)
        return 0
    ok = True
    began = time.monotonic()
    for index, case in enumerate(cases):
        share = (options.seconds - (time.monotonic() - began)) / (len(cases) - index)
        seeds = itertools.count(options.seed)
        tally = fuzz_case(case, seeds, time.monotonic() + share, options.inputs)
        ok = report(case, tally) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
