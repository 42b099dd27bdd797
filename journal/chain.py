"""The hash chain of a journal's rows: how each row's hash is made, how the head is sealed,
and the walk that finds the first row that does not hold."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

from journal.files import JournalError

GENESIS = "0" * 64


def row_hash(
    seq: int, at: str, kind: str, body: str, prev: str, *, secret: bytes | None
) -> str:
    message = "\x1f".join((str(seq), at, kind, body, prev)).encode()
    if secret:
        return hmac.new(secret, message, hashlib.sha256).hexdigest()
    return hashlib.sha256(message).hexdigest()


def head_record(seq: int, digest: str, secret: bytes | None) -> str:
    """The head kept beside the rows; with a secret it carries an HMAC nobody else can make."""
    if not secret:
        return f"{seq}:{digest}"
    seal = hmac.new(secret, f"head\x1f{seq}\x1f{digest}".encode(), hashlib.sha256).hexdigest()
    return f"{seq}:{digest}:{seal}"


@dataclass(frozen=True, slots=True)
class Accepted:
    """A break in the journal the chef de table accepted, so that the table deals on: the
    `override` row at `at_row` names it, who accepted it and why. It is never forgotten:
    every verification names it again."""

    row: int
    reason: str
    at_row: int
    who: str
    why: str


@dataclass(frozen=True, slots=True)
class Verdict:
    rows: int
    bad_row: int | None = None
    reason: str = ""
    accepted: tuple[Accepted, ...] = ()

    @property
    def intact(self) -> bool:
        """No break at all, accepted or not."""
        return self.bad_row is None and not self.accepted

    @property
    def dealable(self) -> bool:
        """Every break there is was accepted by the chef de table."""
        return self.bad_row is None


def walk(
    records: Any, meta: dict[str, str], secret: bytes | None, overrides: dict[int, Accepted]
) -> Verdict:
    if meta.get("keyed") == "1" and not secret:
        raise JournalError("the journal is keyed: its table secret is needed to verify it")
    expected_seq, prev = 1, GENESIS
    count = 0
    for seq, at, kind, body, row_prev, digest in records:
        count += 1
        if not all(isinstance(field, str) for field in (at, kind, body, row_prev, digest)):
            return Verdict(count, seq, "its fields are damaged")
        if seq != expected_seq:
            why = f"row {expected_seq} is missing before row {seq}"
        elif row_prev != prev:
            why = "does not follow the row before it (a row was inserted, removed or moved)"
        elif row_hash(seq, at, kind, body, row_prev, secret=secret) != digest:
            why = "its contents were changed"
        else:
            why = ""
        if why and seq not in overrides:
            return Verdict(count, seq, why)
        # An accepted break: the chain is taken up again from the row as it stands.
        expected_seq, prev = seq + 1, digest
    head = meta.get("head")
    last = expected_seq - 1
    if head is None:
        if count:
            return Verdict(count, last, "the journal's head record is missing "
                                        "(rows may have been cut off the end)")
        return Verdict(count)
    if head != head_record(last, prev, secret):
        recorded = head.split(":", 1)[0]
        if recorded.isdigit() and int(recorded) > last:
            return Verdict(count, last + 1, f"rows {last + 1} to {recorded} were removed from "
                                            "the end")
        return Verdict(count, last, "the recorded head does not match the last row")
    return Verdict(count)
