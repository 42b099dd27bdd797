"""The journal against other processes and damaged files: one writer, read-only readers that
never take the WAL away from a live table, an anchor outside the file, a table that will
not deal on a journal it cannot trust, private files — each on real processes and files."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier.events import CardDrawn, DeviceAlarm
from croupier.fixtures import parse_shoe
from journal.live import JournaledTable
from journal.store import Journal, JournalError, verify
from tests.commands import VENEZIA, croupier, dealt


@pytest.fixture
def live_table(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """A `croupier table` dealing from a port that never says anything: it holds its
    journal as a table at rest does."""
    journal = tmp_path / "table.db"
    dealt(journal)
    process = subprocess.Popen(
        [sys.executable, "-m", "croupier", "table", "--shoe", "loop://", "--journal",
         str(journal)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    line = process.stderr.readline()  # "journal … (N rows)": the journal is open
    assert "journal" in line, line
    yield process, journal
    process.terminate()
    process.communicate(timeout=30)


def test_a_second_table_on_the_journal_is_refused_naming_the_first(
    live_table: tuple[subprocess.Popen[str], Path],
) -> None:
    process, journal = live_table
    second = croupier("table", "--shoe", "loop://", "--journal", str(journal))
    assert second.returncode == 2
    assert f"being written by process {process.pid}" in second.stderr
    assert "croupier table" in second.stderr
    assert len(second.stderr.strip().splitlines()) == 1
    assert process.poll() is None  # the first table deals on


def test_set_pin_while_a_table_deals_is_refused_and_the_table_is_untouched(
    live_table: tuple[subprocess.Popen[str], Path],
) -> None:
    process, journal = live_table
    rows = verify(journal).rows
    done = croupier("audit", "set-pin", str(journal), stdin="246800\n")
    assert done.returncode == 2
    assert "being written by" in done.stderr
    assert process.poll() is None
    assert verify(journal).rows == rows


def test_readers_work_beside_a_live_table(
    live_table: tuple[subprocess.Popen[str], Path],
) -> None:
    _, journal = live_table
    assert croupier("audit", "verify", str(journal)).returncode == 0
    assert croupier("audit", "export", str(journal), "--json").returncode == 0
    assert croupier("stats", str(journal), "--json").returncode == 0


WRITER = textwrap.dedent("""
    import os, sys
    from croupier.events import DeviceAlarm
    from croupier.rulebook import load_rulebook
    from journal.live import JournaledTable
    path = sys.argv[1]
    live = JournaledTable.open(path, load_rulebook("venezia"))
    live.apply(DeviceAlarm("test", "before the readers"))
    # Any other open and close of the file in this process drops SQLite's POSIX locks, as a
    # file dialog browsing the folder did: a read-write reader would then take the WAL.
    os.close(os.open(path, os.O_RDONLY))
    print("ready", flush=True)
    sys.stdin.readline()
    live.apply(DeviceAlarm("test", "after the readers"))
    print("written", flush=True)
    sys.stdin.readline()
    os._exit(0)  # as a kill -9: no close, no checkpoint
""")


def test_readers_never_delete_the_wal_of_a_live_table(tmp_path: Path) -> None:
    from ui.audit_data import report_after
    from ui.scenario import load_scenario

    journal = tmp_path / "table.db"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(journal)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert writer.stdin is not None
    assert writer.stdout is not None
    assert writer.stdout.readline().strip() == "ready"
    for reader in (("audit", "verify"), ("audit", "export"), ("stats",)):
        assert croupier(*reader, str(journal)).returncode == 0
    report_after(str(journal), VENEZIA, None, 0)  # the chef's report process
    load_scenario(journal)  # Relecture
    assert Path(f"{journal}-wal").exists()
    writer.stdin.write("\n")
    writer.stdin.flush()
    assert writer.stdout.readline().strip() == "written"
    writer.stdin.write("\n")
    writer.stdin.flush()
    writer.wait(timeout=30)
    with Journal(journal, readonly=True) as reread:
        texts = [row.data().get("text") for row in reread.rows("input")]
    assert texts == ["before the readers", "after the readers"]
    assert verify(journal).intact


def test_a_writer_whose_wal_was_deleted_stops_at_once(tmp_path: Path) -> None:
    journal = tmp_path / "table.db"
    live = JournaledTable.open(journal, VENEZIA)
    os.unlink(f"{journal}-wal")
    with pytest.raises(JournalError, match="-wal was deleted"):
        live.apply(DeviceAlarm("test", "lost"))
    live.close()


def _killed_writer(journal: Path, events: int) -> None:
    """A table that appended `events` inputs and was killed: its last rows are in the WAL."""
    code = textwrap.dedent(f"""
        import os
        from croupier.events import DeviceAlarm
        from croupier.rulebook import load_rulebook
        from journal.live import JournaledTable
        live = JournaledTable.open({str(journal)!r}, load_rulebook("venezia"))
        for n in range({events}):
            live.apply(DeviceAlarm("test", str(n)))
        os._exit(0)
    """)
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_deleted_wal_is_caught_by_the_anchor(tmp_path: Path) -> None:
    journal = tmp_path / "table.db"
    dealt(journal)  # closed: these rows are in the file itself
    rows = verify(journal).rows
    _killed_writer(journal, 3)
    for suffix in ("-wal", "-shm"):
        os.unlink(f"{journal}{suffix}")
    done = croupier("audit", "verify", str(journal))
    assert done.returncode == 1
    assert f"row {rows + 1}: rows {rows + 1} to {rows + 6}" in done.stdout
    again = croupier("table", "--shoe", "loop://", "--journal", str(journal))
    assert again.returncode == 2
    assert "will not deal on a broken journal" in again.stderr


def test_an_older_copy_put_back_is_caught_by_the_anchor(tmp_path: Path) -> None:
    journal = tmp_path / "table.db"
    dealt(journal)
    shutil.copy(journal, tmp_path / "backup.db")
    live = JournaledTable.open(journal, VENEZIA)
    live.apply(CardDrawn(parse_shoe("QD")[0].card))  # type: ignore[union-attr]
    live.close()
    shutil.copy(tmp_path / "backup.db", journal)
    verdict = verify(journal)
    assert not verdict.intact
    assert "missing" in verdict.reason


def test_a_card_edited_while_the_table_was_down_stops_the_table(tmp_path: Path) -> None:
    journal = tmp_path / "table.db"
    dealt(journal)
    with sqlite3.connect(journal) as db:
        db.execute("UPDATE rows SET body = replace(body, '9H', '9D') WHERE kind = 'input'")
    with pytest.raises(JournalError, match="will not deal on a broken journal"):
        JournaledTable.open(journal, VENEZIA)
    done = croupier("table", "--shoe", "loop://", "--journal", str(journal))
    assert done.returncode == 2
    assert "contents were changed" in done.stderr


def test_a_keyed_journal_cut_short_is_not_resealed_by_a_restart(tmp_path: Path) -> None:
    journal, secret = tmp_path / "keyed.db", b"table 3 secret"
    live = JournaledTable.open(journal, VENEZIA, secret=secret)
    for event in parse_shoe("2C 3C 4C 5C 6C KS KC 9H"):
        live.apply(event)
    live.close()
    with sqlite3.connect(journal) as db:
        db.execute("DELETE FROM rows WHERE seq > 5")
    with pytest.raises(JournalError, match="broken journal"):
        JournaledTable.open(journal, VENEZIA, secret=secret)
    assert not verify(journal, secret=secret).intact


def test_journal_files_and_folders_are_private_whatever_the_umask(tmp_path: Path) -> None:
    journal = tmp_path / "new" / "folder" / "table.db"
    old = os.umask(0)
    try:
        live = JournaledTable.open(journal, VENEZIA)
        live.apply(DeviceAlarm("test", "x"))
        modes = {p.name: stat.S_IMODE(p.stat().st_mode)
                 for p in (journal, Path(f"{journal}-wal"), journal.parent,
                           journal.parent.parent)}
        live.close()
    finally:
        os.umask(old)
    assert modes == {"table.db": 0o600, "table.db-wal": 0o600, "folder": 0o700, "new": 0o700}


def test_a_foreign_sqlite_file_is_never_made_a_journal(tmp_path: Path) -> None:
    other = tmp_path / "accounts.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE accounts (id, balance)")
    before = other.read_bytes()
    done = croupier("table", "--shoe", "loop://", "--journal", str(other))
    assert done.returncode == 2
    assert "not a croupier journal" in done.stderr
    assert other.read_bytes() == before
    assert not Path(f"{other}-wal").exists()


def test_a_journal_truncated_mid_page_is_a_one_line_error(tmp_path: Path) -> None:
    journal = tmp_path / "table.db"
    dealt(journal, "2C 3C 4C 5C 6C " + "KS KC 9H 8D 7C 6S 5H 4D 3C 2S " * 40)
    size = journal.stat().st_size
    with open(journal, "r+b") as f:
        f.truncate(size // 2 + 100)
    for command in (("audit", "export", str(journal)), ("audit", "verify", str(journal)),
                    ("table", "--shoe", "loop://", "--journal", str(journal)),
                    ("stats", str(journal))):
        done = croupier(*command)
        assert done.returncode in (1, 2), (command, done.stderr)
        assert "Traceback" not in done.stderr, command
        assert len(done.stderr.strip().splitlines()) <= 1, (command, done.stderr)


def test_the_chef_accepts_a_break_and_verify_names_it_for_ever(tmp_path: Path) -> None:
    from journal.chef import ChefDesk

    journal, secret = tmp_path / "keyed.db", b"table 5 secret"
    key = tmp_path / "table.key"
    key.write_bytes(secret)
    key.chmod(0o600)
    live = JournaledTable.open(journal, VENEZIA, secret=secret)
    assert ChefDesk(live).set_pin("246800", setup=True) is None
    for event in parse_shoe("2C 3C 4C 5C 6C KS KC 9H"):
        live.apply(event)
    live.close()
    with sqlite3.connect(journal) as db:
        edited = db.execute("SELECT seq FROM rows WHERE body LIKE '%9H%' AND kind = 'input'"
                            ).fetchone()[0]
        db.execute("UPDATE rows SET body = replace(body, '9H', '9D') WHERE seq = ?", (edited,))
    keyed = ("--key-file", str(key))
    assert croupier("table", "--shoe", "loop://", "--journal", str(journal), *keyed
                    ).returncode == 2
    wrong = croupier("audit", "accept", str(journal), "--who", "chef Rossi", "--why", "x",
                     *keyed, stdin="111111\n")
    assert wrong.returncode == 1
    assert "wrong PIN" in wrong.stderr
    done = croupier("audit", "accept", str(journal), "--who", "chef Rossi", "--why",
                    "9D confirmed on the baize", *keyed, stdin="246800\n")
    assert done.returncode == 0, done.stderr
    reopened = JournaledTable.open(journal, VENEZIA, secret=secret)  # deals on
    reopened.apply(DeviceAlarm("test", "after the override"))
    reopened.close()
    verified = croupier("audit", "verify", str(journal), *keyed)
    assert verified.returncode == 1
    assert f"row {edited}: its contents were changed (accepted at row" in verified.stdout
    assert "by chef Rossi: 9D confirmed on the baize" in verified.stdout


def test_stats_name_a_decisions_row_that_is_not_one(tmp_path: Path) -> None:
    journal = tmp_path / "table.db"
    dealt(journal)
    with sqlite3.connect(journal) as db:
        db.execute("UPDATE rows SET body = '[1, 2]' WHERE seq = (SELECT max(seq) FROM rows "
                   "WHERE kind = 'decisions')")
    done = croupier("stats", str(journal))
    assert done.returncode == 2
    assert "not a decisions row" in done.stderr
    assert "Traceback" not in done.stderr


def _handles_on(path: Path) -> int:
    """How many of this process's file descriptors are open on `path` (a real count, read
    from the kernel)."""
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            if Path(os.readlink(f"/proc/self/fd/{fd}")) == path.resolve():
                count += 1
        except OSError:  # the descriptor listdir itself held, closed since
            continue
    return count


@pytest.mark.parametrize("readonly", [False, True])
def test_a_journal_whose_schema_page_is_damaged_is_refused_without_keeping_the_file_open(
        tmp_path: Path, readonly: bool) -> None:
    """A table that retries a damaged journal must not pile up handles on it: each refusal
    lets go of the file, for writers and readers alike."""
    path = tmp_path / "table.db"
    with Journal(path) as journal:
        journal.append("note", {"text": "kept"})
    damaged = bytearray(path.read_bytes())
    damaged[100:140] = b"\xff" * 40  # the b-tree header of the page naming the tables
    path.write_bytes(bytes(damaged))
    for _ in range(3):
        with pytest.raises(JournalError, match="malformed"):
            Journal(path, readonly=readonly)
    assert _handles_on(path) == 0


def test_a_writer_refused_after_it_connected_lets_go_of_its_lock(tmp_path: Path) -> None:
    """A damaged meta row refuses the journal after the file was locked and opened: the
    refusal names it, and a second try is refused for the same reason, not locked out by
    the first."""
    path = tmp_path / "table.db"
    with Journal(path) as journal:
        journal.append("note", {"text": "kept"})
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = 'not/an-id' WHERE key = 'id'")
    db.close()
    for _ in range(2):
        with pytest.raises(JournalError, match="a journal id must be letters and digits"):
            Journal(path)
    with sqlite3.connect(path) as db:  # mended: the same process may write it again
        db.execute("UPDATE meta SET value = 'mended' WHERE key = 'id'")
    db.close()
    with Journal(path) as journal:
        assert [row.data() for row in journal.rows()] == [{"text": "kept"}]


class _FailingClose:
    """A connection whose close fails as SQLite's does on a failing disk."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def close(self) -> None:
        self.db.close()
        raise sqlite3.OperationalError("disk I/O error")


def test_a_journal_whose_close_fails_still_lets_go_of_its_lock(tmp_path: Path) -> None:
    """The failure is raised, and the file is free for the table's next try."""
    path = tmp_path / "table.db"
    journal = Journal(path)
    journal.append("note", {"text": "kept"})
    journal._db = _FailingClose(journal._db)  # type: ignore[assignment]
    with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
        journal.close()
    with Journal(path) as again:
        assert [row.data() for row in again.rows()] == [{"text": "kept"}]
