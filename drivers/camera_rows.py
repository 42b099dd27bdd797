"""The layout's two rows, told apart by where the cards lie, and the row the rules deal each
card to.

A coup's first card opens the noir row (the top one), so a lone row is the noir row — until
the camera has seen a coup's two rows together: from then on it knows where each lies, and
a lone row below the middle of the two is the rouge row (a card laid out of its place, which
the shoe's witness or the row check below then catches). The cards counted before it knew,
the very first coup's, are checked again once it does. A card below the rouge row counts
as the rouge row's, one above the noir row as the noir row's: out of place either way.

`RowCheck` follows a coup as the camera emits its cards: the rules deal to the noir row
until its point passes thirty, then to the rouge row. A named card lying in the other row is
a card the engine will count where it does not lie: an alarm for the tailleur.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from croupier.cards import Card
from croupier.coup import PASS_MARK
from croupier.decisions import Row
from vision.layout import Seen, group_rows


class RowFinder:
    """Which row each card lies in, by its height on the layout."""

    def __init__(self) -> None:
        self._middle: float | None = None  # between the two rows, once both were seen

    @property
    def placed(self) -> bool:
        """Whether the camera has seen where the two rows lie."""
        return self._middle is not None

    def rows(self, seen: Sequence[Seen]) -> tuple[list[Seen], list[Seen]]:
        """The noir row and the rouge row, each left to right."""
        groups = group_rows(list(seen))
        heights = [float(np.mean([s.quad.centre[1] for s in g])) for g in groups]
        if len(groups) >= 2:
            self._middle = (heights[0] + heights[1]) / 2
        if self._middle is None:
            # No coup's two rows seen yet: the top row is the noir row, as it opens first.
            return (groups[0] if groups else []), [s for g in groups[1:] for s in g]
        noir = [s for g, y in zip(groups, heights, strict=True) if y < self._middle for s in g]
        rouge = [s for g, y in zip(groups, heights, strict=True) if y >= self._middle for s in g]
        return noir, rouge


@dataclass
class RowCheck:
    """The coup being laid, as the engine counts it from the emitted cards."""

    points: dict[Row, int] = field(default_factory=lambda: {Row.NOIR: 0, Row.ROUGE: 0})
    blind: bool = False  # a card went for confirmation: its point is the tailleur's to say
    # each card counted, by its key: the card, the row it counts for, noir's point before it
    counted: dict[int, tuple[Card, Row, int]] = field(default_factory=dict)

    def emitted(self, card: Card | None, lies: Row | None, key: int) -> str | None:
        """Count a card the camera emitted (None: sent for confirmation), lying in row `lies`
        (None: it left the layout); what is wrong, if anything. `key` names it for
        `recheck`."""
        if self.blind or self.points[Row.ROUGE] > PASS_MARK:
            return None  # a card after a complete coup, on a layout not cleared: not ours
        if card is None:
            self.blind = True
            return None
        noir = self.points[Row.NOIR]
        dealt = Row.NOIR if noir <= PASS_MARK else Row.ROUGE
        self.points[dealt] += card.points
        self.counted[key] = card, dealt, noir
        return None if lies is None else _misplaced(card, lies, dealt, noir)

    def recheck(self, lies: Callable[[int], Row | None]) -> list[str]:
        """The cards counted so far, looked at again where they lie now (`lies`: None for a
        card no longer on the layout): for when the camera has just learned where the rows
        lie, the coup's first cards having been taken, as a lone row, for noir's."""
        found = []
        for key, (card, dealt, noir) in self.counted.items():
            now = lies(key)
            if now is not None and (wrong := _misplaced(card, now, dealt, noir)) is not None:
                found.append(wrong)
        return found


def _misplaced(card: Card, lies: Row, dealt: Row, noir: int) -> str | None:
    if dealt is lies:
        return None
    return (f"card {card} lies in the {lies.value} row, but the noir row stands at {noir}: "
            f"it counts for {dealt.value}")
