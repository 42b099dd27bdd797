"""How the copies of an angel message relate (PROTOCOL.md §6): what a copy reads as, as the
shoe sent it; which two readings one damaged copy could make of one message; and what a
message whose copies never agreed is delivered as. `drivers.angel_link` groups and judges
copies with these."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from drivers.angel import CARD_COMMANDS, CARD_DATA, INTENTION, data_message
from drivers.messages import CardRead, CutRead, Message, Misread, ShoeAlarm, Status


@dataclass(frozen=True, slots=True)
class Copy:
    """One frame as read: sequence number and data."""

    seq: int
    data: bytes


def as_sent(seq: int, data: bytes) -> bytes:
    """A card's data as the shoe sent it, as far as it tells. The intention byte is ignored
    on receipt, and `d` (a card dealt outside the game flow) is read as `D`, so copies that
    differ only there, one bit apart, agree. A card's data whose sequence byte
    came twice reads, when that byte is a command letter, as a status or an alarm: all
    copies so damaged agree, and would outvote the card, so they are read as the card (a
    status whose text has a card's shape under a number equal to its own letter is not
    known to be sent)."""
    if len(data) == CARD_DATA + 1 and data[0] == seq and data[1] in CARD_COMMANDS:
        data = data[1:]
    if len(data) == CARD_DATA and data[0] in CARD_COMMANDS:
        return bytes((ord("D"), INTENTION, data[2]))
    return data


def card_shaped(data: bytes) -> bool:
    """Whether a copy's data has a card frame's shape (a card, the cut card, a failed read)."""
    return len(data) == CARD_DATA and data[0] in CARD_COMMANDS


def same_message(one: bytes, other: bytes) -> bool:
    """Whether one damaged copy could make these two readings of one message. Two frames of
    a card's shape: card bytes one bit apart (`as_sent` reads every card's command as `D`
    and ignores the intention byte), or
    either read as a failed read (a damaged card byte, or one shifted by a byte dropped and
    one doubled, reads as no card far more often than as another card); the cut card's
    byte is more than a bit from any card's. A card's shape and a text: only a text no
    longer than a card's data with two bytes doubled (a card whose command was damaged ends
    at its ETX). Two texts are not told apart: an alarm's copies are often damaged in
    several bytes."""
    one_card, other_card = card_shaped(one), card_shaped(other)
    if one_card and other_card:
        cards = all(isinstance(data_message(d), CardRead | CutRead) for d in (one, other))
        return not cards or (one[2] ^ other[2]).bit_count() <= 1
    if one_card or other_card:
        return len(other if one_card else one) <= CARD_DATA + 2
    return True


def via_a_card(copy: Copy, data: bytes) -> bool:
    """Whether a copy of a card's shape is two bits from the card `data`, one of the two
    bytes between them another card's: that card's copy damaged once, and the two read as
    `data` damaged alike from it (three damages), is as likely as one copy of `data` damaged
    twice (seeds 20014297: 8C's two copies read as 9C, its third as no card, two bits from
    9C; 10027772: 4S's two read as 6S, its third as 5S, two bits from 6S)."""
    if not card_shaped(copy.data):
        return False
    byte, card = copy.data[2], data[2]
    flips = [1 << bit for bit in range(8) if (byte ^ card) >> bit & 1]
    read = data_message(data)
    between = (data_message(bytes((ord("D"), INTENTION, card ^ flip))) for flip in flips)
    # the same card the other way up is no other card (its face-up bit disputes nothing)
    return len(flips) == 2 and isinstance(read, CardRead) and any(
        isinstance(other, CardRead) and other.card != read.card for other in between
    )


def same_reading(one: bytes, other: bytes) -> bool:
    """Whether two copies read alike but for a card's face-up bit: one flipped bit, which
    disputes nothing (the card is the same), so a copy so read is a copy of the other."""
    if one == other:
        return True
    read, other_read = data_message(one), data_message(other)
    return isinstance(read, CardRead) and isinstance(other_read, CardRead) and (
        read.card == other_read.card
    )


def neighbour_copy(data: bytes, neighbour: bytes) -> bool:
    """Whether a message split from a group may be a copy of the message before or after
    it, its number misread: the same data, or damaged data one damage away (a copy read
    as a card is not taken for another card one bit away: two cards often are)."""
    if data == neighbour:
        return True
    return not isinstance(data_message(data), CardRead) and same_message(data, neighbour)


def messages_among(copies: list[Copy]) -> list[list[Copy]]:
    """The copies of a group that never got its votes, as the messages they may be: copies
    joined by `same_message` (one damaged copy apart), in the order first read. A copy that
    could be a damaged copy of two messages no damage turns into each other (a failed read
    beside two cards) does not make them one: a message's copies are each one damage from
    every other. Nor is a failed read read alike on more copies than any card among them
    one message with the card (`_failed_apart`)."""
    messages: list[list[Copy]] = []
    for copy in copies:
        joined: list[list[Copy]] = []
        merged = [copy]
        for message in messages:
            if all(same_message(c.data, m.data) for c in message for m in merged):
                joined.append(message)
                merged = [*message, *merged]
        messages = [m for m in messages if m not in joined]
        messages.append(sorted(merged, key=copies.index))
    apart = [part for message in messages for part in _failed_apart(message)]
    return sorted(apart, key=lambda m: copies.index(m[0]))


def _failed_apart(message: list[Copy]) -> list[list[Copy]]:
    """`message`'s copies, the failed read among them apart when its copies read exactly
    alike outnumber those of each card (or cut card) read: they are no card's damaged alike
    (no damage of a card's byte is likelier than another), but a failed read sent, its
    number misread in a copy (so they never got their votes), and the card's copy is
    another message's, misnumbered into its number (seed 30020677: 2S's only copy read as
    TS under 117, the failed read's two under 53 and 117; delivered as one misread guessing
    TS, first in a capture, the failed read went unsaid)."""
    readings = Counter(c.data for c in message)
    failed = [d for d, n in readings.most_common() if data_message(d) == Misread()][:1]
    cards = [n for d, n in readings.items() if isinstance(data_message(d), CardRead | CutRead)]
    if not failed or not cards or max(cards) >= readings[failed[0]]:
        return [message]
    return [[c for c in message if c.data == failed[0]],
            [c for c in message if c.data != failed[0]]]


def unconfirmed(copies: list[Copy], *, split: bool = False) -> Message:
    """A message whose copies did not agree enough: if any copy reads as a card, a card may
    have left the shoe, so it is a misread with the likeliest reading as its guess (a lone
    cut card or failed read is taken as read: no corruption of a card makes one likely;
    but one split from a group whose other copies read as another message is only a
    misread, since its number was misread too).
    One that reads only as a status or an alarm may be a card whose other copies were lost
    or corrupted: an alarm says so, with what was read (a status alone would never reach
    the tailleur, and a garbled alarm would not tell him a card may be missing)."""
    readings = [m for m, _ in Counter(data_message(c.data) for c in copies).most_common()]
    dealt = [m for m in readings if isinstance(m, CardRead | CutRead | Misread)]
    cards = [m.card for m in readings if isinstance(m, CardRead)]
    likeliest = dealt[0] if dealt else readings[0]
    if cards and isinstance(likeliest, CardRead | Misread):
        # a damaged card byte reads as no card far more often than as another card: the
        # card read is the guess, even over more copies read as a failed read
        return Misread(guess=cards[0])
    match likeliest:
        case Status(text=text) | ShoeAlarm(text=text) as read:
            kind = "status" if isinstance(read, Status) else "alarm"
            seq = Counter(copies).most_common(1)[0][0].seq
            return ShoeAlarm(
                f"seq {seq}: a message read only as {kind} {text!r}, its copies not agreeing: "
                "a card may be missing"
            )
        case CutRead() if split:
            return Misread()
        case other:
            return other
