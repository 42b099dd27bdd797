"""The shoe keeps the record, the camera witnesses: the shoe's batches are held until the
camera has seen their cards laid where the engine will place them, and every difference
between the baize and the record is played first, as an alarm for the tailleur and the chef
(`croupier.witness`), so that it is journaled before the card that decides the coup."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from croupier.decisions import CardPlaced, Decision
from croupier.engine import Shoe
from croupier.events import DeviceAlarm
from croupier.witness import DEFAULT_PATIENCE, Go, Layout, Wait, Witness, placements
from drivers.serial_shoe import Batch

SOURCE = "camera witness"
STALL = 5.0  # seconds without a frame after which held cards are played unwitnessed


class WitnessGate:
    """Between the sources and the table: `apply` plays a batch on the table (journaled),
    `engine` is the table's shoe engine as it stands."""

    def __init__(
        self,
        apply: Callable[[Batch], list[Decision]],
        engine: Callable[[], Shoe],
        patience: int = DEFAULT_PATIENCE,
    ) -> None:
        self._apply = apply
        self._engine = engine
        self.witness = Witness(patience)
        self._held: deque[Batch] = deque()
        # Where the first held batch's cards will go: found once, as nothing else is played
        # while it waits but alarms, which place no card.
        self._coming: tuple[Batch, tuple[CardPlaced, ...]] | None = None
        self._stalled = False
        self._ended = False

    @property
    def holding(self) -> bool:
        return bool(self._held)

    def offer(self, batch: Batch) -> list[Decision]:
        """A batch from the shoe: played once its cards are witnessed."""
        self._held.append(batch)
        return self._flush()

    def look(self, layout: Layout) -> list[Decision]:
        """The camera's latest frame."""
        self.witness.look(layout)
        if self._stalled and not self._ended:
            self._stalled = self.witness.blind = False
        return self._flush()

    def stalled(self) -> list[Decision]:
        """The camera has shown nothing for `STALL` seconds while cards wait for it: they
        are played unwitnessed, after an alarm, until it shows a frame again."""
        if self._stalled or not self._held:
            return []
        self._stalled = self.witness.blind = True
        alarm = DeviceAlarm(SOURCE, f"the camera has shown nothing for {STALL:g} s: the "
                            "cards are played unwitnessed", check=True)
        return self._apply(Batch((alarm,))) + self._flush()

    def ended(self) -> list[Decision]:
        """The camera stopped for good: nothing more is held for it."""
        self._ended = self.witness.blind = True
        return self._flush()

    def _flush(self) -> list[Decision]:
        out: list[Decision] = []
        while True:
            batch = self._held[0] if self._held else None
            if batch is not None and (self._coming is None or self._coming[0] is not batch):
                self._coming = (batch, placements(self._engine(), batch.events))
            coming = self._coming[1] if batch is not None and self._coming else ()
            verdict = self.witness.check(self._engine().state(), coming)
            for text in verdict.alarms:
                out += self._apply(Batch((DeviceAlarm(SOURCE, text, check=True),)))
            match verdict:
                case Wait():
                    return out
                case Go():
                    if batch is None:
                        return out
                    self._held.popleft()
                    out += self._apply(batch)
