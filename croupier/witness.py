"""The camera as the shoe's witness: the shoe's cards are the record, and the layout a camera
sees on the baize is compared with them, coup by coup, before each card is played.

A card-reading shoe names each card as it leaves the shoe; the tailleur lays it a moment
later, and the camera sees it lie. So the table holds each card the shoe read until the
camera has seen it laid where the engine will place it — or has seen something else there,
or has waited `patience` frames — and only then plays it: every difference between the
baize and the shoe's record is alarmed before the card that decides the coup is played, so
before the call. The differences:

- a card on the baize the shoe never read (a frame lost on a link that cannot tell);
- a card the shoe read that is not on the baize;
- a card switched: the baize shows another card where the shoe's card should lie;
- a card laid in the wrong place: the shoe's card lies on the baize, in another row or place.

A card the camera sees but cannot name witnesses nothing either way: it is no difference,
and a card the shoe read is played once such paper has lain a moment where it goes.
Once a coup has raised an alarm the tailleur checks its rows whole, so it raises no more.

The camera counts the times it saw the baize cleared; the cards of a coup are those laid
since the clearing the coup was first seen after, so that a coup is never compared with the
one before it still lying on the baize.
"""

from __future__ import annotations

import copy
import enum
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import assert_never

from croupier.cards import Card
from croupier.decisions import CardPlaced, Row
from croupier.engine import Phase, Shoe, ShoeState
from croupier.events import ShoeEvent
from croupier.value import Value

# Camera frames a card read by the shoe waits to be seen laid, and a difference that may be
# a card on its way (not laid yet, not read yet) waits before it is alarmed: 3 s at 15 fps.
DEFAULT_PATIENCE = 45
# Frames paper the camera cannot name must lie where a held card goes before that card is
# played unwitnessed: the camera names a card, if it can, when it has lain still, so a few
# more frames are only its second look. Waiting the whole patience for every unnamed card
# would put the shoe's record further behind the baize at each one, until a coup was
# compared with the next one's cards.
UNNAMED_FRAMES = 3
# Clearings of the baize whose last sight is kept for coups whose record comes late.
KEPT_CLEARINGS = 4
_ORDINALS = ("1st", "2nd", "3rd")


class Kind(enum.Enum):
    SWITCHED = "switched"  # the baize shows another card where the shoe's card should lie
    MISPLACED = "misplaced"  # a card of the shoe's record lies in another place
    NEVER_READ = "never_read"  # a card on the baize the shoe never read
    NOT_LAID = "not_laid"  # a card the shoe read is not on the baize


# A card the camera names where another should lie is no passing sight: alarmed at once. A
# missing or an extra card may be on its way; it is alarmed once it has lasted.
_AT_ONCE = (Kind.SWITCHED, Kind.MISPLACED)


class Layout(Value):
    """What the camera sees after one frame: the cards of the noir row (the top one) and of
    the rouge row, left to right, each named or None (paper it cannot name); `clearing`
    counts the times the baize was seen cleared."""

    clearing: int
    noir: tuple[Card | None, ...] = ()
    rouge: tuple[Card | None, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.noir or self.rouge)


class Difference(Value):
    """Where the baize and the shoe's record part: a place (1 = leftmost) of a row, the card
    the shoe put there (None: none) and what the camera sees there (None: nothing, or a
    card it cannot name)."""

    kind: Kind
    row: Row
    place: int
    dealt: Card | None
    seen: Card | None

    def text(self, number: int) -> str:
        where = f"the {self.row.value} row's {_ordinal(self.place)} card"
        match self.kind:
            case Kind.SWITCHED:
                return (f"coup {number}, {where}: the shoe read {self.dealt}, "
                        f"the baize shows {self.seen}")
            case Kind.MISPLACED:
                instead = "" if self.dealt is None else f" and put {self.dealt} there"
                return (f"coup {number}, {where}: {self.seen} lies there, the shoe dealt it "
                        f"to another place{instead}: a card laid in the wrong place")
            case Kind.NEVER_READ:
                seen = self.seen or "a card the camera cannot name"
                return f"coup {number}, {where}: {seen} lies on the baize, the shoe never read it"
            case Kind.NOT_LAID:
                return f"coup {number}, {where}: the shoe read {self.dealt}, the baize shows none"
            case _:
                assert_never(self.kind)


def _ordinal(place: int) -> str:
    return _ORDINALS[place - 1] if place <= len(_ORDINALS) else f"{place}th"


def differences(
    noir: Sequence[Card], rouge: Sequence[Card], layout: Layout
) -> list[Difference]:
    """Every place where the layout differs from the shoe's rows of one coup."""
    dealt = {Row.NOIR: tuple(noir), Row.ROUGE: tuple(rouge)}
    seen = {Row.NOIR: layout.noir, Row.ROUGE: layout.rouge}
    # The record's cards not seen where the record has them: a card seen elsewhere is one of
    # these laid in the wrong place. Six decks hold six of each card, so a card the record
    # has, and that lies where the record has it, may lie again further on, not read yet.
    astray = Counter(
        card for row in Row for k, card in enumerate(dealt[row])
        if not (k < len(seen[row]) and seen[row][k] in (None, card)))
    found = []
    for row in Row:
        ours, theirs = dealt[row], seen[row]
        for k in range(max(len(ours), len(theirs))):
            card = ours[k] if k < len(ours) else None
            if k >= len(theirs):
                found.append(Difference(Kind.NOT_LAID, row, k + 1, card, None))
                continue
            there = theirs[k]
            if there is None or there == card:
                continue  # paper the camera cannot name witnesses nothing
            if astray[there]:
                astray[there] -= 1
                found.append(Difference(Kind.MISPLACED, row, k + 1, card, there))
            elif card is None:
                found.append(Difference(Kind.NEVER_READ, row, k + 1, None, there))
            else:
                found.append(Difference(Kind.SWITCHED, row, k + 1, card, there))
    return found


def placements(shoe: Shoe, events: Iterable[ShoeEvent]) -> tuple[CardPlaced, ...]:
    """Where the engine will place the cards of `events`, played after what it has played
    (found on a copy of it: the engine is the one authority on where a card goes)."""
    trial = copy.deepcopy(shoe)
    return tuple(d for e in events for d in trial.apply(e) if isinstance(d, CardPlaced))


class Wait(Value):
    """The cards the shoe read are not all seen laid yet: hold them, after raising these
    alarms (texts: a coup of theirs already differs from the baize)."""

    alarms: tuple[str, ...] = ()


class Go(Value):
    """Play the cards, after raising these alarms (texts) for the tailleur and the chef."""

    alarms: tuple[str, ...] = ()


Verdict = Wait | Go


class Witness:
    """The camera's layouts, frame after frame, against the shoe's record of each coup."""

    def __init__(self, patience: int = DEFAULT_PATIENCE) -> None:
        self.patience = patience
        self._layout = Layout(0)
        self._frame = 0
        self._bound: dict[int, int] = {}  # coup number -> the clearing its cards lie after
        self._first: dict[tuple[int, Difference], int] = {}  # when a difference began
        self._doubted: set[int] = set()  # coups alarmed: the tailleur checks them whole
        self._number = 0  # the coup the shoe stood at when last checked
        # coup number -> its coming cards and how many cards were seen, and since when
        self._waiting: dict[int, tuple[tuple[CardPlaced, ...], int, int]] = {}
        # (clearing, row, place) -> the frame paper was first seen there
        self._paper: dict[tuple[int, Row, int], int] = {}
        self._final: dict[int, Layout] = {}  # clearing -> the last layout seen after it
        self.blind = False  # the camera stopped: nothing is held for it any more

    def look(self, layout: Layout) -> None:
        """The layout the camera saw in its latest frame."""
        self._frame += 1
        if layout.clearing != self._layout.clearing:
            # The baize as last seen before it was cleared: what a coup whose record lags
            # behind the baize is judged by.
            self._final[self._layout.clearing] = self._layout
            for old in [c for c in self._final if c < layout.clearing - KEPT_CLEARINGS]:
                del self._final[old]
            self._paper = {k: v for k, v in self._paper.items()
                           if k[0] >= layout.clearing - KEPT_CLEARINGS}
        self._layout = layout
        for row, cards in ((Row.NOIR, layout.noir), (Row.ROUGE, layout.rouge)):
            for place in range(len(cards)):
                self._paper.setdefault((layout.clearing, row, place), self._frame)

    def check(self, state: ShoeState, coming: Sequence[CardPlaced] = ()) -> Verdict:
        """Whether to play now the cards `coming` (where the engine will place the shoe's
        next cards; none to check the coup as it stands), and the alarms to raise first.
        Cards of several coups read together are played once each coup is witnessed: the
        first coup's call must not carry the next coup's cards past the camera."""
        if state.number < self._number:
            # A new shoe numbers its coups from 1 again: what was said of the last shoe's
            # coups is no longer theirs.
            self._bound.clear()
            self._doubted.clear()
            self._first.clear()
            self._waiting.clear()
        self._number = state.number
        # A coup behind the shoe's is called: when its differences began is never asked again.
        self._first = {key: at for key, at in self._first.items() if key[0] >= state.number}
        numbers = dict.fromkeys(c.number for c in coming)
        verdicts = [
            self._check_coup(state, tuple(c for c in coming if c.number == n)) for n in numbers
        ] or [self._check_coup(state, ())]
        alarms = tuple(text for verdict in verdicts for text in verdict.alarms)
        if any(isinstance(verdict, Wait) for verdict in verdicts):
            return Wait(alarms)
        return Go(alarms)

    def _check_coup(self, state: ShoeState, coming: tuple[CardPlaced, ...]) -> Verdict:
        """`check` for the coming cards of one coup."""
        coup = _coup(state, coming)
        if coup is None or self.blind:
            return Go()
        number, noir, rouge = coup
        if number in self._doubted:
            return Go()
        found = _next_missing_only(differences(noir, rouge, self._seen_for(number)))
        now = self._frame
        # a difference that went away starts again if it comes back; other coups' stand
        kept = {key: at for key, at in self._first.items() if key[0] != number}
        self._first = kept | {(number, d): self._first.get((number, d), now) for d in found}
        due = [d for d in found
               if d.kind in _AT_ONCE or now - self._first[number, d] >= self.patience]
        if due:
            self._doubted.add(number)
            self._waiting.pop(number, None)
            return Go(tuple(d.text(number) for d in due))
        if not coming:
            return Go()
        seen = self._seen_for(number)
        count = len(seen.noir) + len(seen.rouge)
        held, counted, since = self._waiting.get(number, ((), -1, now))
        if (held, counted) != (coming, count):
            # Held cards wait `patience` from the last card the camera saw laid.
            since = now
            self._waiting[number] = (coming, count, since)
        if (_laid(coming, noir, rouge, seen) or self._unnamed_there(coming, noir, rouge, seen)
                or now - since >= self.patience):
            # Seen laid, seen as paper it cannot name, or not seen for as long as it waits.
            self._waiting.pop(number, None)
            return Go()
        return Wait()

    def _unnamed_there(self, coming: Sequence[CardPlaced], noir: Sequence[Card],
                       rouge: Sequence[Card], layout: Layout) -> bool:
        """Whether paper has been seen in `UNNAMED_FRAMES` frames at each coming card's
        place, named as that card or not named at all; on a baize cleared since, once is
        enough (the camera will see no more of it)."""
        frames = UNNAMED_FRAMES if layout.clearing == self._layout.clearing else 1
        for row, ours, theirs in ((Row.NOIR, noir, layout.noir),
                                  (Row.ROUGE, rouge, layout.rouge)):
            for place in range(len(ours) - sum(1 for c in coming if c.row is row), len(ours)):
                since = self._paper.get((layout.clearing, row, place))
                if (place >= len(theirs) or theirs[place] not in (None, ours[place])
                        or since is None or self._frame - since + 1 < frames):
                    return False
        return True

    def _seen_for(self, number: int) -> Layout:
        """The layout as it stands for coup `number`: empty while the baize still shows the
        cards of another coup, or shows none yet."""
        layout = self._layout
        owner = next((n for n, c in self._bound.items() if c == layout.clearing), None)
        # A coup lies after one clearing only: one seen after a later clearing is another.
        if owner is None and not layout.empty and number not in self._bound:
            self._bound[number] = layout.clearing
            owner = number
        if owner == number:
            return layout
        bound = self._bound.get(number)
        if bound is not None and bound < layout.clearing:
            return self._final.get(bound, Layout(bound))  # its cards are gone from the baize
        return Layout(layout.clearing)


def _next_missing_only(found: list[Difference]) -> list[Difference]:
    """The differences with, of the cards read but not seen laid, only the one the tailleur
    lays next (noir's before rouge's, left to right): the others are on their way, and
    their wait begins when the one before them is seen, not when the shoe read them."""
    missing = [d for d in found if d.kind is Kind.NOT_LAID]
    first = min(missing, key=lambda d: (d.row is Row.ROUGE, d.place), default=None)
    return [d for d in found if d.kind is not Kind.NOT_LAID or d is first]


def _coup(
    state: ShoeState, coming: Sequence[CardPlaced]
) -> tuple[int, tuple[Card, ...], tuple[Card, ...]] | None:
    """The coup to compare and its rows as they stand with the `coming` cards laid on them:
    the coup of the first coming card, or the coup being dealt; None between coups."""
    if coming:
        number = coming[0].number
    elif state.phase in (Phase.NOIR, Phase.ROUGE):
        number = state.number
    else:
        return None
    open_coup = state.number == number and state.phase in (Phase.NOIR, Phase.ROUGE)
    noir = list(state.noir) if open_coup else []
    rouge = list(state.rouge) if open_coup else []
    for placed in coming:
        if placed.number == number:
            (noir if placed.row is Row.NOIR else rouge).append(placed.card)
    return number, tuple(noir), tuple(rouge)


def _laid(coming: Sequence[CardPlaced], noir: Sequence[Card], rouge: Sequence[Card],
          layout: Layout) -> bool:
    """Whether the layout shows every coming card named, where the engine places it: at the
    end of its row as the shoe's record has it."""
    for row, ours, theirs in ((Row.NOIR, noir, layout.noir), (Row.ROUGE, rouge, layout.rouge)):
        tail = sum(1 for c in coming if c.row is row)
        if tail and tuple(theirs[len(ours) - tail:len(ours)]) != tuple(ours[len(ours) - tail:]):
            return False
    return True
