"""The native link layer on its own, with a clock the test controls: duplicates, gaps,
resend requests, giving up, heartbeats, wrap-around; and, as a property, a receiver talking
to a shoe over a lossy line delivers every message once, in order."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import ALL_CARDS, Card
from drivers.messages import CardRead, CutRead, Garbage, Lost, Message, ShoeAlarm
from drivers.native_frames import SEQ_MODULUS, FrameType, NativeFrame, NativeFramer
from drivers.native_messages import message_frame
from drivers.native_receiver import NativeReceiver


def card(text: str) -> CardRead:
    return CardRead(Card.parse(text))


def wire(message: Message, seq: int) -> bytes:
    return message_frame(message, seq % SEQ_MODULUS).encode()


def requests(receiver: NativeReceiver) -> list[tuple[int, int]]:
    """The resend requests the receiver wants sent: (first sequence number, count)."""
    frames = NativeFramer().feed(receiver.outgoing())
    assert all(isinstance(f, NativeFrame) and f.type is FrameType.RESEND for f in frames)
    return [(f.seq, f.payload[0]) for f in frames if isinstance(f, NativeFrame)]


def test_in_order_frames_are_delivered_and_duplicates_dropped() -> None:
    receiver = NativeReceiver()
    data = wire(card("4S"), 0) + wire(card("4S"), 0) + wire(CutRead(), 1)
    assert receiver.feed(data, 0.0) == [card("4S"), CutRead()]
    assert requests(receiver) == []


def test_a_gap_is_asked_for_once_and_filled_in_order() -> None:
    receiver = NativeReceiver(resend_after=0.2)
    assert receiver.feed(wire(card("4S"), 0) + wire(card("6D"), 3), 0.0) == [card("4S")]
    assert requests(receiver) == [(1, 2)]
    assert receiver.feed(b"", 0.1) == []
    assert requests(receiver) == []  # not yet: the answer may be on its way
    got = receiver.feed(wire(card("QH"), 1) + wire(card("TC"), 2), 0.15)
    assert got == [card("QH"), card("TC"), card("6D")]


def test_an_unanswered_request_is_repeated_then_the_loss_reported() -> None:
    receiver = NativeReceiver(retries=3, resend_after=0.2)
    receiver.feed(wire(card("4S"), 0) + wire(card("6D"), 2), 0.0)
    assert requests(receiver) == [(1, 1)]
    assert receiver.idle(0.21) == []
    assert requests(receiver) == [(1, 1)]
    assert receiver.idle(0.42) == []
    assert requests(receiver) == [(1, 1)]
    got = receiver.idle(0.63)
    assert got == [Lost(1, "seq 1 never arrived"), card("6D")]
    assert requests(receiver) == []


def test_a_heartbeat_reveals_the_loss_of_the_last_frame() -> None:
    receiver = NativeReceiver(can_ask=False)
    heartbeat = NativeFrame(2, FrameType.HEARTBEAT).encode()
    assert receiver.feed(wire(card("4S"), 0) + heartbeat, 0.0) == [card("4S")]
    assert receiver.finish() == [Lost(1, "seq 1 never arrived")]


def test_a_capture_starts_counting_at_its_first_frame() -> None:
    receiver = NativeReceiver(can_ask=False)
    assert receiver.feed(wire(card("4S"), 700) + wire(card("5S"), 701), 0.0) == [
        card("4S"),
        card("5S"),
    ]
    assert receiver.finish() == []


def test_sequence_numbers_wrap_around() -> None:
    receiver = NativeReceiver(can_ask=False)
    data = b"".join(wire(CardRead(ALL_CARDS[i % 52]), SEQ_MODULUS - 2 + i) for i in range(4))
    assert receiver.feed(data, 0.0) == [CardRead(ALL_CARDS[i % 52]) for i in range(4)]


class LossyShoe:
    """A shoe that keeps every frame and a line that drops the frames it is told to."""

    def __init__(self, messages: list[Message], rng: random.Random, loss: float) -> None:
        self.frames = [wire(m, i) for i, m in enumerate(messages)]
        self.rng = rng
        self.loss = loss

    def line(self, data: bytes) -> bytes:
        return b"" if self.rng.random() < self.loss else data

    def answer(self, asked: list[tuple[int, int]]) -> bytes:
        return b"".join(
            self.line(self.frames[first + i])
            for first, count in asked
            for i in range(count)
            if first + i < len(self.frames)
        )


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=120),
    st.floats(0.0, 0.5),
    st.integers(0, 2**32),
)
def test_every_message_arrives_once_in_order_over_a_lossy_line(
    cards: list[Card], loss: float, seed: int
) -> None:
    messages: list[Message] = [CardRead(c) for c in cards]
    shoe = LossyShoe(messages, random.Random(seed), loss)
    receiver = NativeReceiver(retries=1000, resend_after=0.01)
    got: list[Message] = []
    now = 0.0
    for frame in shoe.frames:
        now += 0.001
        got += receiver.feed(shoe.line(frame), now)
        got += receiver.feed(shoe.answer(requests(receiver)), now)
    heartbeat = NativeFrame(len(shoe.frames), FrameType.HEARTBEAT).encode()
    for _ in range(2000):
        if len(got) == len(messages):
            break
        now += 0.02
        got += receiver.feed(heartbeat, now)
        got += receiver.feed(shoe.answer(requests(receiver)), now)
    assert got == messages


def test_a_restarted_shoe_is_noticed_by_its_heartbeat_and_followed() -> None:
    receiver = NativeReceiver()
    first = b"".join(wire(CardRead(ALL_CARDS[i]), i) for i in range(10))
    assert len(receiver.feed(first, 0.0)) == 10
    restarted = NativeFrame(0, FrameType.HEARTBEAT).encode() + wire(card("KD"), 0)
    got = receiver.feed(restarted, 1.0)
    assert got == [ShoeAlarm("the shoe restarted its count: seq 0 after 9"), card("KD")]
    assert requests(receiver) == [(0, 1)]  # the frame the heartbeat announced, asked for


def heartbeat(seq: int) -> bytes:
    return NativeFrame(seq % SEQ_MODULUS, FrameType.HEARTBEAT).encode()


def deal(first: int, count: int, offset: int = 0) -> tuple[bytes, list[Message]]:
    """`count` card frames numbered from `first`, and the messages they carry."""
    messages: list[Message] = [CardRead(ALL_CARDS[(offset + i) % 52]) for i in range(count)]
    return b"".join(wire(m, first + i) for i, m in enumerate(messages)), messages


def test_a_stale_heartbeat_then_a_resent_frame_delivers_nothing_twice() -> None:
    receiver = NativeReceiver()
    data, messages = deal(0, 5)
    assert receiver.feed(data, 0.0) == messages
    # the heartbeat sent before frame 4, arriving late, then frame 4 again and the next one
    late = heartbeat(4) + heartbeat(4) + wire(messages[4], 4) + wire(card("KD"), 5)
    assert receiver.feed(late, 0.1) == [card("KD")]
    assert requests(receiver) == [(4, 1)]


def test_a_heartbeat_behind_is_checked_against_the_frame_it_announces() -> None:
    """A heartbeat behind the count is a stale copy, or a restarted shoe whose first frames
    were lost: a live receiver asks for the frame it announces, and the frame already had
    shows it stale."""
    receiver = NativeReceiver()
    data, messages = deal(0, 5)
    assert receiver.feed(data + heartbeat(2), 0.0) == messages
    assert requests(receiver) == [(2, 1)]
    assert receiver.feed(wire(messages[2], 2) + wire(card("KD"), 5), 0.01) == [card("KD")]


def test_a_heartbeat_behind_that_nothing_confirms_is_said_in_a_capture() -> None:
    """A capture cannot ask: the heartbeat alone changes nothing, but it is said, since the
    frames a restarted shoe sent after it may be the ones missing."""
    receiver = NativeReceiver(can_ask=False)
    data, messages = deal(0, 5)
    got = receiver.feed(data + heartbeat(2) + wire(card("KD"), 5), 0.0)
    assert got == [
        *messages,
        ShoeAlarm(
            "the shoe's heartbeat named seq 2, after 4, and nothing confirmed it: a stale "
            "copy, or the shoe restarted and frames were lost"
        ),
        card("KD"),
    ]
    assert receiver.finish() == []


def test_a_lone_frame_behind_with_other_contents_is_reported_not_delivered() -> None:
    receiver = NativeReceiver(can_ask=False)
    receiver.feed(deal(5000, 3)[0], 0.0)
    got = receiver.feed(wire(card("KD"), 4990) + wire(card("QD"), 5003), 0.1)
    assert got == [
        ShoeAlarm(
            "seq 4990 (card KD) came behind the count, after 5002, and nothing confirmed a "
            "restart: not delivered"
        ),
        card("QD"),
    ]


def test_a_restart_whose_heartbeat_was_lost_is_believed_on_two_agreeing_frames() -> None:
    receiver = NativeReceiver(can_ask=False)
    data, messages = deal(0, 30)
    assert receiver.feed(data, 0.0) == messages
    again, dealt = deal(0, 30, offset=7)
    corrupted = bytearray(heartbeat(0))
    corrupted[-2] ^= 0x10
    got = receiver.feed(bytes(corrupted) + again, 1.0)
    assert got == [
        Garbage(len(corrupted)),
        ShoeAlarm("the shoe restarted its count: seq 0 after 29"),
        *dealt,
    ]


def test_a_restart_is_followed_and_what_it_numbered_before_is_asked_for() -> None:
    receiver = NativeReceiver()
    receiver.feed(deal(5000, 3)[0], 0.0)
    got = receiver.feed(wire(card("KD"), 7) + wire(card("QD"), 8), 0.2)
    assert got == [ShoeAlarm("the shoe restarted its count: seq 7 after 5002")]
    assert requests(receiver) == [(0, 7)]
    resent, dealt = deal(0, 7, offset=20)
    assert receiver.feed(resent, 0.3) == [*dealt, card("KD"), card("QD")]


def test_three_heartbeats_behind_with_nothing_else_raise_an_alarm_but_change_nothing() -> None:
    receiver = NativeReceiver(can_ask=False)
    data, messages = deal(0, 30)
    stale = heartbeat(5) + wire(messages[4], 4)
    got = receiver.feed(data + stale * 3 + wire(card("KD"), 30), 0.0)
    assert got == [
        *messages,
        ShoeAlarm("the shoe's heartbeats put its count at seq 5, after 29: frames may be lost"),
        card("KD"),
    ]


def test_a_receiver_attached_near_the_wrap_without_the_heartbeat_recovers() -> None:
    receiver = NativeReceiver()
    data, messages = deal(SEQ_MODULUS - 6, 12)
    got = receiver.feed(data, 0.0)
    assert got == [
        ShoeAlarm(f"the shoe's count is at seq {SEQ_MODULUS - 6}, not 0: "
                  "what it sent before was not received"),
        *messages,
    ]
    assert requests(receiver) == []


def test_a_resumed_receiver_wants_its_first_expected_number() -> None:
    receiver = NativeReceiver(first_expected=700)
    data, messages = deal(700, 4)
    assert receiver.feed(data[len(wire(messages[0], 700)) :], 0.0) == []
    assert requests(receiver) == [(700, 1)]
    assert receiver.feed(wire(messages[0], 700), 0.01) == messages


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, SEQ_MODULUS - 1),
    st.integers(1, 60),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 10_000), st.booleans())),
    st.booleans(),
)
def test_repeats_and_stale_heartbeats_never_deliver_a_frame_twice(
    first: int, count: int, inserts: list[tuple[int, int, bool]], live: bool
) -> None:
    """Copies of frames already sent and heartbeats already sent, put back anywhere later
    in the stream: every message comes out exactly once; the only alarms are those for
    stale heartbeats, which might be a shoe that restarted."""
    frames = [wire(CardRead(ALL_CARDS[i % 52]), first + i) for i in range(count)]
    stream = [item for i, f in enumerate(frames) for item in (heartbeat(first + i), f)]
    for place, which, is_heartbeat in inserts:
        at = place % (len(stream) + 1)
        # only what was already sent: a line keeps frames in order, so none comes early
        sent = len({item for item in stream[:at] if item in frames})
        if sent:
            copied = min(which % len(frames), sent - 1)
            stream.insert(at, heartbeat(first + copied) if is_heartbeat else frames[copied])
    receiver = NativeReceiver(can_ask=live, first_expected=first)
    got = receiver.feed(b"".join(stream), 0.0) + receiver.finish()
    assert [m for m in got if not isinstance(m, ShoeAlarm)] == [
        CardRead(ALL_CARDS[i % 52]) for i in range(count)
    ]
    assert all(m.text.startswith("the shoe's heartbeat") for m in got if isinstance(m, ShoeAlarm))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 40), st.sampled_from(ALL_CARDS), st.booleans())),
    st.lists(st.integers(0, 10_000), max_size=40),
    st.booleans(),
)
def test_what_a_receiver_decodes_never_depends_on_how_reads_are_split(
    frames: list[tuple[int, Card, bool]], cuts: list[int], live: bool
) -> None:
    """Frames and heartbeats in any order, repeated or not: the same bytes give the same
    messages whatever the reads (a live receiver at one instant, and a capture)."""
    data = b"".join(
        heartbeat(seq) if beat else wire(CardRead(c), seq) for seq, c, beat in frames
    )
    edges = [0, *sorted({c % (len(data) + 1) for c in cuts}), len(data)]
    whole, split = NativeReceiver(can_ask=live), NativeReceiver(can_ask=live)
    want = whole.feed(data, 0.0) + whole.finish()
    got = [m for a, b in itertools.pairwise(edges) for m in split.feed(data[a:b], 0.0)]
    assert got + split.finish() == want


# Regressions found by `make fuzz` (bench/fuzz_links.py), each with the bytes of its class.


def test_a_card_frame_setting_flags_no_shoe_sets_is_garbage_not_a_card() -> None:
    """Bytes from a bad line: frame 29289 (3S) lost two bytes and had a bit flipped, and
    with the next frame's first bytes as its CRC and ETX it passed the CRC (a chance of one
    in 65536), reading as 3D face up with flags 0x69. Its flags give it away: garbage, and
    the next frame is read whole."""
    mangled = bytes.fromhex("020372694333446903")
    receiver = NativeReceiver(can_ask=False)
    got = receiver.feed(mangled + wire(card("2C"), 0x726A), 0.0) + receiver.finish()
    assert got == [Garbage(len(mangled)), card("2C")]
