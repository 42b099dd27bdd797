"""A restart of a native shoe's count that the receiver suspects but does not yet believe
(PROTOCOL.md §4: a restart is believed only when what follows agrees), and, once believed,
which of the frames held were the new count's."""

from __future__ import annotations

from dataclasses import dataclass, field

from drivers.native_frames import SEQ_MODULUS, NativeFrame


@dataclass(slots=True)
class Restart:
    """A count that may have started again at `first`: a heartbeat or data frames behind
    the expected number, waiting for what follows to agree (`next` is the number that
    would, `signals` how many frames have agreed). Data frames held here are not yet
    delivered."""

    first: int
    next: int
    signals: int = 0
    frames: list[NativeFrame] = field(default_factory=list)
    alarmed: bool = False
    jump: bool = False  # ahead of the count, not behind it: a gap when believed

    def went_on_to(self, seq: int, reach: int) -> bool:
        """Whether `seq` lies a little ahead (at most `reach`) of the number this restart
        expects next, as its count would after losing the frames between: only for a count
        suspected behind the old one (a jump ahead has no such run)."""
        return not self.jump and 0 < (seq - self.next) % SEQ_MODULUS <= reach


def new_count_run(
    held: dict[int, NativeFrame], first: int, expected: int
) -> dict[int, NativeFrame]:
    """Of the frames `held` (in the order they came) behind a gap at `expected`, those below
    `first` that a count restarted at `first` sent, taken until then for frames after a gap
    in the old count. When the old count's frames are held at and beyond `first` (the
    numbers the new count used again), they are those below it that came after the last
    of them; otherwise, the run held just below `first`, when nothing joins it to the old
    count."""

    def ahead(seq: int) -> int:
        return (seq - expected) % SEQ_MODULUS

    order = list(held)
    old = [seq for seq in order if ahead(seq) >= ahead(first)]
    if old:
        last = max(old, key=ahead)
        later = order[order.index(last) + 1 :]
        return {seq: held[seq] for seq in later if seq not in old}
    run: dict[int, NativeFrame] = {}
    seq = first - 1
    while seq >= 0 and (frame := held.get(seq)) is not None:
        run[seq] = frame
        seq -= 1
    below = seq % SEQ_MODULUS
    if below in held or below == (expected - 1) % SEQ_MODULUS:
        return {}
    return run
