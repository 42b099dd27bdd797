"""The camera backend: cards read off the layout by a camera, as the same events a shoe sends.

`open_camera_source` opens a device index ("0"), a video file or a folder of frames;
`CameraShoe(source).events()` watches the layout frame by frame and yields `ShoeEvent`s:

- `CardDrawn` once for each card, when it has been read the same way over several frames,
  in the order the cards joined the layout (a frame that shows several new cards at once
  gives them noir row first, left to right);
- `CardUnread` (the tailleur's "confirm") for a card that lies still but never reads surely;
- `DeviceAlarm` for a card that leaves the layout while others stay (picked up) or that
  turns into another card, raised again every `remind_frames` until it is back, or the
  layout is cleared; and for a named card lying in another row than the rules deal it to
  (`drivers.camera_rows`: rows are told apart by where the cards lie). Clearing the whole
  layout after a coup is no alarm.

The burn is dealt face down, so the camera never sees it: a table that knows its burned
cards (the tailleur keyed them in) passes them as `burn` and they come first as
`CardDrawn`; otherwise the stream starts with one `BurnUnseen` for each card the rulebook
burns, so that the engine counts the burn and takes the first card laid for the first card
of a coup.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from croupier.cards import Card
from croupier.decisions import Row
from croupier.events import BurnUnseen, CardDrawn, DeviceAlarm, ShoeEvent
from croupier.rulebook import Rulebook, load_rulebook
from croupier.witness import Layout
from drivers.camera_rows import RowCheck, RowFinder
from drivers.camera_track import SOURCE, Track, by_order, doubted, taken_alarm, unread
from drivers.frames import frame_fault, open_camera_source
from vision.card_reads import read_card, read_cards
from vision.design import Design, builtin_design, load_design
from vision.layout import Seen, locate
from vision.quad import Quad
from vision.rows import RowCard

_STILL = 0.03  # a card moved less than this share of its width lies still
_REACH = 0.5  # how far (card widths) a card is followed: its neighbours lie further
# Frames are compared at this size; a change of this many grey levels anywhere is a change.
_LOOK_SIZE = (160, 90)
_CHANGE_LEVEL = 24


class CameraShoe:
    """The layout watched through a camera, as a stream of shoe events.

    `source` is what `open_camera_source` accepts, or any iterable of BGR frames.
    `deck` is a folder of the 52 faces of the casino's design (default: the built-in one).
    `burn`: the burned cards, when the table knows them; they are emitted first.
    `rulebook`: the table's rules (default: the default rulebook); with no `burn`, as many
    cards as it burns were burned face down, unless `burned_unseen` says otherwise.
    The layout is looked at whenever it lies still again after something moved over it:
    every piece of card-shaped paper is then a card, found, followed and read in its place
    (`_audit`); frames in which something moves are not read. A card that something moved
    over is read again, to catch a card swapped in place.

    `confirm_frames`: a card is named after this many consecutive identical sure reads.
    `settle_frames`: a card still unread after lying still this long is sent for confirmation
    (7 frames: under half a second at 15 frames a second).
    `clear_frames`: a card that left is part of the layout being cleared when the whole
    layout is empty within this many frames (a croupier clears a layout card by card); it
    was picked up when it is not, or when a new card lies on the layout without it first
    (a hand lying over a card a moment is neither). One never named is then sent for
    confirmation.
    `remind_frames`: a card changed or taken raises its alarm again this often (2 s).
    """

    def __init__(
        self,
        source: str | Iterable[np.ndarray],
        deck: str | Path | None = None,
        *,
        burn: Sequence[Card] = (),
        rulebook: Rulebook | None = None,
        burned_unseen: int | None = None,
        confirm_frames: int = 3,
        settle_frames: int = 7,
        clear_frames: int = 90,
        remind_frames: int = 30,
    ) -> None:
        self._frames = open_camera_source(source) if isinstance(source, str) else source
        self._design: Design = load_design(deck) if deck is not None else builtin_design()
        self._burn = tuple(burn)
        self._rulebook = rulebook if rulebook is not None else load_rulebook()
        if burned_unseen is None:
            burned_unseen = self._rulebook.burn_cards
        self._burned_unseen = 0 if burn else burned_unseen
        self.confirm_frames = confirm_frames
        self.settle_frames = max(settle_frames, confirm_frames)
        self.clear_frames = clear_frames
        self.remind_frames = remind_frames
        self._rows = RowFinder()
        self._row_check = RowCheck()
        self._tracks: list[Track] = []  # on the layout
        self._gone: list[Track] = []  # left it lately, not yet settled as cleared or taken
        self._orders = itertools.count()
        self._last_look: np.ndarray | None = None
        self._changes = np.ones(_LOOK_SIZE[::-1], bool)  # where the last frame differed
        self._empty = True  # the last frame looked at showed no card
        self._audited = False  # the layout was accounted for since it last changed
        self._clearings = 0  # times the layout was seen cleared, once cards had lain on it
        self._cleared = True
        self._faulty_at: int | None = None  # the last unusable frame alarmed, in a run of them

    def events(self) -> Iterator[ShoeEvent]:
        """The events of the layout, as they happen, until the frames run out."""
        for card in self._burn:
            yield CardDrawn(card)
        for _ in range(self._burned_unseen):
            yield BurnUnseen()
        number = -1
        for number, frame in enumerate(self._frames):
            yield from self._watch(number, frame)
        yield from self._finish(number + 1)

    def layouts(self) -> Iterator[Layout]:
        """The layout after each frame, for a table whose cards come from a shoe, which the
        camera then only witnesses (`croupier.witness`): the cards lying still, in the noir
        row (the top one) and the rouge row, named as emitted, or None until named."""
        for number, frame in enumerate(self._frames):
            self._watch(number, frame)
            yield self._layout()

    def _layout(self) -> Layout:
        if self._tracks:
            self._cleared = False
        elif not self._cleared:
            self._cleared = True
            self._clearings += 1
        noir, rouge = self._lying([t for t in self._tracks if t.settled])
        return Layout(self._clearings, tuple(t.card for t in noir), tuple(t.card for t in rouge))

    def _lying(self, tracks: list[Track]) -> tuple[list[Track], list[Track]]:
        """The tracks of the noir row and of the rouge row, each left to right."""
        by_quad = {id(t.quad): t for t in tracks}
        noir, rouge = self._rows.rows([Seen(t.quad, t.readings[-1]) for t in tracks])
        return [by_quad[id(s.quad)] for s in noir], [by_quad[id(s.quad)] for s in rouge]

    # -- one frame ---------------------------------------------------------------------

    def _watch(self, number: int, frame: np.ndarray) -> list[ShoeEvent]:
        if (fault := frame_fault(frame)) is not None:
            return self._unusable(number, fault)
        self._faulty_at = None
        if not self._unchanged(frame):
            # Something moves over the layout (a hand, a card on its way): nothing is read
            # until it lies still again; the cards it reached are looked at again then.
            self._audited = False
            for track in self._tracks:
                if self._touched(track.quad, frame.shape):
                    track.still, track.touched = 0, True
            return self._emit(number)  # a card long unread is sent for confirmation even so
        events: list[ShoeEvent] = []
        if not self._audited:
            self._audit(number, frame)
        due: list[Track] = []
        for track in self._tracks:
            track.still += 1
            if not track.settled and track.still >= self.confirm_frames:
                track.settled, track.settled_at = True, number
            if not track.resolved or doubted(track) or track.touched:
                track.touched = False
                due.append(track)
        readings = read_cards(frame, [track.spot for track in due], self._design)
        for track, reading in zip(due, readings, strict=True):
            track.readings.append(reading)
            events += self._check_change(track, number, frame)
        return events + self._retire(number, empty=self._empty) + self._emit(number)

    def _unusable(self, number: int, fault: str) -> list[ShoeEvent]:
        """A frame that cannot be looked at is not: what it would have shown is looked at
        in the next good one, every card read again there; the tailleur hears of it at the
        first such frame, and again every `remind_frames` while they last."""
        self._last_look, self._audited = None, False
        for track in self._tracks:
            track.still, track.touched = 0, True
        events = self._emit(number)
        if self._faulty_at is None or number - self._faulty_at >= self.remind_frames:
            self._faulty_at = number
            events.append(DeviceAlarm(SOURCE, f"camera frame {number}: {fault}; not looked at"))
        return events

    def _audit(self, number: int, frame: np.ndarray) -> None:
        """The layout, lying still after a change, accounted for card by card: every piece
        of card-shaped paper (rows laid over themselves parted along their cards' edges; a
        card that cannot be parted or named is still a card) continues the card that lay
        there, or is a card that just joined the layout. A card no paper
        continues has left it."""
        self._audited = True
        # In rows, noir first, left to right: the order in which new cards join the layout.
        spots = [spot for row in locate(frame, self._design) for spot in row]
        self._empty = not spots
        candidates = self._tracks + self._gone
        # Each piece continues the card lying nearest it, nearest pairs first: a card is
        # where it lay, whatever size its outline comes out at when its row is parted anew
        # (a size check made a re-parted card a new one, and the stream one card too long).
        pairs = sorted(
            (float(np.hypot(*np.subtract(spot.quad.centre, track.quad.centre))), s, k)
            for s, spot in enumerate(spots)
            for k, track in enumerate(candidates)
        )
        free = set(range(len(candidates)))
        unmatched = set(range(len(spots)))
        for distance, s, k in pairs:
            if s in unmatched and k in free and distance < _REACH * spots[s].quad.width:
                unmatched.discard(s)
                free.discard(k)
                self._continue(candidates[k], spots[s])
        for k in free:
            candidates[k].missing = True
        joining = [spots[s] for s in sorted(unmatched)]
        for spot, reading in zip(joining, read_cards(frame, joining, self._design), strict=True):
            self._tracks.append(Track(next(self._orders), number, spot, [reading]))

    def _continue(self, track: Track, spot: RowCard) -> None:
        if float(np.abs(spot.quad.corners - track.quad.corners).max()) >= _STILL * spot.quad.width:
            track.still = 0
        track.spot, track.missing = spot, False
        if track.vanished_at is not None:  # a hand lay over it a moment
            self._gone.remove(track)
            self._tracks.append(track)
            # Back in its place, or another card put there: read it again.
            track.vanished_at, track.alarmed_at, track.touched = None, None, True

    def _unchanged(self, frame: np.ndarray) -> bool:
        """Whether the frame shows what the last one showed, sensor noise aside."""
        look = cv2.resize(frame, _LOOK_SIZE, interpolation=cv2.INTER_AREA).astype(np.int16)
        last, self._last_look = self._last_look, look
        if last is None or last.shape != look.shape:
            self._changes = np.ones(look.shape[:2], bool)
            return False
        self._changes = np.abs(look - last).max(axis=2) >= _CHANGE_LEVEL
        return not self._changes.any()

    def _touched(self, quad: Quad, shape: tuple[int, ...]) -> bool:
        """Whether the last change between frames reached into the card's place."""
        sx, sy = _LOOK_SIZE[0] / shape[1], _LOOK_SIZE[1] / shape[0]
        x0, y0 = quad.corners.min(axis=0)
        x1, y1 = quad.corners.max(axis=0)
        region = self._changes[
            max(int(y0 * sy), 0) : int(np.ceil(y1 * sy)) + 1,
            max(int(x0 * sx), 0) : int(np.ceil(x1 * sx)) + 1,
        ]
        return bool(region.any())

    def _check_change(self, track: Track, number: int, frame: np.ndarray) -> list[ShoeEvent]:
        """An alarm when a named card, lying still, reads surely as another card, or as none
        with another for its best fit, on its outline now and on the one it was named on, as
        much of it in view as now (its row parted anew outlines it a few pixels off, which
        may read an ace of diamonds as the ace of hearts); again every `remind_frames`."""
        if track.card is None or track.still < self.confirm_frames:
            return []
        recent = track.readings[-self.confirm_frames :]
        names = {r.card for r in recent}
        if len(recent) < self.confirm_frames or len(names) != 1:
            return []
        now = names.pop()
        if now == track.card:
            track.alarmed_at = None  # put back
        if now == track.card or not self._due(track, number):
            return []
        if now is None and any(r.guess == track.card for r in recent):
            return []  # still its best fit, only unsure: half hidden, or in glare
        if (was := track.named_on) is not None and read_card(
            frame, replace(was, visible=min(was.visible, track.spot.visible)), self._design
        ).card == track.card:
            return []
        track.alarmed_at = number
        into = f"changed into {now}" if now is not None else "no longer reads as any card"
        return [DeviceAlarm(SOURCE, f"card {track.card} on the layout {into}")]

    def _due(self, track: Track, number: int) -> bool:
        """Whether a card's alarm is to be raised (again) now."""
        return track.alarmed_at is None or number - track.alarmed_at >= self.remind_frames

    def _retire(self, number: int, *, empty: bool) -> list[ShoeEvent]:
        """Tracks unseen for long have left; what left is a clearing or a pick-up."""
        for track in [t for t in self._tracks if t.missing]:
            self._tracks.remove(track)
            if track.resolved or track.settled:  # else a hand or a card on its way
                track.vanished_at = number
                self._gone.append(track)
        events: list[ShoeEvent] = []
        if empty and not self._tracks:
            # The layout was cleared: its cards left together. One never named is still
            # owed to the stream, in its place.
            events += [unread(t) for t in sorted(self._gone, key=by_order) if not t.resolved]
            self._gone.clear()
            self._row_check = RowCheck()
            return events
        for track in sorted(self._gone, key=by_order):
            # Taken off the layout: its alarm stands until it is back or the layout cleared.
            if track.resolved and self._taken(track, number) and self._due(track, number):
                track.alarmed_at = number
                events.append(taken_alarm(track))
        return events

    def _taken(self, gone: Track, number: int) -> bool:
        """Whether a card that left the layout was taken off it, not cleared with it: the
        layout did not empty in time, or a new card came to lie on it meanwhile."""
        assert gone.vanished_at is not None
        return number - gone.vanished_at >= self.clear_frames or any(
            t.settled and t.joined >= gone.vanished_at for t in self._tracks
        )

    def _emit(self, number: int) -> list[ShoeEvent]:
        """Cards settled enough to name, in the order they joined; a later card waits."""
        events: list[ShoeEvent] = []
        for track in sorted(self._tracks + self._gone, key=by_order):
            if track.resolved:
                continue
            event = self._verdict(track, number)
            if event is None:
                break
            track.resolved = True
            events.append(event)
            lies: Row | None = None  # where it lay, when it still lies on the layout
            if track.vanished_at is not None:
                track.alarmed_at = number  # asked for in its place: a reminder only later
            else:
                placed = self._rows.placed
                noir, rouge = self._lying(self._tracks)
                lies = Row.NOIR if track in noir else Row.ROUGE
                if not placed and self._rows.placed:  # the coup's first cards, looked again at
                    where = {t.order: r for r, ts in ((Row.NOIR, noir), (Row.ROUGE, rouge))
                             for t in ts}
                    events += [DeviceAlarm(SOURCE, w) for w in self._row_check.recheck(where.get)]
            wrong = self._row_check.emitted(track.card, lies, track.order)
            if wrong is not None:
                events.append(DeviceAlarm(SOURCE, wrong))
        return events

    def _verdict(self, track: Track, number: int) -> ShoeEvent | None:
        if track.vanished_at is not None:
            # It left before it was named: give it time to come back, then ask.
            return unread(track) if self._taken(track, number) else None
        recent = track.readings[-self.confirm_frames :]
        names = {r.card for r in recent}
        if len(recent) == self.confirm_frames and len(names) == 1 and None not in names:
            track.card, track.named_on = names.pop(), track.spot
            assert track.card is not None
            return CardDrawn(track.card)
        if track.settled and number - track.settled_at >= self.settle_frames - self.confirm_frames:
            # A hand laying the next card over it does not put the tailleur's check off.
            return unread(track)
        return None

    def _finish(self, number: int) -> list[ShoeEvent]:
        """The frames ended: cards not yet named are sent for confirmation, and cards that
        left a layout still holding others were taken off it."""
        events: list[ShoeEvent] = []
        for track in sorted(self._tracks + self._gone, key=by_order):
            if not track.resolved and (track.settled or track.vanished_at is not None):
                events.append(self._verdict(track, number) or unread(track))
                track.resolved = True
            elif track.vanished_at is not None and track.alarmed_at is None and self._tracks:
                events.append(taken_alarm(track))
        return events
