"""Reading a whole coup: every card on the baize, named, in rows from the top."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.classifier import Reading, classify, classify_straight
from vision.design import Design
from vision.features import describe
from vision.geometry import Quad, find_cards, rectify, whole_frame

# Two cards belong to one row when their centres are closer in height than this share of
# a card's height; the rows of a layout are a card's height apart or more.
_ROW_TOLERANCE = 0.5
_MIN_PAPER_FULL_FRAME = 0.3  # baize scores 0.05-0.2, card stock 0.4 and more


@dataclass(frozen=True)
class Seen:
    """A card found in a frame and what the classifier made of it."""

    quad: Quad
    reading: Reading


def read_layout(frame: np.ndarray, design: Design, *, bare_face: bool = False) -> list[list[Seen]]:
    """The cards of a frame in rows from the top, each row left to right.

    A frame with no card on baize may be one card filling it (a close-up or a bare face):
    it is then one row of one card.
    """
    if not bare_face:
        quads = find_cards(frame, portrait_only=True)
        if quads:
            return group_rows([Seen(q, classify(frame, q, design)) for q in quads])
    whole = _whole_frame_card(frame, design, bare_face=bare_face)
    return [[whole]] if whole is not None else []


def group_rows(seen: list[Seen]) -> list[list[Seen]]:
    """Cards grouped into rows by height, top row first, each row left to right."""
    rows: list[list[Seen]] = []
    for card in sorted(seen, key=lambda s: s.quad.centre[1]):
        if rows:
            row = rows[-1]
            row_y = float(np.mean([s.quad.centre[1] for s in row]))
            height = float(np.mean([s.quad.height for s in row]))
            if abs(card.quad.centre[1] - row_y) < _ROW_TOLERANCE * height:
                row.append(card)
                continue
        rows.append([card])
    return [sorted(row, key=lambda s: s.quad.centre[0]) for row in rows]


def read_one(frame: np.ndarray, design: Design, *, bare_face: bool = False) -> Reading:
    """The one card of an image: a bare face, a close-up filling the frame, or a card on baize.

    The largest card found on the baize is read; when none is found, the frame itself.
    """
    if not bare_face:
        quads = find_cards(frame)
        if quads:
            largest = max(quads, key=lambda q: q.width * q.height)
            return classify(frame, largest, design)
    whole = _whole_frame_card(frame, design, bare_face=bare_face)
    return whole.reading if whole is not None else Reading(None, None, 0.0)


def _whole_frame_card(frame: np.ndarray, design: Design, *, bare_face: bool) -> Seen | None:
    """The frame read as one card, or None when it does not look like card stock (empty
    baize); a bare face is card stock by definition."""
    whole = whole_frame(frame)
    card = rectify(frame, whole, design.size)
    if not bare_face and describe(card)[1] < _MIN_PAPER_FULL_FRAME:
        return None
    return Seen(whole, classify_straight(card, design))
