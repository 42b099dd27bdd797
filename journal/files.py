"""The journal's files on disk: private modes, one writer at a time, read-only readers.

A journal holds the chef's PIN hash and every stake, so it and its folder are the table
account's alone (0600 and 0700, whatever the umask). One process writes it, holding an
exclusive `flock` on the file for as long as it is open; any other process that wants to
write is refused with the holder's name. Readers open it read-only (`mode=ro`): a
read-write connection that believes itself the last one checkpoints and deletes the WAL
under a live writer whose POSIX locks were dropped by some other open of the file in its
process — the writer then goes on writing into an unlinked file.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import stat
from pathlib import Path

from croupier.errors import CroupierError

FILE_MODE = 0o600
FOLDER_MODE = 0o700
SIDE_FILES = ("-wal", "-shm")


class JournalError(CroupierError):
    """A journal that cannot be opened, read or trusted."""


def private_folder(folder: Path) -> None:
    """Creates the folder (and its parents) for the table's account alone."""
    missing = []
    probe = folder
    while not probe.exists():
        missing.append(probe)
        probe = probe.parent
    for made in reversed(missing):
        made.mkdir(mode=FOLDER_MODE, exist_ok=True)
        os.chmod(made, FOLDER_MODE)  # mkdir's mode is cut by the umask


class WriterLock:
    """An exclusive lock on the journal file, held until `release`; the descriptor is kept
    open that long because closing any descriptor of the file drops SQLite's own locks."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, FILE_MODE)
        except OSError as err:
            raise JournalError(f"cannot open journal {str(path)!r}: {err.strerror}") from err
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _holder(self._fd)
            os.close(self._fd)
            raise JournalError(
                f"{path}: the journal is being written by {holder}; one writer at a time "
                "(stop it, or make the change through it)") from None
        os.fchmod(self._fd, FILE_MODE)
        for suffix in SIDE_FILES:
            with contextlib.suppress(FileNotFoundError):
                os.chmod(f"{path}{suffix}", FILE_MODE)

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _holder(fd: int) -> str:
    """Who holds the lock, from the kernel's table of locks (Linux); vaguer elsewhere."""
    inode = str(os.fstat(fd).st_ino)
    try:
        with open("/proc/locks", encoding="ascii") as locks:
            for line in locks:
                fields = line.split()
                if (len(fields) > 5 and fields[1] == "FLOCK"
                        and fields[5].rsplit(":", 1)[-1] == inode):
                    return _process(int(fields[4]))
    except (OSError, ValueError):
        pass
    return "another process"


def _process(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return f"process {pid}"
    command = " ".join(part.decode(errors="replace") for part in raw.split(b"\0") if part)
    return f"process {pid} ({command[:120]})"


def connect_readonly(path: Path) -> sqlite3.Connection:
    """A connection that can never write, checkpoint or delete the WAL. On read-only media,
    where SQLite cannot make the shared-memory file, the file is read as immutable — unless
    a WAL lies beside it, whose rows that would silently skip."""
    uri = path.resolve().as_uri()
    db: sqlite3.Connection | None = None
    try:
        db = sqlite3.connect(f"{uri}?mode=ro", uri=True, check_same_thread=False)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except BaseException as err:
        if db is not None:  # a refused file is let go of, not held until collected
            db.close()
        on_read_only_media = isinstance(err, sqlite3.OperationalError) and (
            "unable to open" in str(err) and not _writable(path.parent))
        if not on_read_only_media:
            raise
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size:
        raise JournalError(f"{path}: on read-only media with a WAL beside it; copy the "
                           "journal and its -wal to writable storage to read it")
    return sqlite3.connect(f"{uri}?immutable=1", uri=True, check_same_thread=False)


def _writable(folder: Path) -> bool:
    try:
        return not os.statvfs(folder).f_flag & os.ST_RDONLY and os.access(folder, os.W_OK)
    except OSError:
        return False


def check_private(path: Path, what: str) -> None:
    """A secret readable by the group or others is refused, naming the fix."""
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise JournalError(f"{what} {str(path)!r} is readable by others (mode {mode:04o}): "
                           f"chmod 600 {path}")
