"""The native link layer on its own, with a clock the test controls: duplicates, gaps,
resend requests, giving up, heartbeats, wrap-around; and, as a property, a receiver talking
to a shoe over a lossy line delivers every message once, in order."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import ALL_CARDS, Card
from drivers.messages import CardRead, CutRead, Lost, Message, ShoeAlarm
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
    got = receiver.feed(wire(card("4S"), 0) + heartbeat, 0.0)
    assert got == [card("4S"), Lost(1, "seq 1 never arrived")]


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
    restarted = NativeFrame(0, FrameType.HEARTBEAT).encode() + wire(card("AS"), 0)
    got = receiver.feed(restarted, 1.0)
    assert got == [ShoeAlarm("the shoe restarted its count: seq 0 after 9"), card("AS")]
    assert requests(receiver) == []


def test_a_frame_far_behind_is_a_restart_and_a_near_one_a_duplicate() -> None:
    receiver = NativeReceiver(can_ask=False)
    receiver.feed(b"".join(wire(CardRead(ALL_CARDS[i % 52]), 5000 + i) for i in range(3)), 0.0)
    assert receiver.feed(wire(card("AS"), 4990), 0.1) == []
    got = receiver.feed(wire(card("KD"), 7), 0.2)
    assert got == [ShoeAlarm("the shoe restarted its count: seq 7 after 5002"), card("KD")]
