"""Property tests of the three decoders: no input makes them raise, the way a stream is
split into reads never changes what they decode, and what a shoe encodes comes back."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import ALL_CARDS
from drivers.decode import decode_bytes
from drivers.dialects import DIALECTS, DecoderOptions, dialect_named
from drivers.messages import CardRead, CutRead, Garbage, Lost, Message, Misread, ShoeAlarm

DIALECT_NAMES = sorted(DIALECTS)

shoe_messages = st.one_of(
    st.builds(CardRead, st.sampled_from(ALL_CARDS), st.booleans()),
    st.just(CutRead()),
    st.just(Misread()),
    # shoes trim an alarm's text, so the strategy does not put spaces at its ends
    st.builds(ShoeAlarm, st.from_regex(r"[A-J0-9]([A-J0-9 :]{0,28}[A-J0-9])?", fullmatch=True)),
)


def encode(dialect: str, messages: list[Message], first_seq: int = 0) -> bytes:
    spec = dialect_named(dialect)
    options = DecoderOptions()
    return b"".join(spec.transmission(m, first_seq + i, options) for i, m in enumerate(messages))


def decode_split(data: bytes, dialect: str, cuts: list[int], *, live: bool) -> list[Message]:
    decoder = dialect_named(dialect).decoder(DecoderOptions(live=live))
    out: list[Message] = []
    edges = [0, *sorted({c % (len(data) + 1) for c in cuts}), len(data)]
    for start, end in itertools.pairwise(edges):
        out += decoder.feed(data[start:end], 0.0)
    return out + decoder.finish()


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(DIALECT_NAMES), st.binary(max_size=400))
def test_arbitrary_bytes_never_raise(dialect: str, data: bytes) -> None:
    for message in decode_bytes(data, dialect):
        assert isinstance(message, CardRead | CutRead | Misread | ShoeAlarm | Garbage | Lost)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(DIALECT_NAMES),
    st.lists(shoe_messages, max_size=40),
    st.integers(0, 255),
    st.lists(st.integers(0, 10_000), max_size=30),
)
def test_any_split_of_a_valid_stream_gives_the_messages_sent(
    dialect: str, messages: list[Message], first_seq: int, cuts: list[int]
) -> None:
    data = encode(dialect, messages, first_seq)
    assert decode_split(data, dialect, cuts, live=False) == messages
    assert decode_split(data, dialect, [], live=False) == messages


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(DIALECT_NAMES),
    st.lists(shoe_messages, max_size=20),
    st.binary(max_size=60),
    st.integers(0, 10_000),
    st.lists(st.integers(0, 10_000), max_size=30),
)
def test_any_split_of_a_noisy_stream_gives_the_same_messages(
    dialect: str, messages: list[Message], noise: bytes, at: int, cuts: list[int]
) -> None:
    clean = encode(dialect, messages)
    at %= len(clean) + 1
    data = clean[:at] + noise + clean[at:]
    assert decode_split(data, dialect, cuts, live=False) == decode_bytes(data, dialect)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(DIALECT_NAMES), st.binary(max_size=300), st.lists(st.integers(0, 500)))
def test_a_live_decoder_survives_anything_with_idle_calls(
    dialect: str, data: bytes, cuts: list[int]
) -> None:
    decoder = dialect_named(dialect).decoder(DecoderOptions(live=True))
    edges = [0, *sorted({c % (len(data) + 1) for c in cuts}), len(data)]
    for step, (start, end) in enumerate(itertools.pairwise(edges)):
        decoder.feed(data[start:end], step * 0.1)
        decoder.idle(step * 0.1 + 0.05)
        assert isinstance(decoder.outgoing(), bytes)
    decoder.finish()


def test_garbage_between_frames_is_counted_and_the_frames_survive() -> None:
    messages: list[Message] = [CardRead(ALL_CARDS[0]), CutRead()]
    for dialect in DIALECT_NAMES:
        data = encode(dialect, messages[:1]) + b"\x00\x7f\xfe" + encode(dialect, messages[1:], 1)
        assert decode_bytes(data, dialect) == [messages[0], Garbage(3), messages[1]], dialect


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(DIALECT_NAMES),
    st.lists(shoe_messages, min_size=1, max_size=30),
    st.lists(st.booleans(), min_size=90, max_size=90),
    st.lists(st.booleans(), min_size=90, max_size=90),
)
def test_a_live_decoder_fed_lossy_frames_with_pauses_never_raises(
    dialect: str, messages: list[Message], kept: list[bool], pause: list[bool]
) -> None:
    """Frames (each copy of a repeating dialect on its own) dropped at random, the line going
    quiet at random between them: the decoder settles what it holds and never raises."""
    spec = dialect_named(dialect)
    decoder = spec.decoder(DecoderOptions(live=True))
    now = 0.0
    out: list[Message] = []
    copies = [
        spec.encode(m, i, DecoderOptions())
        for i, m in enumerate(messages)
        for _ in range(spec.copies)
    ]
    for index, frame in enumerate(copies):
        now += 0.01
        if kept[index % len(kept)]:
            out += decoder.feed(frame, now)
        if pause[index % len(pause)]:
            out += decoder.idle(now + 0.5)
        decoder.outgoing()
    out += decoder.finish()
    # an alarm of the link's own ("seq …": a message it could not confirm) invents nothing
    delivered = [
        m for m in out
        if isinstance(m, CardRead | CutRead)
        or (isinstance(m, ShoeAlarm) and not m.text.startswith("seq "))
    ]
    assert all(m in messages for m in delivered)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(DIALECT_NAMES),
    st.lists(shoe_messages, max_size=25),
    st.integers(0, 255),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255), st.sampled_from("xdrc"))),
    st.lists(st.integers(0, 10_000), max_size=30),
)
def test_any_split_of_a_mutated_stream_gives_the_same_messages_as_decode(
    dialect: str,
    messages: list[Message],
    first_seq: int,
    mutations: list[tuple[int, int, str]],
    cuts: list[int],
) -> None:
    """Bytes flipped, dropped, doubled, and runs of the stream copied elsewhere (stale
    frames, resends): `croupier decode` and any split of the same bytes agree."""
    data = bytearray(encode(dialect, messages, first_seq))
    for place, value, kind in mutations:
        if not data:
            break
        at = place % len(data)
        if kind == "x":
            data[at] ^= 1 << (value % 8)
        elif kind == "d":
            del data[at]
        elif kind == "r":
            data[at:at] = data[value % len(data) :][: value % 40]
        else:
            data.insert(at, data[at])
    stream = bytes(data)
    assert decode_split(stream, dialect, cuts, live=False) == decode_bytes(stream, dialect)
