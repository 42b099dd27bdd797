"""An anchor for each journal outside its file: the last row the table wrote, and its hash.

A hash chain shows a row changed inside the file, but not the file swapped whole: a WAL
deleted after a crash, or an older copy put back, is a shorter chain that holds. The table
therefore also writes, after every append, the number and hash of its last row to a small
file in the user's state folder, named by the journal's id; a journal whose rows do not
reach that row, or reach it with another hash, is refused. With a table secret the anchor
is sealed with it, so it cannot be rewritten to match either.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from journal.files import JournalError, private_folder

ANCHOR_DIR_ENV = "CROUPIER_ANCHOR_DIR"
_UNKEYED = b"croupier anchor"
_RECORD = 256  # bytes: a row number, two SHA-256 hex digests and spaces


@dataclass(frozen=True, slots=True)
class Anchor:
    seq: int
    digest: str


def anchor_folder() -> Path:
    """`$CROUPIER_ANCHOR_DIR`, else the user's state folder (`$XDG_STATE_HOME/croupier`)."""
    named = os.environ.get(ANCHOR_DIR_ENV)
    if named:
        return Path(named)
    return platformdirs.user_state_path("croupier") / "anchors"


class AnchorFile:
    def __init__(self, journal_id: str, secret: bytes | None) -> None:
        if not journal_id.isalnum():
            raise JournalError(f"a journal id must be letters and digits: {journal_id!r:.40}")
        self.path = anchor_folder() / f"{journal_id}.anchor"
        self._id = journal_id
        self._secret = secret or _UNKEYED
        self._fd = -1

    def _seal(self, seq: int, digest: str) -> str:
        text = f"{self._id}\x1f{seq}\x1f{digest}".encode()
        return hmac.new(self._secret, text, hashlib.sha256).hexdigest()

    def read(self) -> Anchor | None:
        """The anchored row, None when this machine never anchored the journal."""
        try:
            text = self.path.read_text(encoding="ascii")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as err:
            raise JournalError(f"cannot read the journal's anchor {self.path}: {err}") from err
        parts = text.split()
        if len(parts) != 3 or not parts[0].isdigit():
            raise JournalError(f"the journal's anchor {self.path} is not an anchor")
        seq, digest, seal = int(parts[0]), parts[1], parts[2]
        if not hmac.compare_digest(seal, self._seal(seq, digest)):
            raise JournalError(f"the journal's anchor {self.path} was altered "
                               "(its seal does not hold)")
        return Anchor(seq, digest)

    def write(self, seq: int, digest: str) -> None:
        """Overwrites the anchor in place: one record of a fixed size, well within a disk
        sector, so it is the old record or the new one, never half of each."""
        record = f"{seq} {digest} {self._seal(seq, digest)}\n".encode("ascii")
        try:
            if self._fd < 0:
                private_folder(self.path.parent)
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            os.pwrite(self._fd, record.ljust(_RECORD, b" "), 0)
        except OSError as err:
            raise JournalError(f"cannot write the journal's anchor {self.path}: {err}") from err

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def anchor_breach(anchor: Anchor, last: int, digest: str | None) -> tuple[int, str] | None:
    """The first row that contradicts the anchor, and why; None when the journal reaches it.
    `last` is the journal's last row, `digest` the hash of its row `anchor.seq`."""
    if anchor.seq > last:
        return (last + 1, f"rows {last + 1} to {anchor.seq}, which the table recorded, are "
                          "missing (a deleted WAL, or an older copy of the journal)")
    if anchor.seq and digest != anchor.digest:
        return (anchor.seq, "is not the row the table recorded under that number (another "
                            "or an older copy of the journal)")
    return None
