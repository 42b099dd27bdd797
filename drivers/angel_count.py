"""Angel's sequence count (PROTOCOL.md §6): what the numbers of the messages say was lost
or happened. The range is not published: the numbers seen so far give it, a step from the
highest seen to the lowest (or below) is a wrap, a step forward past missing numbers is a
loss, and a step back from below the highest is reported as a restart (or a loss at the
wrap: the numbers alone cannot tell which). Numbers read on messages not confirmed count
too, where the believed ones cannot see.
"""

from __future__ import annotations

import itertools

from drivers.messages import Lost, Message, ShoeAlarm

# How much further than the numbers of a chain `SequenceCount.skipped` lets one step of it
# reach: a number further on is no step of the count (the messages between, not counted).
STEP_SLACK = 4
# how far on one step of a chain of two numbers may reach
TWO_STEP_REACH = 2 + STEP_SLACK


class SequenceCount:
    """The shoe's message count. `seq_range` (lowest, highest) when the shoe model's range is
    known; otherwise it is learned from the numbers seen."""

    def __init__(self, seq_range: tuple[int, int] | None = None) -> None:
        self._range = seq_range
        self._last: int | None = None
        self._low = self._high = 0
        self._wrapped = False
        self._landings = 0  # wraps that landed on the lowest number seen
        # the ends of the numbers read in step, believed or not (`widen`)
        self._read_low = self._read_high = 0
        # a number read on a message not confirmed and the lower one right after it (or,
        # first in the input, the one after that, past a number misread: `widen`)
        self._edges: set[tuple[int, int]] = set()
        self._said: tuple[int, int] | None = None  # the ends of the last step that said a loss

    def _successor(self, seq: int) -> int:
        if self._range is not None:
            low, high = self._range
            return low if seq == high else seq + 1
        return self._low if self._wrapped and seq == self._high else seq + 1

    def follows(self, previous: int, seq: int) -> bool:
        """`seq` may be the number after `previous`, as far as the range known tells."""
        if seq == self._successor(previous):
            return True
        return self._range is None and previous == self._high and seq <= self._low

    def past_next(self, before: int, after: int) -> bool:
        """`after` comes after `before` past the number after it, as far on as one step of
        a chain of two may reach (`STEP_SLACK`)."""
        return self.near(before, after, TWO_STEP_REACH) and not self.follows(before, after)

    def accounted(self, seq: int, numbers: list[int]) -> int:
        """How many messages delivered since the last number, with `numbers` as read but not
        trusted, stand for numbers between it and `seq`: no more than the distinct ones
        read between them, so that a message delivered twice, or one whose number was
        misread, never hides a loss (one misread only makes a loss reported that was not)."""
        last = self._last
        if last is None:
            return len(numbers)
        if self._range is not None:
            low, high = self._range
            size = high - low + 1
            ahead = (seq - last) % size
            inside = {d for n in numbers if 0 < (d := (n - last) % size) < ahead}
        elif seq > last:
            inside = {n for n in numbers if last < n < seq}
        else:
            return len(numbers)  # a wrap or a restart: the count cannot say which numbers
        return min(len(numbers), len(inside))

    @property
    def last(self) -> int | None:
        """The last number believed."""
        return self._last

    def skipped(self, chain: list[int], *, anchored: bool = True) -> tuple[int, str | None]:
        """The numbers skipped by the steps forward of `chain`: a number believed (or none,
        `anchored` False), the numbers read on messages delivered since but not confirmed,
        and the next number believed (or none). A step back is a wrap or a restart, which
        `step` judges; a step forward longer than the messages read could fill is a number
        misread. And where a misread number sits so that what was lost around it the
        numbers cannot show: where no step forward spans it (beside a step back), first,
        with nothing believed before it (the first message's number misread, or as many
        messages lost after it as the step is long: either way, not counted), or where the
        numbers kept after one believed step back with no wrap known to explain it (with
        none believed, back to above the first number kept)."""
        longest = len(chain) + STEP_SLACK

        def step(before: int, after: int) -> int | None:
            return self._ahead(before, after) if self.near(before, after, longest) else None

        def stepped_back(run: list[int], at: int) -> bool:
            """Whether `run` steps back after `at`, though passing over either number of the
            step would not."""
            before, after = run[at], run[at + 1]
            if before == after or step(before, after) is not None:
                return False
            ahead = at + 2 < len(run) and step(before, run[at + 2]) is not None
            return not (ahead or (at > 0 and step(run[at - 1], after) is not None))

        # a number that neither follows the one before nor leads to the one after was
        # misread: the run goes on around it
        kept = chain[:1]
        misread_after: list[int] = []  # where in `kept` a misread number was passed over
        for at in range(1, len(chain) - 1):
            if step(kept[-1], chain[at]) is not None or step(chain[at], chain[at + 1]):
                kept.append(chain[at])
            else:
                misread_after.append(len(kept) - 1)
        kept += chain[-1:] if len(chain) > 1 else []
        blind = None
        if any(step(kept[at], kept[at + 1]) is None for at in misread_after):
            blind = "beside a step back of the count"
        elif not anchored and len(kept) > 1 and step(kept[0], kept[1]) is None:
            blind = "first, not leading to the next"
        elif any(
            stepped_back(kept, at) and (anchored or kept[at + 1] > kept[0])
            for at in range(len(kept) - 1)
        ):
            # after a number believed, a step back no wrap known explains and no one number
            # misread mends: the count's first wrap read only on messages not confirmed, or
            # several numbers misread, around which nothing is counted (before any number
            # believed, a capture may open anywhere in the count, so only a step back to
            # above the first number read, where no wrap lands, shows as much)
            blind = "where the numbers read step back (or the count wrapped there, unseen)"
        skipped = sum(
            ahead - 1
            for before, after in itertools.pairwise(kept)
            if (ahead := step(before, after)) is not None
        )
        return skipped, blind

    def placed(
        self, first: int | None, candidates: list[tuple[int, ...]], last: int | None
    ) -> list[int]:
        """Of the numbers read on each message delivered untrusted (its copies disagreed, or
        a copy of it came again under another number), likeliest first, the ones that make
        the most steps of the chain from `first` to `last` follow on: a damaged copy's
        number is then not taken for the message's own, which would hide the numbers
        skipped around it."""
        longest = len(candidates) + 6

        # for each message and each of its numbers: the most steps that follow on up to it
        # (`scores`), and which of the numbers before gave them (`paths`)
        previous: tuple[int, ...] = () if first is None else (first,)
        scores = [0] * len(previous)
        paths: list[list[int]] = []

        def pick(options: list[int], befores: tuple[int, ...], after: int | None) -> int:
            """Of the numbers before `after` that score best, the first read; for the first
            message, when nothing before it is known, the one furthest back that `after`
            follows (the choice changes nothing else): a loss before `after` is shown."""
            top = max(options)
            if first is not None or after is None or len(paths) > 1:
                return options.index(top)
            tied = [at for at, option in enumerate(options) if option == top]
            return max(tied, key=lambda at: self._reach(befores[at], after, longest))

        for numbers in candidates:
            best: list[int] = []
            back: list[int] = []
            for number in numbers:
                options = [
                    score + self.near(before, number, longest)
                    for before, score in zip(previous, scores, strict=True)
                ]
                best.append(max(options, default=0))
                back.append(pick(options, previous, number) if options else 0)
            paths.append(back)
            previous, scores = numbers, best
        ends = [
            score + (last is not None and self.near(number, last, longest))
            for number, score in zip(previous, scores, strict=True)
        ]
        if not candidates:
            return []
        at = pick(ends, previous, last)
        chosen: list[int] = []
        for numbers, back in zip(reversed(candidates), reversed(paths), strict=True):
            chosen.append(numbers[at])
            at = back[at]
        return chosen[::-1]

    def _reach(self, before: int, after: int, longest: int) -> int:
        """How far on `after` is from `before`, if near (else 0)."""
        return (self._ahead(before, after) or 0) if self.near(before, after, longest) else 0

    def near(self, before: int, after: int, longest: int) -> bool:
        """`after` comes after `before`, no further than `longest` on."""
        ahead = self._ahead(before, after)
        return ahead is not None and 0 < ahead <= longest

    def _ahead(self, before: int, after: int) -> int | None:
        """How far `after` comes after `before` in the count as known; None for a step back
        that no known wrap explains."""
        if self._range is not None:
            low, high = self._range
            return (after - before) % (high - low + 1)
        if after > before:
            return after - before
        # the ends as read, one on from another (`widen`), reach beyond those believed
        low = min(self._low, self._read_low)
        if self._wrapped and low <= after:
            return max(self._top(), before) - before + after - low + 1
        return None

    def _top(self) -> int:
        """The highest number, as read on messages confirmed or not (`widen`), or as the
        number read unconfirmed before a step back to the lowest (a wrap from the top, if
        near)."""
        high = max(self._read_high, self._high)
        near = (top for top, low in self._edges if low <= self._low and 0 < top - high <= 2)
        return max(near, default=high)

    def step(self, seq: int, between: int = 0, read: list[int] | None = None) -> list[Message]:
        """What the step from the last number to `seq` says was lost or happened;
        `between` messages were delivered since the last number, their own not trusted,
        and took the numbers just before `seq` — unless `read` (their numbers, as read)
        shows them all in step on from the last number: then they came before a wrap."""
        last = self._last
        out = self._judged(seq, between, read)
        lost = any(isinstance(m, Lost) for m in out)
        self._said = (last, seq) if last is not None and lost else None
        return out

    def contradicted(
        self, seq: int, read: list[int], last: tuple[int, ...], *, two: bool
    ) -> str | None:
        """Where a number believed, `seq`, and a number read beside it, not confirmed, say
        either was misread, so that the loss said may lie elsewhere than the count puts it:
        the count's first wrap landing below `seq` on the numbers `read` since the last number
        believed (seed 10046422: a failed read's 32 read as 33, TD under 33 lost whole, then
        8S under 34 and 5S believed under 35: the wrap seemed to land on 33), the first
        read after the last number believed among those its step said lost (seed
        20011062: TD's two copies misnumbered alike 183 for 179, 179..182 said lost, then an
        alarm under 181), or, `seq` believed on `two` copies, any number the message read
        `last` before it was read under ahead of it (seed 20014195: 9H's copies under 53
        for 55, after an alarm's copies under 52 and 54, 53 lost unsaid). Called before
        the step to `seq`."""
        if self._first_landing_read(seq, read):
            return "at the count's first wrap, the lowest read only on messages not confirmed"
        said = self._said
        if said is not None and read:
            reach = self._ahead(*said) or 0
            if 0 < (self._ahead(said[0], read[0]) or 0) < reach:
                return "after a number believed, among those said lost before it"
        if two and any(self._ahead_of(seq, n) for n in last):
            return "ahead of the next believed on two copies"
        return None

    def _first_landing_read(self, seq: int, read: list[int]) -> bool:
        """Whether the step to `seq` is the count's first wrap, the range not known, landing
        on a number `read` below `seq` and below the lowest believed: the lowest number is
        then read only on messages not confirmed, any of them misread, and a message lost
        whole below them would leave the numbers in step."""
        last = self._last
        if self._range is not None or self._wrapped or last is None or not read:
            return False
        wrap = seq < last == self._high and seq - len(read) <= self._low
        return wrap and min(read) < min(seq, self._low)

    def _ahead_of(self, seq: int, number: int) -> bool:
        """`number` comes after `seq`, as far on as one step of a chain of two may reach, and
        is not as near behind it: in a count of a few numbers the one before `seq` is also a
        few on (a clean stream 67, 68, restarted to 65, 66, 67: the range 65..68 learned, 66
        read last before 67 was taken for ahead of it, a false alarm)."""
        on = self._ahead(seq, number) or 0
        return self.near(seq, number, TWO_STEP_REACH) and not self.near(number, seq, on)

    def _judged(self, seq: int, between: int, read: list[int] | None) -> list[Message]:
        last, self._last = self._last, seq
        if last is None:
            self._low = self._high = self._read_low = self._read_high = seq
            return []
        if self._range is not None:
            return self._step_in_range(last, seq, between, *self._range)
        on = read is not None and read == list(range(last + 1, last + 1 + between))
        return self._step_learned(last, seq, between, landing=seq if on else seq - between)

    def widen(self, chain: list[int], *, anchored: bool = True) -> None:
        """The numbers of `chain` (see `skipped`) each one on from the one before it are
        numbers the count reaches, read on messages confirmed or not: a wrap from the
        highest believed to the lowest is a loss of any read beyond them. Called after
        `step`, so that the numbers read around the step judge the next wraps only. A number
        read on a message not confirmed, right before a step back, may be the count's top
        (`_top` judges, once the lowest is known): with nothing believed before it
        (`anchored` False), the chain's first too, past one number misread."""
        if not anchored and len(chain) > 2:
            first, ahead, back = chain[:3]
            if ahead > first + 1 and back < first:
                # past a number misread, further on than one; or that number the top, the
                # one between lost (seed 30006201: 55, 57, then 48, a count of 48..57)
                self._edges.add((first, back))
        for at in range(int(anchored), len(chain) - 1):
            # the top read once, the wrap after it, may be the only sight of it (seed
            # 50162353: 57 on QD's lone copy before 48, later 7D under 57 lost whole)
            edge = chain[at], chain[at + 1]
            if edge[1] < edge[0]:
                self._edges.add(edge)
        for before, after in itertools.pairwise(chain):
            if after == before + 1:
                self._read_low = min(self._read_low, before)
                self._read_high = max(self._read_high, after)

    def _beyond(self, last: int, seq: int, between: int) -> list[Message]:
        """A wrap from `last`, the highest believed, to `seq` skips the numbers read beyond
        the ends believed, but for those the `between` messages took (the first ones on).
        Such ends, read only on messages not confirmed, are let go once a wrap with none
        between said them lost: a number misread one beyond an end would otherwise report a
        loss at every wrap; a real end is read again (`widen` after this step may set them
        again, from the numbers read around it)."""
        top = self._top() - last
        bottom = seq - max(0, between - top) - min(self._read_low, self._low)
        count = max(0, top - between) + max(0, bottom)
        if not count:
            return []
        if not between:
            self._read_low, self._read_high, self._edges = self._low, self._high, set()
        return [Lost(count, f"{count} of seq {last}..{seq}, read before, never arrived")]

    def _step_in_range(
        self, last: int, seq: int, between: int, low: int, high: int
    ) -> list[Message]:
        ahead = (seq - last) % (high - low + 1)
        if not ahead:  # another message under the same number
            return [restart_alarm(last, seq, None)]
        if ahead <= 1 + between:
            return []
        if seq == low:
            return [restart_alarm(last, seq, ahead - 1 - between)]
        return _lost(last, seq, ahead - 1 - between, between)

    def _step_learned(self, last: int, seq: int, between: int, landing: int) -> list[Message]:
        if seq == last:  # another message under the same number
            return [restart_alarm(last, seq, None)]
        if seq > last:
            self._high = max(self._high, seq)
            return _lost(last, seq, seq - last - 1 - between, between)
        # `landing`: where the count wrapped to, if it did
        if last == self._high and seq - between <= self._low:
            out = self._beyond(last, seq, between)
            if landing < self._low:
                # the earlier wraps landed above the lowest number: they lost messages
                if self._landings:
                    count = (self._low - landing) * self._landings
                    span = f"seq {landing}..{self._low - 1}"
                    out.append(Lost(count, f"{span} never arrived at an earlier wrap"))
                self._low, self._landings = landing, 0
            self._landings += 1
            self._wrapped = True
            return out
        if last == self._high and self._wrapped:
            # a wrap landing above the lowest number: the ends read beyond those believed
            # count here too (seed 10181808: 68, read on lone copies in step below the
            # lowest believed, 69, lost again at the next wrap, unsaid)
            if min(self._read_low, self._low) < self._low or self._top() > last:
                return self._beyond(last, seq, between)
            return _lost(self._low - 1, seq, seq - self._low - between, between)
        self._low = min(self._low, seq)
        missed = self._high - last + seq - self._low - between if self._wrapped else None
        # more messages between than the wrap has room for: their numbers were misread
        return [restart_alarm(last, seq, missed if missed is None or missed >= 0 else None)]


def _lost(before: int, after: int, count: int, between: int = 0) -> list[Message]:
    """`count` of the numbers strictly between `before` and `after` never arrived, the
    others (`between`) were delivered with their numbers unread."""
    if count <= 0:
        return []
    span = f"seq {before + 1}" if count + between == 1 else f"seq {before + 1}..{after - 1}"
    if between:
        return [Lost(count, f"{count} of {span} never arrived ({between} read, unnumbered)")]
    return [Lost(count, f"{span} never arrived")]


def restart_alarm(last: int, seq: int, missed: int | None) -> ShoeAlarm:
    lost = f"{missed} message(s)" if missed is not None else "messages"
    return ShoeAlarm(
        f"the shoe's count went back from {last} to {seq}: it restarted, or {lost} "
        "were lost at its wrap"
    )
