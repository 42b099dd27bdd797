"""The native link after a restart or a gap given up: late resends, old counts and heartbeats
naming frames already had are named, never delivered twice or taken for a restart."""

from __future__ import annotations

from drivers.messages import CardRead, Lost, Message, ShoeAlarm
from drivers.native_frames import SEQ_MODULUS
from drivers.native_receiver import NativeReceiver
from tests.test_drivers_native_link import card, deal, heartbeat, requests, wire


def test_frames_resent_after_their_loss_was_reported_are_named_not_delivered() -> None:
    """A resend that arrives after the receiver gave up on its gap: its place has passed.
    Two of them in a row are no restart either (they were taken for one, and the frames
    after them delivered twice)."""
    receiver = NativeReceiver(retries=1, resend_after=0.2)
    data, messages = deal(0, 4)
    frames = [data[i * 11 : (i + 1) * 11] for i in range(4)]
    assert receiver.feed(frames[0] + frames[3], 0.0) == [messages[0]]
    assert requests(receiver) == [(1, 2)]
    assert receiver.idle(0.3) == [Lost(2, "seq 1..2 never arrived"), messages[3]]
    got = receiver.feed(frames[1] + frames[2] + frames[3] + wire(card("KD"), 4), 0.4)
    assert got == [
        ShoeAlarm(f"seq 1 (card {cards_text(messages[1])}) came after its place had passed: "
                  "not delivered"),
        ShoeAlarm(f"seq 2 (card {cards_text(messages[2])}) came after its place had passed: "
                  "not delivered"),
        card("KD"),
    ]


def captured(data: bytes, first_expected: int | None = None) -> list[Message]:
    """What a receiver decoding a capture (nobody to ask) makes of `data`."""
    receiver = NativeReceiver(can_ask=False, first_expected=first_expected)
    return receiver.feed(data, 0.0) + receiver.finish()


def one_by_one(first: int, count: int) -> tuple[list[bytes], list[Message]]:
    """`count` card frames numbered from `first`, each frame's bytes apart, and the messages
    they carry."""
    data, messages = deal(first, count)
    size = len(data) // count
    return [data[i * size : (i + 1) * size] for i in range(count)], messages


def cards_text(message: Message) -> str:
    assert isinstance(message, CardRead)
    return str(message.card)


def test_a_restart_near_the_wrap_taken_at_first_for_a_gap_delivers_each_frame_once() -> None:
    """A shoe restarting from 0 while the count was 931 short of the wrap: its frames look
    like the old count going on after a gap of 931, which the bytes cannot tell from a
    restart; the gap is reported and each frame delivered once, also when they go on
    further than a receiver holds from the last frame delivered."""
    receiver = NativeReceiver(can_ask=False)
    old, before = deal(SEQ_MODULUS - 936, 5)
    new, after = deal(0, 100, offset=5)
    got = receiver.feed(old + new, 0.0) + receiver.finish()
    assert got == [
        *before,
        Lost(931, f"seq {SEQ_MODULUS - 931}..{SEQ_MODULUS - 1} never arrived"),
        *after,
    ]


def test_new_contents_under_numbers_held_behind_a_gap_are_a_restart_not_dropped() -> None:
    """Frames 4 to 6 held behind a gap at 3; a restarted shoe whose frames 0 to 3 were lost
    sends 4 and 5 again with other cards: they were kept out silently, now they prove the
    restart and are delivered; the loss of the new 0 to 3 is reported."""
    frames, before = one_by_one(0, 7)
    new, after = deal(4, 2, offset=20)
    got = captured(b"".join(frames[:3] + frames[4:]) + new)
    assert got == [
        *before[:3],
        Lost(1, "seq 3 never arrived"),
        *before[4:],
        ShoeAlarm("the shoe restarted its count: seq 4 after 6"),
        Lost(4, "seq 0..3 never arrived"),
        *after,
    ]


def test_a_heartbeat_naming_a_frame_held_is_said_in_its_place() -> None:
    """In a capture a heartbeat for a frame already had may be a restarted shoe whose first
    frames were lost: the alarm comes after the frames held when it came, not before."""
    data, messages = deal(0, 5)
    gap = len(wire(messages[0], 0))
    stream = data[:gap] + data[2 * gap : 4 * gap] + heartbeat(2) + data[4 * gap :]
    got = captured(stream)
    assert got == [
        messages[0],
        Lost(1, "seq 1 never arrived"),
        messages[2],
        messages[3],
        ShoeAlarm(
            "the shoe's heartbeat named seq 2, after 3, and nothing confirmed it: a stale "
            "copy, or the shoe restarted and frames were lost"
        ),
        messages[4],
    ]


def test_a_restart_whose_first_frame_was_lost_is_found_by_asking_for_it() -> None:
    """A shoe restarts at 0 just after its frame 0 was delivered; its new frame 0 is lost
    and its frame 1 looks like the old count going on. The heartbeat behind makes a live
    receiver ask for frame 0: new contents, so a restart, and nothing is lost silently."""
    receiver = NativeReceiver()
    assert receiver.feed(wire(card("9S"), 0), 0.0) == [card("9S")]
    assert receiver.feed(heartbeat(0), 0.1) == []
    assert requests(receiver) == [(0, 1)]
    got = receiver.feed(wire(card("5H"), 0) + wire(card("2D"), 1), 0.11)
    assert got == [ShoeAlarm("the shoe restarted its count: seq 0 after 0"), card("5H"), card("2D")]


def test_the_old_count_coming_late_after_a_restart_is_no_restart_back() -> None:
    """After a restart, the old count's frames come late (a resend in flight, a copy): they
    were taken for a restart back to the old count, or for frames after a gap in the new
    one, and delivered. They are named, and the new count goes on."""
    receiver = NativeReceiver(can_ask=False)
    old, before = deal(700, 4)
    gap = len(wire(before[0], 700))
    new, after = deal(0, 2, offset=10)
    got = receiver.feed(old[: 2 * gap] + old[3 * gap :] + heartbeat(0) + new, 0.0)
    assert got == [
        *before[:2],
        Lost(1, "seq 702 never arrived"),
        before[3],
        ShoeAlarm("the shoe restarted its count: seq 0 after 703"),
        *after,
    ]
    stragglers = old[2 * gap : 3 * gap] + old[3 * gap :] + wire(card("JD"), 2)
    assert receiver.feed(stragglers, 0.1) == [
        ShoeAlarm(f"seq 702 (card {cards_text(before[2])}) came after its place had passed: "
                  "not delivered"),
        card("JD"),
    ]
    assert receiver.finish() == []


def test_a_stale_frame_far_ahead_after_a_restart_is_named_not_delivered() -> None:
    """A capture whose first frame, 905, was lost; the shoe restarted at 0; then a stale copy
    of 905 comes. It was held as the frame after a gap of 898, and delivered after a loss
    that never was. Nothing followed it, so it is named, and nothing reported lost."""
    old, before = deal(905, 19)
    first = len(wire(before[0], 905))
    new, after = deal(0, 7, offset=19)
    got = captured(old[first:] + heartbeat(0) + new + old[:first])
    assert got == [
        *before[1:],
        ShoeAlarm("the shoe restarted its count: seq 0 after 923"),
        *after,
        ShoeAlarm(f"seq 905 (card {cards_text(before[0])}) came far ahead of the count, after 6, "
                  "and nothing followed it: not delivered"),
    ]


def test_frames_far_ahead_that_follow_each_other_are_a_gap() -> None:
    """Past `JUMP` beyond the count, two frames in a row show a real gap: a live receiver
    asks for it, a capture reports it."""
    receiver = NativeReceiver(can_ask=False)
    data, messages = deal(0, 3)
    far, ahead = deal(203, 2, offset=3)
    got = receiver.feed(data + far, 0.0) + receiver.finish()
    assert got == [*messages, Lost(200, "seq 3..202 never arrived"), *ahead]
    live = NativeReceiver()
    assert live.feed(data + far, 0.0) == messages
    assert requests(live) == [(3, 200)]


def test_frames_going_on_past_a_gap_are_near_the_last_one_not_a_restart() -> None:
    """Frames 64516 to 64527, frame 0 lost, then 1 to 19: past 16 they were further than
    a receiver holds from the frame wanted (64528), so taken for a restart from 0 — frames
    1 to 15 were asked for again and delivered twice. Near is measured from the last frame
    known: the gap is asked for, and then reported, once."""
    receiver = NativeReceiver(retries=1, first_expected=SEQ_MODULUS - 1020)
    old, before = deal(SEQ_MODULUS - 1020, 12)
    assert receiver.feed(old, 0.0) == before
    new, after = deal(1, 19, offset=12)
    got = receiver.feed(new, 0.1)
    assert requests(receiver) == [(SEQ_MODULUS - 1008, 255)]
    got += receiver.idle(0.5)
    assert got == [Lost(1009, f"seq {SEQ_MODULUS - 1008}..0 never arrived"), *after]
    assert requests(receiver) == []


def test_a_restart_heartbeat_inside_a_gap_behind_frames_held_is_a_restart() -> None:
    """After the wrap, frames 65532, 0, 1 and 4 lost and 2, 3, 5 held; the shoe restarts
    at 0 and says so by its heartbeat. The heartbeat, named inside the gap, was taken for a
    frame of the gap still to come; the new frame 0 filled the old count's place and the
    old frame 0 was lost silently. Behind a frame held, it is a restart once frame 0
    agrees: the old count's gap is reported, the new count follows."""
    frames, before = one_by_one(SEQ_MODULUS - 4, 10)
    kept = [frames[i] for i in (1, 2, 3, 6, 7, 9)]
    new, after = deal(0, 3, offset=20)
    got = captured(b"".join(kept) + heartbeat(0) + new, first_expected=SEQ_MODULUS - 4)
    assert got == [
        Lost(1, f"seq {SEQ_MODULUS - 4} never arrived"),
        *before[1:4],
        Lost(2, "seq 0..1 never arrived"),
        before[6],
        before[7],
        Lost(1, "seq 4 never arrived"),
        before[9],
        ShoeAlarm("the shoe restarted its count: seq 0 after 5"),
        *after,
    ]


def test_after_a_restart_the_old_count_s_frames_held_stay_the_old_count_s() -> None:
    """Past the wrap, the old count's frames 1 to 3 and 5 to 8 held behind a gap; the shoe
    restarts and sends 0, 2, 4, 5, 6. Frames held just below the restart's 5 were all taken
    for the new count's, the old 1 to 3 among them, delivered after the new 0. Frames are
    held in the order they came: the new count's are those below 5 that came after the
    last of the old count."""
    dealt, before = one_by_one(SEQ_MODULUS - 3, 12)
    frames = [dealt[i] for i in (0, 4, 5, 6, 8, 9, 10, 11)]
    new = [card(text) for text in ("KD", "QD", "JD", "TD", "9D")]
    sent = b"".join(wire(m, seq) for m, seq in zip(new, (0, 2, 4, 5, 6), strict=True))
    got = captured(b"".join(frames) + sent, first_expected=SEQ_MODULUS - 3)
    assert got == [
        before[0],
        Lost(3, "seq 65534..0 never arrived"),
        *before[4:7],
        Lost(1, "seq 4 never arrived"),
        *before[8:],
        # the new 0 and 2, each behind the old count's gap and not followed by the next:
        # named, not delivered; the new count believed at 4, where 5 and 6 follow
        ShoeAlarm("seq 0 (card KD) came behind the count, after 8, and nothing confirmed a "
                  "restart: not delivered"),
        ShoeAlarm("seq 2 (card QD) came behind the count, after 8, and nothing confirmed a "
                  "restart: not delivered"),
        ShoeAlarm("the shoe restarted its count: seq 4 after 8"),
        Lost(4, "seq 0..3 never arrived"),
        *new[2:],
    ]


def test_in_a_capture_a_frame_filling_a_gap_behind_a_frame_held_is_a_new_count() -> None:
    """A capture: the old count's 4 lost, its 5 held; then a restarted shoe's 4 and 5 (its 0
    to 3 lost). A line keeps frames in order and nobody asked for 4 again, so the new 4 is
    no late old 4: the old 4 is reported lost, the old 5 delivered, and the new count's
    frames after it (the new 4 used to fill the old 4's place, the old 4 lost silently)."""
    frames, before = one_by_one(0, 6)
    new, after = deal(4, 2, offset=20)
    got = captured(b"".join(frames[:4] + frames[5:]) + new)
    assert got == [
        *before[:4],
        Lost(1, "seq 4 never arrived"),
        before[5],
        ShoeAlarm("the shoe restarted its count: seq 4 after 5"),
        Lost(4, "seq 0..3 never arrived"),
        *after,
    ]


def test_a_live_frame_filling_a_gap_nobody_asked_for_is_a_new_count() -> None:
    """Live: the old count's 0 delivered, its 3 and 7 held; the receiver asks for 1 and 2,
    the gap before the first frame held. Then a restarted shoe's 4, 5 and 6 (its 0 to 3
    lost): nobody asked for 4 to 6, and a line keeps frames in order, so they are no late
    old frames. They used to fill the old count's places, the old 4 to 6 lost silently and
    no alarm raised; now the old count's gaps are reported, its frames delivered, and the
    new count's after the restart alarm."""
    receiver = NativeReceiver(retries=1, resend_after=0.2)
    frames, before = one_by_one(0, 8)
    assert receiver.feed(frames[0], 0.0) == [before[0]]
    assert receiver.feed(frames[3] + frames[7], 0.01) == []
    assert requests(receiver) == [(1, 2)]
    new, after = deal(4, 3, offset=20)
    got = receiver.feed(new, 0.02)
    assert got == [
        Lost(2, "seq 1..2 never arrived"),
        before[3],
        Lost(3, "seq 4..6 never arrived"),
        before[7],
        ShoeAlarm("the shoe restarted its count: seq 4 after 7"),
    ]
    assert requests(receiver) == [(0, 4)]
    assert receiver.idle(0.3) == [Lost(4, "seq 0..3 never arrived"), *after]


def test_a_heartbeat_a_little_ahead_of_a_suspected_restart_bears_it_out() -> None:
    """Live: the old count's 0 and 1 delivered, its 5 and 12 held. A restarted shoe's 6
    comes, unasked, inside the gap behind 12: a restart suspected; its 7 and 8 are lost and
    its heartbeat names 9. The old count has used numbers past 9, so the heartbeat is not
    the old count's: it bears the restart out (it used to reject it, and the new 6 was
    named as not delivered while the old count's gaps stayed open for the new count's
    frames to fill)."""
    receiver = NativeReceiver(retries=1, resend_after=0.2)
    frames, before = one_by_one(0, 13)
    assert receiver.feed(frames[0] + frames[1], 0.0) == before[:2]
    assert receiver.feed(frames[5] + frames[12], 0.01) == []
    assert requests(receiver) == [(2, 3)]
    got = receiver.feed(wire(card("KD"), 6) + heartbeat(9), 0.02)
    assert got == [
        Lost(3, "seq 2..4 never arrived"),
        before[5],
        Lost(6, "seq 6..11 never arrived"),
        before[12],
        ShoeAlarm("the shoe restarted its count: seq 6 after 12"),
    ]
    assert requests(receiver) == [(0, 6)]
    assert receiver.idle(0.3) == [Lost(6, "seq 0..5 never arrived"), card("KD")]


def test_a_restart_heartbeat_then_a_suspect_frame_a_little_ahead_of_it_is_a_restart() -> None:
    """Live: the old count's 0 and 1 delivered, its 4 and 6 held. The restarted shoe's
    heartbeat names 0 (a frame delivered: stale, or a restart); its 0 to 4 are lost, and its
    5 comes, unasked, inside the gap behind the old 6. Both point to a count started again
    at 0: the restart is believed (the heartbeat was dropped as unconfirmed, the new 5
    suspected alone, and the new count's next frames went on filling the old count's
    places)."""
    receiver = NativeReceiver(retries=1, resend_after=0.2)
    frames, before = one_by_one(0, 7)
    assert receiver.feed(frames[0] + frames[1], 0.0) == before[:2]
    assert receiver.feed(frames[4] + frames[6], 0.01) == []
    assert requests(receiver) == [(2, 2)]
    got = receiver.feed(heartbeat(0) + wire(card("KD"), 5), 0.02)
    assert got == [
        Lost(2, "seq 2..3 never arrived"),
        before[4],
        Lost(1, "seq 5 never arrived"),
        before[6],
        ShoeAlarm("the shoe restarted its count: seq 0 after 6"),
    ]
    assert requests(receiver) == [(0, 1), (0, 5)]
    assert receiver.idle(0.3) == [Lost(5, "seq 0..4 never arrived"), card("KD")]
