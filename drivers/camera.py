"""The camera backend: cards read off the layout by a camera, as the same events a shoe sends.

`open_camera_source` opens a device index ("0"), a video file or a folder of frames;
`CameraShoe(source).events()` watches the layout frame by frame and yields `ShoeEvent`s:

- `CardDrawn` once for each card, when it has been read the same way over several frames,
  in the order the cards joined the layout (a frame that shows several new cards at once
  gives them noir row first, left to right);
- `CardUnread` (the tailleur's "confirm") for a card that lies still but never reads surely;
- `DeviceAlarm` for a card that leaves the layout while others stay (picked up) or that
  turns into another card. Clearing the whole layout after a coup is no alarm.

The burn is dealt face down, so the camera never sees it: a table that knows its burned
cards (the tailleur keyed them in) passes them as `burn` and they come first as
`CardDrawn`; otherwise the stream starts with `burned_unseen` `BurnUnseen` events, so that
the engine counts the burn and takes the first card laid for the first card of a coup.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from croupier.cards import Card
from croupier.events import BurnUnseen, CardDrawn, CardUnread, DeviceAlarm, ShoeEvent
from drivers.errors import PortError
from vision.classifier import Reading, classify
from vision.design import Design, builtin_design, load_design
from vision.geometry import Quad, find_cards
from vision.layout import Seen, group_rows

SOURCE = "camera"
_FRAME_TYPES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
_STILL = 0.03  # a card moved less than this share of its width lies still
_NEAR, _REACH = 0.25, 0.5  # how far (card widths) a still / a moving card is followed
# Frames are compared at this size; a change of this many grey levels anywhere is a change.
_LOOK_SIZE = (160, 90)
_CHANGE_LEVEL = 24


def open_camera_source(source: str) -> Iterator[np.ndarray]:
    """Frames (BGR) from a device index ("0"), a video file or a folder of image files.

    A folder is read in file-name order. Raises `PortError` when the source cannot be opened.
    """
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in _FRAME_TYPES)
        if not files:
            raise PortError(f"{source}: no image files in this folder")
        return _folder_frames(files)
    if source.isdigit():
        capture = cv2.VideoCapture(int(source))
    elif path.is_file():
        capture = cv2.VideoCapture(str(path))
    else:
        raise PortError(f"{source}: no such camera, video file or folder")
    if not capture.isOpened():
        capture.release()
        raise PortError(f"{source}: cannot open it as a camera or a video")
    return _capture_frames(capture)


def _folder_frames(files: list[Path]) -> Iterator[np.ndarray]:
    for file in files:
        frame = cv2.imread(str(file), cv2.IMREAD_COLOR)
        if frame is not None:  # a half-written or foreign file is skipped, not fatal
            yield frame


def _capture_frames(capture: cv2.VideoCapture) -> Iterator[np.ndarray]:
    try:
        while True:
            ok, frame = capture.read()
            if not ok or frame is None:
                return
            yield frame
    finally:
        capture.release()


@dataclass
class _Track:
    """One card on the layout, followed from frame to frame."""

    order: int  # when it joined the layout (join frame, then row, then column)
    joined: int  # the frame it joined in
    quad: Quad
    readings: list[Reading] = field(default_factory=list)
    still: int = 0  # frames in a row it has lain in the same place
    settled: bool = False  # it has lain still long enough to be a card, not a passing hand
    missing: int = 0  # frames in a row it has not been seen
    card: Card | None = None  # the card emitted for it
    resolved: bool = False  # emitted, as a card or as a request to confirm
    vanished_at: int | None = None  # the frame it was last missed in, once it has left


class CameraShoe:
    """The layout watched through a camera, as a stream of shoe events.

    `source` is what `open_camera_source` accepts, or any iterable of BGR frames.
    `deck` is a folder of the 52 faces of the casino's design (default: the built-in one).
    `burn`: the burned cards, when the table knows them; they are emitted first.
    `burned_unseen`: with no `burn`, how many cards were burned face down (Art. 56: five).
    `confirm_frames`: a card is named after this many consecutive identical sure reads.
    `settle_frames`: a card still unread after lying still this long is sent for confirmation.
    `vanish_frames`: a card unseen this long has left the layout (shorter absences are a
    hand passing over it). `clear_frames`: a card that left is part of the layout being
    cleared when the whole layout is empty within this many frames (a croupier clears a
    layout card by card); it was picked up when it is not, or when a new card lies on the
    layout without it first. One never named is then sent for confirmation.
    `recheck_every`: a named card lying still is read again every this many frames, to
    catch a card swapped in place; the frames between only look for new or moved cards.
    """

    def __init__(
        self,
        source: str | Iterable[np.ndarray],
        deck: str | Path | None = None,
        *,
        burn: Sequence[Card] = (),
        burned_unseen: int = 5,
        confirm_frames: int = 3,
        settle_frames: int = 8,
        vanish_frames: int = 3,
        clear_frames: int = 90,
        recheck_every: int = 5,
    ) -> None:
        self._frames = open_camera_source(source) if isinstance(source, str) else source
        self._design: Design = load_design(deck) if deck is not None else builtin_design()
        self._burn = tuple(burn)
        self._burned_unseen = 0 if burn else burned_unseen
        self.confirm_frames = confirm_frames
        self.settle_frames = max(settle_frames, confirm_frames)
        self.vanish_frames = vanish_frames
        self.clear_frames = clear_frames
        self.recheck_every = recheck_every
        self._tracks: list[_Track] = []  # on the layout
        self._gone: list[_Track] = []  # left it lately, not yet settled as cleared or taken
        self._orders = itertools.count()
        self._last_look: np.ndarray | None = None
        self._changes = np.ones(_LOOK_SIZE[::-1], bool)  # where the last frame differed
        self._empty = True  # the last frame looked at showed no card

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

    # -- one frame ---------------------------------------------------------------------

    def _watch(self, number: int, frame: np.ndarray) -> list[ShoeEvent]:
        events: list[ShoeEvent] = []
        if self._unchanged(frame):
            # Nothing moved on the layout: only cards still waiting for a name are read.
            for track in self._tracks:
                if track.missing:
                    track.missing += 1
                    continue
                track.still += 1
                track.settled |= track.still >= self.confirm_frames
                if not track.resolved or _doubted(track):
                    track.readings.append(classify(frame, track.quad, self._design))
                    events += self._check_change(track)
            return events + self._retire(number, empty=self._empty) + self._emit(number)
        quads = find_cards(frame, portrait_only=True)
        self._empty = not quads
        matched = self._match(quads)
        new: list[Seen] = []
        for quad, known in zip(quads, matched, strict=True):
            if known is None:
                new.append(Seen(quad, classify(frame, quad, self._design)))
                continue
            moved = float(np.abs(quad.corners - known.quad.corners).max())
            known.still = known.still + 1 if moved < _STILL * quad.width else 0
            known.settled |= known.still >= self.confirm_frames
            known.quad, known.missing = quad, 0
            if (
                not known.resolved
                or _doubted(known)
                or known.still % self.recheck_every == 0
                or self._touched(quad, frame.shape)
            ):
                known.readings.append(classify(frame, quad, self._design))
                events += self._check_change(known)
        seen_now = {id(t) for t in matched if t is not None}
        for track in self._tracks:
            if id(track) not in seen_now:
                track.missing += 1
        for row in group_rows(new):
            for seen in row:
                order = next(self._orders)
                self._tracks.append(_Track(order, number, seen.quad, [seen.reading]))
        events += self._retire(number, empty=self._empty)
        events += self._emit(number)
        return events

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

    def _match(self, quads: list[Quad]) -> list[_Track | None]:
        """The track each quad continues, or None for a card that just joined the layout.

        A card that lies still keeps its track only from close by (something passing near
        it is something else); a card on the move, from half a card away. A card that left
        the layout a moment ago and lies again where it was (a hand passed over it)
        continues its old track.
        """
        candidates = self._tracks + self._gone
        taken: set[int] = set()
        matched: list[_Track | None] = []
        for quad in quads:
            cx, cy = quad.centre
            best, best_d = None, float("inf")
            for i, track in enumerate(candidates):
                reach = (_NEAR if track.settled else _REACH) * quad.width
                d = float(np.hypot(cx - track.quad.centre[0], cy - track.quad.centre[1]))
                if i not in taken and d < min(reach, best_d):
                    best, best_d = i, d
            if best is None:
                matched.append(None)
                continue
            taken.add(best)
            track = candidates[best]
            if track.vanished_at is not None:
                self._gone.remove(track)
                self._tracks.append(track)
                track.vanished_at = None
            matched.append(track)
        return matched

    def _check_change(self, track: _Track) -> list[ShoeEvent]:
        """An alarm when a named card, lying still, now reads surely as another card."""
        if track.card is None or track.still < self.confirm_frames:
            return []
        recent = track.readings[-self.confirm_frames :]
        names = {r.card for r in recent}
        if len(recent) < self.confirm_frames or len(names) != 1:
            return []
        now = names.pop()
        if now is None or now == track.card:
            return []
        was, track.card = track.card, now
        return [DeviceAlarm(SOURCE, f"card {was} on the layout changed into {now}")]

    def _retire(self, number: int, *, empty: bool) -> list[ShoeEvent]:
        """Tracks unseen for long have left; what left is a clearing or a pick-up."""
        for track in [t for t in self._tracks if t.missing >= self.vanish_frames]:
            self._tracks.remove(track)
            if track.resolved or track.settled:  # else a hand or a card on its way
                track.vanished_at = number
                self._gone.append(track)
        events: list[ShoeEvent] = []
        if empty and not self._tracks:
            # The layout was cleared: its cards left together. One never named is still
            # owed to the stream, in its place.
            events += [_unread(t) for t in sorted(self._gone, key=_by_order) if not t.resolved]
            self._gone.clear()
            return events
        for track in sorted(self._gone, key=_by_order):
            if track.resolved and self._taken(track, number):
                self._gone.remove(track)
                events.append(_taken_alarm(track))
        return events

    def _taken(self, gone: _Track, number: int) -> bool:
        """Whether a card that left the layout was taken off it, not cleared with it: the
        layout did not empty in time, or a new card came to lie on it meanwhile."""
        assert gone.vanished_at is not None
        return number - gone.vanished_at >= self.clear_frames or any(
            t.settled and t.joined > gone.vanished_at for t in self._tracks
        )

    def _emit(self, number: int) -> list[ShoeEvent]:
        """Cards settled enough to name, in the order they joined; a later card waits."""
        events: list[ShoeEvent] = []
        for track in sorted(self._tracks + self._gone, key=_by_order):
            if track.resolved:
                continue
            event = self._verdict(track, number)
            if event is None:
                break
            track.resolved = True
            events.append(event)
            if track.vanished_at is not None:
                self._gone.remove(track)
        return events

    def _verdict(self, track: _Track, number: int) -> ShoeEvent | None:
        if track.vanished_at is not None:
            # It left before it was named: give it time to come back, then ask.
            return _unread(track) if self._taken(track, number) else None
        recent = track.readings[-self.confirm_frames :]
        names = {r.card for r in recent}
        if len(recent) == self.confirm_frames and len(names) == 1 and None not in names:
            track.card = names.pop()
            assert track.card is not None
            return CardDrawn(track.card)
        if track.still >= self.settle_frames:
            return _unread(track)
        return None

    def _finish(self, number: int) -> list[ShoeEvent]:
        """The frames ended: cards not yet named are sent for confirmation, and cards that
        left a layout still holding others were taken off it."""
        events: list[ShoeEvent] = []
        for track in sorted(self._tracks + self._gone, key=_by_order):
            if not track.resolved and (track.settled or track.vanished_at is not None):
                events.append(self._verdict(track, number) or _unread(track))
                track.resolved = True
            elif track.vanished_at is not None and self._tracks:
                events.append(_taken_alarm(track))
        return events


def _taken_alarm(track: _Track) -> DeviceAlarm:
    name = track.card if track.card is not None else "unconfirmed card"
    return DeviceAlarm(SOURCE, f"card {name} was taken off the layout")


def _doubted(track: _Track) -> bool:
    """A named card whose latest read disagrees with its name: read on until settled."""
    return track.card is not None and bool(track.readings) and track.readings[-1].card != track.card


def _by_order(track: _Track) -> int:
    return track.order


def _unread(track: _Track) -> CardUnread:
    guesses = Counter(r.guess for r in track.readings if r.guess is not None)
    if not guesses:
        return CardUnread(SOURCE)
    guess, _ = guesses.most_common(1)[0]
    confidence = max(r.confidence for r in track.readings if r.guess == guess)
    return CardUnread(SOURCE, guess, confidence)
