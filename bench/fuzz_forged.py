"""What the frames in the bytes a decoder received read as, for `make fuzz`'s accounting.

Frames that a bad line forged are damaged copies as good as sent. With the check verified,
one damaged frame whose 16-bit check still passes (about one in 65,536); without it, two
copies damaged alike (the votes a message needs). No receiver can tell them from what the
shoe sent, so `make fuzz` counts what they deliver (a card, or an alarm: a card's command
byte damaged alike in two copies reads as an alarm), and the loss they hide, apart — only
when no other frame taken for the same message sent reads otherwise (a dispute the
receiver could have raised), and the delivered message is exactly what such frames read as
(frames read as the decoder reads them: two copies that differ only in the intention byte,
which is ignored on receipt, are alike).

With the check verified, it covers the number too: a frame whose number alone was damaged,
its check still passing, is as good as sent under that number (seed 10720612: a copy of QD
under 187 came under 155, its first check byte lost and the next frame's ENQ read as the
second, the check of the damaged body). The very same bytes arrive from a shoe whose count
restarted at 155 after 186, the messages from 156 to 186 lost whole, and which dealt QD
again under 187 (six decks): for that shoe, the QD delivered first and the 31 said lost are
right, and a receiver dropping it would lose that shoe's card unsaid. Without a check the
number is not verified: the decoder weighs copies' numbers (drivers/PROTOCOL.md §6), so
what copies misnumbered alike deliver, or hide, is not counted apart. But one copy each of
two messages sent in a row, each damaged once, may read alike under one number: the first
message's copy, its number intact, its card byte damaged into the card the next message is,
and the next message's copy, intact but for its number, damaged into the first's (seed
30028282: 3C's copy read as AC under 136, AC's sent under 137 read under 136). When nothing
else of the first message arrived and no frame of it or its neighbours under that number
reads otherwise, the bytes are exactly those of a shoe that sent that card under that
number, its other copies lost and the next numbers' lost or damaged: nothing in them
tells the two shoes apart, and for that one the decoder's AC under 136, then 137 and 138
said lost, is exactly right. So the message sent there is aligned as that card
(`stand_ins`), and so is one whose two copies read alike as a card it is not: what is
delivered for it counts as as good as sent, and the message sent there, unless a report
covers it, is lost undetectably, its number taken. Aligned as sent instead, a card
delivered for such frames was paired with the very card sent next, and the message whose
number they took counted lost silently (seed 50078453). On 20,000 inputs from 10,000,000
and from 30,000,000, one input each moves (a loss reported before, now undetectable).

Which message sent each frame came from is recorded as the line damaged it
(`bench.fuzz_inputs.Span`): its number may be damaged too, so guessed back from it, a frame
was placed at another message (or nowhere), where it made a dispute no receiver saw, and a
misread delivered from it counted as invented (issue 11, seed 30007158). Only frames built
by hand, with no record, are placed by their number. Every frame's origin and reading also
tell which message sent a misread delivered stands for, where its reading alone cannot (a
failed read, or a damaged card's guess)."""

from __future__ import annotations

import bisect
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from bench.fuzz_inputs import Span, Stream
from drivers import angel
from drivers.angel_copies import as_sent
from drivers.checks import Check, crc16_ccitt
from drivers.messages import CardRead, Garbage, Message

INVENTED = "invented, undetectable: damaged copies as good as sent"
ALARM = "alarm, undetectable: damaged copies as good as sent"
LOST = "lost, undetectable: its number taken by damaged copies as good as sent"


@dataclass(frozen=True, slots=True)
class Received:
    """`forged`: what the frames never sent read as, when as many of them agree as a
    message needs, with the numbers they came under; `readings`: what the frames taken for
    each sent message's (`places`) read as, in the order sent; `numbered`: which sent
    messages' very numbers some frame came under."""

    forged: dict[Message, set[int]]
    readings: list[set[Message]]
    # the sent messages under whose very number a frame arrived (None: those with readings)
    numbered: frozenset[int] | None = None
    # the sent messages whose number frames as good as sent took, with what they read as
    # (`stand_ins`)
    stand_ins: dict[int, Message] = field(default_factory=dict)


def places(stream: Stream, frames: list[tuple[int, bytes]]) -> list[int | None]:
    """For each frame read (number, data as the decoder reads it), the sent message it came
    from, as far as its number tells: a number recurs in a stream (a count wraps, or
    restarts), so of the messages sent under it, the first not behind the last message a
    frame was exactly that it is exactly (frames arrive in the order sent; a copy doubled
    may come just after the next message's), else the one nearest after that message;
    None for a number nothing was sent under."""
    under: defaultdict[int, list[int]] = defaultdict(list)
    for index, seq in enumerate(stream.seqs):
        under[seq].append(index)
    data = [angel.message_data(message) for message in stream.messages]
    found: list[int | None] = []
    exact_at: list[int | None] = []  # where each frame read exactly was sent
    at = -1  # the message the last frame read exactly was sent as
    for seq, read in frames:
        candidates = under.get(seq, [])
        exact = [index for index in candidates if index >= at - 1 and data[index] == read]
        if exact:
            at = exact[0]
            found.append(at)
        else:
            found.append(min(candidates, key=lambda index: abs(index - at - 1), default=None))
        exact_at.append(at if exact else None)
    return _in_order(found, exact_at)


def _in_order(found: list[int | None], exact_at: list[int | None]) -> list[int | None]:
    """`found` with None for a frame not read exactly that its number places where it cannot
    have come from: frames arrive in the order sent, so a frame comes from no message before
    one that two frames in a row before it read exactly as, nor after one that two frames in
    a row after it read exactly as (but for one: a copy doubled may come just after the next
    message's). Such a frame is a neighbour's, its number misread: placed far away, it made
    a dispute there that no receiver could see (seeds 10122340, 20024933: a copy misnumbered
    eight messages early, or sixteen late, under the number of a card whose two copies were
    damaged alike). One frame alone is no bound: a damaged copy may read exactly as a
    message sent later (seed 20034328: 4C's copy read as 5C, sent ten messages on)."""
    padded = [None, *exact_at, None]
    bounds = [
        at if at is not None and at in (before, after) else None
        for before, at, after in zip(padded, padded[1:], padded[2:], strict=False)
    ]
    nexts: list[int | None] = []  # the next bound after each frame
    upcoming: int | None = None
    for bound in reversed(bounds):
        nexts.append(upcoming)
        upcoming = bound if bound is not None else upcoming
    out: list[int | None] = []
    before = -1
    for index, exact, bound, after in zip(found, exact_at, bounds, reversed(nexts), strict=True):
        before = before if bound is None else bound
        late = index is not None and index < before - 1
        early = index is not None and after is not None and index > after + 1
        out.append(None if exact is None and (late or early) else index)
    return out


class _PlacedFramer(angel.AngelFramer):
    """The angel framer, which also keeps where in the bytes fed each frame began."""

    def __init__(self, check: Check | None) -> None:
        super().__init__(check)
        self.fed = 0
        self.gone = 0  # bytes fed that left the buffer
        self.starts: list[int] = []

    def feed(self, data: bytes) -> list[tuple[int, bytes] | Garbage]:
        self.fed += len(data)
        return super().feed(data)

    def _skip(self, count: int) -> None:
        self.gone += min(count, len(self._buffer))
        super()._skip(count)

    def _next(self) -> tuple[int, bytes] | None:
        frame = super()._next()
        if frame is not None:
            self.starts.append(self.gone)
            self.gone = self.fed - len(self._buffer)
        return frame

    def drop_partial(self) -> list[tuple[int, bytes] | Garbage]:
        at, known = self.gone, len(self.starts)
        out = super().drop_partial()
        if sum(not isinstance(item, Garbage) for item in out) > len(self.starts) - known:
            # a card frame taken whole up to its ETX, ahead of those read after it
            self.starts.insert(known, at)
            self.gone = self.fed - len(self._buffer)
        return out


def received_frames(
    stream: Stream, received: bytes, *, checked: bool, spans: list[Span] | None = None
) -> Received:
    """The frames in `received` (`checked`: a forged one needs its check to pass; else
    two alike, taken for one message sent that they are not); `spans`: where each part of
    `received` came from (`bench.fuzz_inputs.damage`), when known."""
    framer = _PlacedFramer(crc16_ccitt if checked else None)
    # as the decoder reads them: copies that differ only in the ignored intention byte agree
    frames = [
        (item[0], as_sent(*item))
        for item in framer.feed(received) + framer.finish()
        if not isinstance(item, Garbage)
    ]
    origins = places(stream, frames) if spans is None else _origins(framer.starts, spans)
    sent = [angel.message_data(message) for message in stream.messages]
    readings: list[set[Message]] = [set() for _ in stream.messages]
    # what the frames from each message sent read as, by the number they came under
    under: list[set[tuple[int, Message]]] = [set() for _ in stream.messages]
    unsent: Counter[tuple[int, bytes, int | None]] = Counter()
    numbered: set[int] = set()
    for (seq, data), index in zip(frames, origins, strict=True):
        if index is not None:
            readings[index].add(angel.data_message(data))
            under[index].add((seq, angel.data_message(data)))
            if seq == stream.seqs[index]:
                numbered.add(index)
        if index is None or sent[index] != data or (checked and seq != stream.seqs[index]):
            unsent[seq, data, index] += 1
    forged: dict[Message, set[int]] = {}
    for (seq, data, index), copies in unsent.items():
        message = angel.data_message(data)
        # Damaged copies are as good as sent only when no copy of that very message under
        # the same number reads otherwise: one that does (the card sent, intact; or damaged
        # another way) shows the receiver a dispute it could have raised, so what they
        # outvoted stays a silent loss and what they read as stays invented. So does a copy
        # of a neighbour under that number: the frames cannot say whether its number or
        # its data was damaged.
        near = range(max(0, index - 1), index + 2) if index is not None else range(0)
        disputed = any(
            number == seq and reading != message
            for k in near if k < len(under) for number, reading in under[k]
        )
        if copies >= (1 if checked else 2) and not disputed:
            forged.setdefault(message, set()).add(seq)
    stand_ins = {} if checked else _stand_ins(stream, frames, origins)
    return Received(forged, readings, frozenset(numbered), stand_ins)


def _stand_ins(
    stream: Stream, frames: list[tuple[int, bytes]], origins: list[int | None]
) -> dict[int, Message]:
    """Without a check, the sent messages whose every frame to arrive reads as one card they
    are not, under their own number, on as many frames as a message needs: their own
    damaged alike (seed 50078453: QD's two copies read as QS under 191, the QS sent under
    192 read as KS and as QS face up; QS delivered was paired with the QS sent, and QD
    counted lost silently), or theirs beside an intact copy of the next message, that card,
    its number damaged into theirs (seed 30028282: 3C's copy read as AC under 136, AC's own
    sent under 137 read under 136; the decoder delivers AC under 136 and says 137 and 138
    lost, exactly right for a shoe that sent AC under 136); no frame of theirs or of their
    neighbours under that number reading otherwise. The bytes are those of a shoe that sent
    that card under their number: no receiver can tell, so the message sent is lost
    undetectably, its number taken, and what the frames read as is as good as sent."""
    sent = [angel.message_data(message) for message in stream.messages]
    taken: defaultdict[int, list[tuple[int, bytes]]] = defaultdict(list)
    for frame, index in zip(frames, origins, strict=True):
        if index is not None:
            taken[index].append(frame)
    out: dict[int, Message] = {}
    for index, seq in enumerate(stream.seqs):
        mine = taken.get(index, [])
        if not mine or len(set(mine)) > 1 or mine[0][0] != seq or mine[0][1] == sent[index]:
            continue
        card = mine[0][1]
        # the next message's copies, that very card, intact but for their number
        follows = index + 1 < len(sent) and sent[index + 1] == card
        follows = follows and stream.seqs[index + 1] != seq
        votes = len(mine) + (taken.get(index + 1, []).count((seq, card)) if follows else 0)
        near = [f for k in range(index - 1, index + 3) for f in taken.get(k, []) if f[0] == seq]
        read, own = angel.data_message(card), stream.messages[index]
        # the card sent the other way up is that card, its face-up flag wrong
        turned = isinstance(own, CardRead) and isinstance(read, CardRead) and own.card == read.card
        if isinstance(read, CardRead) and not turned and votes > 1 and all(
            data == card for _, data in near
        ):
            out[index] = read
    return out


def _origins(starts: list[int], spans: list[Span]) -> list[int | None]:
    """The message sent each frame (beginning at `starts`) came from: the one whose copy
    holds its command byte (None: noise, or a stale frame)."""
    offsets = [span.start for span in spans]
    found: list[int | None] = []
    for start in starts:
        at = bisect.bisect_right(offsets, start + 2) - 1
        frame = spans[at].frame if at >= 0 else None
        found.append(None if frame is None else frame // angel.COPIES)
    return found
