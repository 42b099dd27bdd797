"""How `make fuzz` aligns what was delivered against what was sent: the best order-keeping
pairing of delivered messages to sent ones, by how well each stands for each."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from croupier.cards import ALL_CARDS
from drivers.messages import CardRead, CutRead, Message, Misread, ShoeAlarm

_CARD, _CUT, _MISREAD, _ALARM = range(4)
_NUMBERS = {card: number for number, card in enumerate(ALL_CARDS)}
_Ints = npt.NDArray[np.int64]


def _codes(messages: list[Message], names: dict[Message, int]) -> tuple[_Ints, _Ints, _Ints]:
    """Each message's kind, its identity (equal messages, equal numbers) and the card it
    names or guesses (-1 for none)."""
    kinds, idents, cards = [], [], []
    for message in messages:
        card = -1
        match message:
            case CardRead(card=named):
                kind, card = _CARD, _NUMBERS[named]
            case CutRead():
                kind = _CUT
            case Misread(guess=guess):
                kind, card = _MISREAD, -1 if guess is None else _NUMBERS[guess]
            case _:
                kind = _ALARM
        kinds.append(kind)
        idents.append(names.setdefault(message, len(names)))
        cards.append(card)
    return np.array(kinds), np.array(idents), np.array(cards)


def _weights(
    sent: list[Message],
    got: list[Message],
    read: list[set[Message]],
    unheard: int,
    strays: list[bool],
) -> _Ints:
    """How well each delivered message stands for each sent one (0: not at all): 6 the
    same (a failed read only if, where `read` is known, frames under the sent one's number
    read so), 5 a misread guessing the card (so that of a card and a misread guessing it, the
    card is its delivery; but not a card none of whose frames arrived, `_strays`), 4 the
    card with its face-up flag wrong, 3 a misread that frames under the sent one's number
    (`read`, when known) read as, or an alarm's garbled text they read as, 2 a misread for
    another message (a card, a failed read, a cut card or an alarm), or an alarm's text
    garbled.
    The first `unheard` sent messages, before any frame was taken for one, stand only for
    what equals them: nothing of theirs arrived (a capture begun after them, or every
    copy lost), so a misread there came from a later message's frames."""
    names: dict[Message, int] = {}
    s_kind, s_ident, s_card = (a[:, None] for a in _codes(sent, names))
    g_kind, g_ident, g_card = (a[None, :] for a in _codes(got, names))
    stray = np.array(strays, dtype=bool)[:, None]
    misread = g_kind == _MISREAD
    same = s_ident == g_ident
    if read:  # which message a misread came from, where its reading cannot tell
        under = np.array([[_read_as(m, readings) for m in got] for readings in read])
        # a failed read delivered is the failed read sent only if frames under its number
        # read so: else it came from another message's damaged copy, and stands for that
        same &= ~(misread & (g_card == -1) & ~under)
    weights = np.where(same, 6, 0)
    # a misread stands for whatever was sent in its place: a cut card whose byte is
    # corrupted reads as a failed read, an alarm's copies lost beside a corrupted copy of
    # the next card read as that card; for an alarm, less than for a card (of two
    # alignments otherwise equal, a failed read delivered stands for the card lost beside
    # an alarm, not for the alarm: seed 10027415), since damage makes a card's frame a
    # misread far more often than an alarm's
    weights = np.maximum(weights, np.where(misread, np.where(s_kind == _ALARM, 1, 2), 0))
    if read:
        weights = np.maximum(weights, np.where(misread & under, 3, 0))
    guessed = misread & (s_kind == _CARD) & (s_card == g_card) & (g_card != -1)
    # a message none of whose frames arrived (`_strays`) is guessed only by another's frames
    # read as it: the misread stands for that one (seed 10105988: AD's copy read as 5D, which
    # was lost whole and said lost; paired with 5D, AD went unsaid)
    guessed &= ~stray
    weights = np.maximum(weights, np.where(guessed, 5, 0))
    # the card right, its face-up bit flipped (angel with no check cannot see it)
    face = (s_kind == _CARD) & (g_kind == _CARD) & (s_card == g_card)
    weights = np.maximum(weights, np.where(face, 4, 0))
    alarms = (s_kind == _ALARM) & (g_kind == _ALARM)
    weights = np.maximum(weights, np.where(alarms, 2, 0))
    if read:  # a garbled alarm stands first for the one whose frames read as it
        weights = np.maximum(weights, np.where(alarms & under, 3, 0))
    weights[:unheard] = np.where(same[:unheard], weights[:unheard], 0)
    # only a misread stands for a message that came from another's frames (`_strays`)
    return np.where(stray & ~misread, 0, weights)


def _read_as(message: Message, readings: set[Message]) -> bool:
    """Whether a frame read as `readings` gives the misread or garbled alarm `message`."""
    match message:
        case ShoeAlarm():
            return message in readings
        case Misread(guess=None):
            return Misread() in readings
        case Misread(guess=card) if card is not None:
            return not readings.isdisjoint({CardRead(card), CardRead(card, True)})
    return False


def pairs(
    sent: list[Message], got: list[Message], read: list[set[Message]] | None = None
) -> dict[int, int]:
    """The best order-keeping alignment of delivered messages to sent ones, as
    {index in `got`: index in `sent`}; `read`: what the frames under each sent message's
    number read as, when known (`_weights`). Equal messages at the start and at the end pair off
    first (an equal pair has the highest weight, so some best alignment holds them), but
    for failed reads: one delivered may have come from another message's damaged copy, and
    only the frames can tell (`_weights`); and but for a message sent that came from
    another's frames (`_strays`). What is left between is aligned in full, two misreads
    crossed as well as in order (`_crossed`)."""

    strays = _strays(sent, read or [])

    def alike(index: int, other: Message) -> bool:
        return sent[index] == other and other != Misread() and not strays[index]

    head = 0
    most = min(len(sent), len(got))
    while head < most and alike(head, got[head]):
        head += 1
    tail = 0
    while tail < most - head and alike(len(sent) - 1 - tail, got[-1 - tail]):
        tail += 1
    found = {index: index for index in range(head)}
    shift = len(sent) - len(got)
    found.update((j, j + shift) for j in range(len(got) - tail, len(got)))
    # nothing of a message arrived only if no frame was taken for it, by its number, nor
    # reads as it anywhere: a copy whose number was damaged is placed at another message
    seen = set().union(*read) if read else set()
    heard = next(
        (index for index, frames in enumerate(read or []) if frames or sent[index] in seen),
        len(sent),
    )
    middle = _pairs(
        sent[head : len(sent) - tail],
        got[head : len(got) - tail],
        (read or [])[head : len(sent) - tail],
        heard - head if read and not head else 0,
        strays[head : len(sent) - tail],
    )
    found.update((j + head, i + head) for j, i in middle.items())
    return found


def _strays(sent: list[Message], read: list[set[Message]]) -> list[bool]:
    """Which messages sent were delivered, if at all, from another's frames: none of their
    own arrived, and another's read as them (seed 10071909: 3H's two copies damaged alike
    into JH, the card sent next, of which nothing arrived). Without `read`, none."""
    if not read:
        return [False] * len(sent)
    seen = set().union(*read)
    return [not readings and message in seen for message, readings in zip(sent, read, strict=True)]


def _pairs(
    sent: list[Message],
    got: list[Message],
    read: list[set[Message]],
    unheard: int,
    strays: list[bool],
) -> dict[int, int]:
    if not sent or not got:
        return {}
    weights = _weights(sent, got, read, unheard, strays)
    crossed = _crossed(weights, got)
    # of alignments equal in weight, the one with more pairs: a misread left unpaired beside
    # a message lost was said for it (seed 20021220: AS's copies read as AC and as AS, two
    # misreads, the two cards after AS lost whole and one said lost: paired by weight alone,
    # one misread went invented and a card lost silently)
    scale = min(len(sent), len(got)) + 1
    weights = np.where(weights > 0, weights * scale + 1, 0)
    crossed = np.where(crossed > 0, crossed * scale + 2, crossed)
    rows = np.zeros((len(sent) + 1, len(got) + 1), dtype=np.int64)
    for i in range(len(sent)):
        above = rows[i]
        # a cell is the best of: above, to its left, or above-left plus this pair's weight
        diagonal = np.maximum(above[1:], above[:-1] + weights[i])
        if i:  # or two rows up and two to the left, plus the weight of two misreads crossed
            diagonal[1:] = np.maximum(diagonal[1:], rows[i - 1, :-2] + crossed[i - 1])
        rows[i + 1, 1:] = np.maximum.accumulate(diagonal)
    table = rows.tolist()
    found: dict[int, int] = {}
    i, j = len(sent), len(got)
    while i and j:
        weight = int(weights[i - 1, j - 1])
        if table[i][j] == table[i - 1][j]:
            i -= 1  # of equal alignments, the one matching earlier sent messages
        elif weight and table[i][j] == table[i - 1][j - 1] + weight:
            found[j - 1] = i - 1
            i, j = i - 1, j - 1
        elif i > 1 and j > 1 and table[i][j] == table[i - 2][j - 2] + crossed[i - 2, j - 2]:
            found[j - 2], found[j - 1] = i - 2, i - 1
            i, j = i - 2, j - 2
        else:
            j -= 1
    return found


def _crossed(weights: _Ints, got: list[Message]) -> _Ints:
    """For two messages sent in a row (i, i + 1) and two misreads delivered in a row (j,
    j + 1), the weight of the misreads standing for them crossed (j for i + 1, j + 1 for i);
    a large negative number where they cannot. Copies of neighbours arrive interleaved, so
    two misreads may come in the order their frames did (seed 20018944: a failed read's
    and the next card's, each delivered as a misread, the card's guess first): both sent
    were said, for the tailleur to confirm, and the accounting pairs them in order. One
    less than the two weights, so that of equal alignments, one in order is kept."""
    never = np.full((max(0, weights.shape[0] - 1), max(0, weights.shape[1] - 1)), -(10**9))
    if not never.size:
        return never
    misread = np.array([isinstance(m, Misread) for m in got])
    both = misread[:-1] & misread[1:]
    late, early = weights[1:, :-1], weights[:-1, 1:]  # j for i + 1; j + 1 for i
    # each must stand for its message by what it reads as, not only as some misread there
    read_so = (late > 2) & (early > 2)
    return np.where(both[None, :] & read_so, late + early - 1, never)
