"""How `make fuzz` accounts for what it sent: every sent message delivered, delivered as a
misread, reported missing (`lost`, or a restart alarm) or lost silently; every delivered
card that matches nothing sent, invented."""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field

from bench import fuzz_forged
from bench.fuzz_inputs import Stream
from bench.fuzz_pairs import pairs
from drivers.messages import CardRead, CutRead, Garbage, Lost, Message, Misread, ShoeAlarm, Status
from drivers.native_frames import SEQ_MODULUS

LINK_ALARMS = ("the shoe restarted", "the shoe's ", "seq ")
_ONE = re.compile(r"^seq \d+ \(|a card may be missing")
_ROOM = re.compile(r"room for (\d+) more message")
# lost whole where the numbers stay in step: no receiver can see these from the bytes
RESTART_EDGE = "undetectable: beside a restart that lands in step"
# at an end of a learned count not shown yet: seen as a wrap; the end shows later or never
END_LATER = "undetectable then: beyond the count's ends, its number shown later"
END_NEVER = "undetectable: beyond the count's ends, its number never shown"
UNDETECTABLE = (RESTART_EDGE, END_LATER, END_NEVER)
ROOM = "lost beyond the least an unreadable-bytes alarm there gave"
GARBLED = "delivered garbled, or as a misread"
GUESSED = f"{GARBLED}: of which misreads guessing the card sent"
BEE_NAMES = {  # bee has no sequence and no check: the link cannot see these
    "SILENT LOSS": "lost, undetectable (bee)",
    "INVENTED": "doubled, undetectable (bee)",
}


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

    def merge(self, other: Tally) -> None:
        """Adds another run's tally (the examples kept are the lowest seeds)."""
        self.inputs += other.inputs
        self.random_inputs += other.random_inputs
        self.seconds = max(self.seconds, other.seconds)
        self.counts.update(other.counts)
        for name, seed in other.examples.items():
            self.examples[name] = min(seed, self.examples.get(name, seed))


def link_alarm(message: Message) -> bool:
    return isinstance(message, ShoeAlarm) and message.text.startswith(LINK_ALARMS)


def align(
    stream: Stream,
    got: list[Message],
    tally: Tally,
    seed: int,
    *,
    capture: bool,
    tail: bool,
    bee_alarms: bool,
    stale: bool = False,
    received: fuzz_forged.Received | None = None,
) -> None:
    """Accounts for every message sent and every message delivered.

    A sent message that nothing delivered counts as reported only by what the link said in
    its place — between the messages delivered either side of it: a `lost` count, an alarm
    about one message (`seq N (…)`, "a card may be missing"), an alarm with room for so many
    (`room for N more message(s)`: N is the least the unreadable bytes show, so what its gap
    lost beyond N is counted apart, as lost where an alarm was raised), or an alarm that the
    count restarted or cannot be trusted (which covers its whole gap). Angel without a
    check delivers a message whose copies disagree as a misread and counts its number only
    at the next message it believes: a loss reported there, after misreads but before any
    card or alarm taken as read, counts as reported; so does one said just before the
    message delivered ahead of it (copies of neighbours arrive interleaved). Anything else
    is a silent loss.

    Counted apart, as no receiver can notice them: what is missing before the first message
    delivered when `capture` (it may begin anywhere) and, when `tail`, after the last one;
    and, for a count whose range is learned (angel), a message lost whole where the numbers
    stay in step: at an end of the count not shown yet by the messages taken as read (it
    looks like a wrap), or just before or after a restart (which lands where the count would
    have been, or looks like a wrap); those at an end of the count are split by whether a
    message read later shows their number (a receiver could tell in hindsight). With
    `bee_alarms`, unreadable bytes raise an alarm on a live line. With `stale`, copies of
    the first frame came back later: one delivered where its number is the count's next
    (after the numbers reported lost) is a frame no receiver can tell from news. `received`
    (`bench.fuzz_forged`): what the frames received read as; what frames damaged yet as good
    as sent read as, delivered, is counted apart, and so is a loss silent only because one
    came under its number."""
    accounts = _Accounts(stream, got, capture=capture, bee_alarms=bee_alarms, stale=stale,
                         received=received)
    for message in got:
        accounts.take(message)
    accounts.finish(tail)
    for name, count in accounts.counts.items():
        tally.add(BEE_NAMES.get(name, name) if bee_alarms else name, count, seed)


class _Accounts:
    """`align`'s ledger, message by message delivered: what each gap between the messages
    paired with sent ones reported, and what it lost."""

    def __init__(
        self,
        stream: Stream,
        got: list[Message],
        *,
        capture: bool,
        bee_alarms: bool,
        stale: bool,
        received: fuzz_forged.Received | None,
    ) -> None:
        self.stream, self.capture, self.bee_alarms, self.stale = stream, capture, bee_alarms, stale
        # a message whose number frames as good as sent took is aligned as what they read as
        self.stand_ins = {} if received is None else received.stand_ins
        self.sent = sent = [self.stand_ins.get(k, m) for k, m in enumerate(stream.messages)]
        self.matchable: list[Message] = [
            m for m in got if not isinstance(m, Lost | Garbage | Status) and not link_alarm(m)
        ]
        self.got = got
        self.read = read = None if received is None else received.readings
        self.paired = pairs(sent, self.matchable, read)
        self.forged = {} if received is None else received.forged
        self.numbered = None if received is None else received.numbered
        self.used = set(self.paired.values())
        self.delivered = sorted(self.used)
        # the numbers of every message delivered as read, over the whole input
        shown = [stream.seqs[j] for i, j in self.paired.items() if self.matchable[i] == sent[j]]
        self.shown_low, self.shown_high = (min(shown), max(shown)) if shown else (0, -1)
        self.counts: Counter[str] = Counter()
        self.start = 0  # the first sent message not accounted for yet
        self.reported = 0
        self.alarmed = False  # an alarm that the count restarted or cannot be trusted
        self.room = False  # an alarm that unreadable bytes had room for more messages
        self.garbage = False
        self.restart_alarm = False  # one that says the count restarted, not one about a frame
        self.pending = 0  # lost unreported since the last message taken as read
        self.region = 0  # where the messages since the last one taken as read begin
        self.region_edges = 0  # of those lost there, how many were counted undetectable
        self.early = 0  # reported in the gap before, beyond what was missing there
        self.index = 0  # the next message in `matchable`
        self.last_pair: int | None = None  # the sent message the last one delivered stands for
        self.lost_since = 0  # numbers reported lost since
        # the numbers of each forged message delivered since the last one paired, and the
        # sent messages lost silently that such a message took the number of, one each
        self.forged_open: list[set[int]] = []
        self.excused: set[int] = set()
        self.size = stream.top - stream.bottom + 1

    def take(self, message: Message) -> None:
        """One message delivered, in order."""
        if isinstance(message, Lost):
            self.reported += message.count
            self.lost_since += message.count
        elif isinstance(message, ShoeAlarm) and link_alarm(message):
            covers = _covers(message.text)
            if covers is not None and _ROOM.search(message.text) is not None:
                self.room = True
            if covers is None:
                self.alarmed = True
                self.restart_alarm = self.restart_alarm or "restarted" in message.text
            else:
                self.reported += covers
        elif isinstance(message, Garbage):
            self.garbage = True
        elif isinstance(message, Status):
            self.counts["status from noise"] += 1
        else:
            j = self.paired.get(self.index)
            self.index += 1
            if j is None:
                self.counts[self._unpaired(message)] += 1
            else:
                self._paired(message, j)

    def _unpaired(self, message: Message) -> str:
        """What a delivered message that stands for nothing sent is counted as."""
        stream = self.stream
        name = "INVENTED" if isinstance(message, CardRead | CutRead) else "invented misread"
        in_step = self.last_pair is not None and (
            stream.seqs[self.last_pair] + 1 + self.lost_since - stream.seqs[0]
        ) % self.size == 0
        if self.stale and message == self.sent[0] and in_step:
            name = "invented, undetectable: a stale copy numbered where the count was"
        if name == "INVENTED" and message in self.forged:
            name = fuzz_forged.INVENTED
            self.forged_open.append(self.forged[message])
        if isinstance(message, CutRead) and self.got.count(CutRead()) > 1:
            # the engine raises second_cut_card on a second cut card in a shoe
            name = "cut card doubled (the engine alarms a second cut card)"
        if isinstance(message, ShoeAlarm):
            name = "alarm from noise"
            if message in self.forged:
                name = fuzz_forged.ALARM
                self.forged_open.append(self.forged[message])
        return name

    def _paired(self, message: Message, j: int) -> None:
        """A delivered message standing for `sent[j]`: what was missing before it is judged."""
        self._excuse(j)
        head = self.capture and not self.start
        # for frames as good as sent, the message sent there is missing, and lost undetectably
        # (its number taken) unless a report covers it
        if stood := j in self.stand_ins:
            self.excused.add(j)
        where = "missing before the first frame (capture)" if head else "SILENT LOSS"
        self.missing(j + stood, where)
        how = _delivered(self.sent[j], message)
        self.counts[fuzz_forged.INVENTED if stood and how == "delivered" else how] += 1
        sent = self.sent[j]
        if isinstance(sent, CardRead) and message == Misread(sent.card):
            # the tailleur's cost of a dispute or a lone copy: he confirms a card rightly guessed
            self.counts[GUESSED] += 1
        # a card or an alarm read as sent was believed: a loss before it went unreported
        # (angel takes a lone cut card or failed read as read, its number not trusted)
        if how != GARBLED and not isinstance(message, CutRead | Misread):
            self.charge(j)
        self.start = j + 1
        self.last_pair, self.lost_since = j, 0

    def finish(self, tail: bool) -> None:
        """The end of what was delivered."""
        sent = self.sent
        self._excuse(len(sent))
        self.missing(len(sent), "missing at the end, nothing after it" if tail else "SILENT LOSS")
        self.charge(len(sent))
        self.counts["lost over-reported"] += self.early

    def _excuse(self, upto: int) -> None:
        """The forged messages delivered in the gap before `sent[upto]`, each matched to one
        message sent in that very gap, not delivered, under one of the numbers it came under:
        the message its number hid. A number recurs in a stream, so a forged one elsewhere
        excuses nothing here."""
        seqs = self.stream.seqs
        for numbers in self.forged_open:
            hidden = (
                k for k in range(self.start, upto)
                if k not in self.used and k not in self.excused and seqs[k] in numbers
            )
            if (k := next(hidden, None)) is not None:
                self.excused.add(k)
        self.forged_open = []

    def _said_late(self, spare: int) -> None:
        """Of the losses pending, those a report said here covers (up to `spare`); an
        unreadable-bytes alarm, raised at the next message believed, after the misreads
        since, says the least lost since the last one, so the rest are `ROOM` (seed 50044571:
        AC's copy misnumbered from 35 to 33 after 5S and 7H were lost whole, `room for 1
        more` said after AC's misread, the second loss was counted silent)."""
        late = min(self.pending, spare)
        self.counts["lost, reported after misreads before a message taken as read"] += late
        self.pending -= late
        self.reported -= late  # not over-reported: it was these
        if late and self.room:
            self.counts[ROOM] += self.pending
            self.pending = 0

    def missing(self, upto: int, where: str) -> None:
        """The sent messages from `start` to `upto` (not included) were not delivered: what
        the link said in their gap covers them, else they are counted as `where`."""
        counts = self.counts
        count = upto - self.start
        if where != "SILENT LOSS" and not self.alarmed:
            # before the first message or after the last, nothing is seen: what was said
            # here is about the losses before
            self._said_late(self.reported)
        covered = count if self.alarmed else min(count, self.reported)
        counts["reported missing"] += covered
        uncovered = count - covered
        ahead = min(uncovered, self.early)  # said one message too soon: copies arrive interleaved
        counts["lost, reported one message ahead"] += ahead
        uncovered -= ahead
        counts["lost over-reported"] += self.early - ahead
        self._said_late(len(self.sent) if self.alarmed else max(0, self.reported - count))
        if self.garbage and self.bee_alarms:
            counts["missing after unreadable bytes (bee: alarmed)"] += uncovered
            uncovered = 0
        elif self.room and where == "SILENT LOSS":
            # the alarm's count is the least the bytes show: it was raised in this gap
            counts[ROOM] += uncovered
            uncovered = 0
        elif uncovered and where == "SILENT LOSS":
            for name, edges in self.edge_unknown(self.start, upto).items():
                unseen = min(uncovered, edges)
                counts[name] += unseen
                self.region_edges += unseen
                uncovered -= unseen
        if where == "SILENT LOSS":
            self.pending += uncovered
        else:
            counts[where] += uncovered
        self.early = max(0, self.reported - count)
        restarts = self.stream.restarts
        if self.restart_alarm and not count and not any(
            self.start <= r <= upto for r in restarts
        ):
            counts["false restart alarm"] += 1
        self.reported = 0
        self.alarmed = self.room = self.garbage = self.restart_alarm = False

    def charge(self, upto: int) -> None:
        """A message taken as read, or the end: what is still unreported since the last one
        is lost silently, unless the region held more undetectable losses than were counted
        (a report said in one gap may have covered them rather than those of another)."""
        already = self.region_edges
        for name, edges in self.edge_unknown(self.region, upto).items():
            skip = min(already, edges)
            already -= skip
            unseen = min(self.pending, edges - skip)
            self.counts[name] += unseen
            self.pending -= unseen
        hidden = sum(self.region <= k <= upto for k in self.excused)
        self.counts[fuzz_forged.LOST] += (moved := min(self.pending, hidden))
        self.counts["SILENT LOSS"] += self.pending - moved
        self.pending, self.region, self.region_edges = 0, upto + 1, 0

    def edge_unknown(self, first: int, upto: int) -> Counter[str]:
        """How many messages missing in sent[first:upto] are lost beside a restart, and how
        many at an end of a count whose range is learned: between two messages delivered
        (as read or not) whose numbers step back, and numbered beyond all those seen up to
        the second of them (the numbers of the messages delivered, where a frame arrived
        under them) — by whether a message delivered
        later shows their number."""
        found: Counter[str] = Counter()
        stream, delivered = self.stream, self.delivered
        if stream.top == stream.bottom:
            return found  # bee does not count
        seqs = stream.seqs
        learned = self.size < SEQ_MODULUS  # angel: the range is learned, not known
        for index in range(first, upto):
            at = bisect.bisect(delivered, index)
            # a live native table knows the number before the first: as if delivered
            if index in self.used or at == len(delivered) or (self.capture and not at):
                continue
            before, after = delivered[at - 1] if at else -1, delivered[at]
            if self._beside_restart(index, before, after, learned):
                found[RESTART_EDGE] += 1
                continue
            # a number is seen where a frame under it arrived: a misread delivered for a
            # message whose every copy's number was damaged showed none
            numbers = [seqs[i] for i in delivered[: at + 1] if self._number_read(i)]
            if learned and at and seqs[after] < seqs[before] and not (
                numbers and min(numbers) <= seqs[index] <= max(numbers)
            ):
                shown = self.shown_low <= seqs[index] <= self.shown_high
                found[END_LATER if shown else END_NEVER] += 1
        return found

    def _number_read(self, index: int) -> bool:
        """Whether a frame under sent[index]'s number arrived, where the frames are known."""
        if self.numbered is not None:
            return index in self.numbered
        return self.read is None or bool(self.read[index])

    def _beside_restart(self, index: int, before: int, after: int, learned: bool) -> bool:
        """Whether sent[index], lost between the messages delivered `before` and `after`
        (-1: none before), lies beside a restart between them that landed where the count
        would have been (their numbers step on by less than was lost between them), or, for
        a learned count, one that looks like a wrap (the last message before it or the
        first after)."""
        seqs, restarts = self.stream.seqs, self.stream.restarts
        before_seq = seqs[before] if before >= 0 else seqs[0] - 1
        shown_lost = (seqs[after] - before_seq - 1) % self.size
        at_restart = {i for r in restarts for i in (r - 1, r)}
        return any(before < r <= after for r in restarts) and (
            index - before > shown_lost or (learned and index in at_restart)
        )


def _covers(text: str) -> int | None:
    """How many messages a link alarm accounts for; None for all those missing around it
    (a count that restarted or that a heartbeat puts elsewhere)."""
    if _ONE.search(text) is not None:
        return 1
    if (room := _ROOM.search(text)) is not None:
        return int(room.group(1))
    return None


def _delivered(sent: Message, got: Message) -> str:
    if got == sent:
        return "delivered"
    if isinstance(got, CardRead) and isinstance(sent, CardRead) and got.card == sent.card:
        return "delivered with its face-up flag wrong"
    return GARBLED
