"""Reading shoe fixtures (`*.shoe`, docs/FORMATS.md (shoe fixtures)) into shoe events."""

from __future__ import annotations

from croupier.cards import Card
from croupier.errors import CardError, FixtureError
from croupier.events import CardDrawn, CutCard, ShoeEvent


def parse_shoe(text: str, *, origin: str = "<shoe>") -> list[ShoeEvent]:
    """The events of a fixture, in shoe order; a bad token raises `FixtureError` with its place."""
    events: list[ShoeEvent] = []
    # Only CR and LF end a line: `str.splitlines` would also break a comment at a form feed.
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for line_number, line in enumerate(lines, 1):
        content = line.split("#", 1)[0]
        column = 0
        for token in content.split():
            column = content.index(token, column) + 1
            events.append(_event(token, origin, line_number, column))
            column += len(token) - 1
    return events


def _event(token: str, origin: str, line: int, column: int) -> ShoeEvent:
    if token.upper() == "CUT":
        return CutCard()
    face_up = token.startswith("^")
    try:
        return CardDrawn(Card.parse(token[1:] if face_up else token), face_up)
    except CardError:
        raise FixtureError(
            f"{origin}:{line}:{column}: bad token {token!r:.40} (want a card such as QH, 10d, "
            "^7S, or CUT)"
        ) from None


def render_shoe(events: list[ShoeEvent]) -> str:
    """The fixture text of card and cut events, twelve tokens a line."""
    tokens = [
        ("^" if e.face_up else "") + str(e.card) if isinstance(e, CardDrawn) else "CUT"
        for e in events
        if isinstance(e, CardDrawn | CutCard)
    ]
    return "\n".join(" ".join(tokens[i : i + 12]) for i in range(0, len(tokens), 12)) + "\n"
