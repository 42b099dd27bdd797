"""The command line under hostile conditions: read-only media, a full disk, bad and huge
inputs, processes stopped by a signal, a gap the tailleur must check — each on real
processes and files."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from croupier.events import DeviceAlarm
from croupier.fixtures import parse_shoe
from journal.live import JournaledTable
from journal.store import verify
from tests.commands import VENEZIA, croupier, dealt


def _read_only_mount(folder: Path, *command: str) -> subprocess.CompletedProcess[str]:
    """`command` run where `folder` is a read-only mount (a user namespace: no root needed)."""
    script = (f"mount --bind {folder} {folder} && mount -o remount,ro,bind {folder} {folder}"
              f" && exec \"$@\"")
    return subprocess.run(["unshare", "-rm", "sh", "-c", script, "sh", *command],
                          capture_output=True, text=True, timeout=60, check=False)


def test_readers_work_on_read_only_media(tmp_path: Path) -> None:
    probe = _read_only_mount(tmp_path, "true")
    if probe.returncode != 0:
        pytest.skip(f"no read-only mount here (unshare -rm): {probe.stderr.strip()}")
    journal = tmp_path / "table.db"
    dealt(journal)
    for reader in (("audit", "verify"), ("audit", "export", "--json"), ("stats",)):
        done = _read_only_mount(tmp_path, sys.executable, "-m", "croupier", *reader,
                                str(journal))
        assert done.returncode == 0, (reader, done.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.db"]


def test_a_full_disk_during_replay_is_a_one_line_error_and_the_chain_holds(
    tmp_path: Path,
) -> None:
    import resource

    fixture = tmp_path / "long.shoe"
    fixture.write_text(" ".join(["2C 3C 4C 5C 6C KS KC 9H 8D"] * 30))
    journal = tmp_path / "full.db"

    def small_disk() -> None:  # the file may not grow past 40 KiB, as on a full disk
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (40_000, 40_000))

    done = subprocess.run([sys.executable, "-m", "croupier", "replay", str(fixture),
                           "--json", "--journal", str(journal)], capture_output=True,
                          text=True, timeout=60, check=False, preexec_fn=small_disk)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert verify(journal).intact


def test_a_full_disk_at_a_restart_is_a_one_line_error_and_the_chain_holds(
    tmp_path: Path,
) -> None:
    # A disk with room for the journal and SQLite's shared memory, and hardly a page more:
    # the restart's gap alarm is the first thing the table writes, and cannot be.
    journal = tmp_path / "table.db"
    dealt(journal)
    disk = tmp_path / "disk"
    disk.mkdir()
    pages = -(-journal.stat().st_size // 4096) + 8 + 1
    fixture = tmp_path / "s.shoe"
    fixture.write_text("2C 3C 4C 5C")
    script = (f"mount -t tmpfs -o size={pages * 4096} tmpfs {disk} && cp {journal} {disk}"
              f" && {sys.executable} -m croupier table --backend sim --dialect bee --shoe"
              f" {fixture} --journal {disk}/table.db; echo exit $? >&2;"
              f" {sys.executable} -m croupier audit verify {disk}/table.db")
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True,
                          text=True, timeout=60, check=False)
    if "exit" not in done.stderr:
        pytest.skip(f"no tmpfs mount here (unshare -rm): {done.stderr.strip()}")
    table_said, exit_line = done.stderr.strip().splitlines()[:2]
    assert exit_line == "exit 1"
    assert "cannot journal the alarm for the restart's gap" in table_said
    assert "full" in table_said
    assert "Traceback" not in done.stderr
    assert done.returncode == 0, done.stdout  # the journal on that disk verifies whole


def test_a_journal_that_cannot_be_opened_for_want_of_room_is_not_called_foreign(
    tmp_path: Path,
) -> None:
    import resource

    journal = tmp_path / "table.db"
    dealt(journal)

    def no_room() -> None:  # not even for SQLite's shared memory
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    done = subprocess.run([sys.executable, "-m", "croupier", "table", "--backend", "sim",
                           "--shoe", str(tmp_path / "none.shoe"), "--journal", str(journal)],
                          capture_output=True, text=True, timeout=60, check=False,
                          preexec_fn=no_room)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "disk I/O error" in done.stderr
    assert "not a croupier journal" not in done.stderr
    assert verify(journal).intact


@pytest.mark.parametrize(("line", "error"), [
    ('{"type": "stake", "seat": 1, "chance": "rouge", "amount": ' + "[" * 5000
     + "]" * 5000 + "}", "nested too deep"),
    ('{"type": "stake", "seat": 1, "chance": "rouge", "amount": 1e1000000}', "a number below"),
    ('{"type": "stake", "seat": 1, "chance": "rouge", "amount": 1e9999999999999999999}',
     "out of all range"),
    ('{"type": "stake", "seat": 1, "chance": "rouge", "amount": ' + "9" * 5000 + "}",
     "not a JSON object"),
    ('{"type": "card", "card": "4\u017f"}', "bad card"),
])
def test_bad_session_lines_are_one_line_errors(tmp_path: Path, line: str, error: str) -> None:
    script = tmp_path / "bad.session.jsonl"
    script.write_text(line + "\n", encoding="utf-8")
    done = croupier("replay", str(script), "--json")
    assert done.returncode == 2
    assert error in done.stderr
    assert len(done.stderr) < 400


def test_a_huge_token_is_clipped_in_its_error(tmp_path: Path) -> None:
    fixture = tmp_path / "huge.shoe"
    fixture.write_text("2C 3C " + "Q" * 1_000_000)
    start = time.monotonic()
    done = croupier("replay", str(fixture))
    assert done.returncode == 2
    assert "1:7: bad token 'QQQQ" in done.stderr
    assert len(done.stderr) < 400
    assert time.monotonic() - start < 20


def test_inputs_past_the_size_limit_are_refused_at_once(tmp_path: Path) -> None:
    done = croupier("replay", "/dev/zero")
    assert done.returncode == 2
    assert "larger than 1 MiB" in done.stderr
    script = tmp_path / "endless.session.jsonl"
    script.symlink_to("/dev/zero")
    done = croupier("replay", str(script))
    assert done.returncode == 2
    assert "larger than 16 MiB" in done.stderr


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _gone(pid: int, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
        except FileNotFoundError:
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_a_stopped_table_leaves_no_simulator_behind(tmp_path: Path, how: int) -> None:
    fixture = tmp_path / "shoe.shoe"
    fixture.write_text("2C 3C 4C 5C 6C KS KC 9H 8D 7C " * 3)
    table = subprocess.Popen(
        [sys.executable, "-m", "croupier", "table", "--backend", "sim", "--shoe", str(fixture),
         "--journal", str(tmp_path / "t.db")], stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True)
    assert table.stdout is not None
    table.stdout.readline()  # a card has come through the simulator
    simulators = _children(table.pid)
    assert simulators
    table.send_signal(how)
    table.wait(timeout=30)
    table.stdout.close()
    assert all(_gone(pid) for pid in simulators)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_a_stopped_demo_leaves_no_simulator_and_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: int,
) -> None:
    # Qt's VNC platform: a real screen nobody needs to be at, so the window stays open.
    env = {**os.environ, "TMPDIR": str(tmp_path), "QT_QPA_PLATFORM": f"vnc:port={_free_port()}"}
    # What the demo says goes to a file, read with a deadline: reading a pipe line by line,
    # a demo that hung before saying where its journal is hung the test with it.
    said = tmp_path / "demo.err"
    with said.open("w") as err:
        demo = subprocess.Popen([sys.executable, "-m", "croupier", "ui", "--demo", "--pace",
                                 "0.05"], stderr=err, stdout=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 60
    while "journal" not in said.read_text():
        assert demo.poll() is None
        assert time.monotonic() < deadline
        time.sleep(0.05)
    deadline = time.monotonic() + 60  # a loaded machine may take long to start a process
    while not (simulators := _children(demo.pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert simulators
    assert len(list(tmp_path.glob("croupier-demo-*"))) == 1
    demo.send_signal(how)
    demo.wait(timeout=30)
    assert all(_gone(pid) for pid in simulators)
    if how == signal.SIGKILL:  # nothing of the demo ran: the next one sweeps its folder
        from app.ui_commands import demo_folder

        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
        shutil.rmtree(demo_folder())
    assert list(tmp_path.glob("croupier-demo-*")) == []


def test_a_gap_must_be_checked_at_the_baize_before_rien_ne_va_plus(tmp_path: Path) -> None:
    from croupier.decisions import Alarm, Corrected, Rejected
    from croupier.events import BaizeChecked, CloseBets

    live = JournaledTable.open(tmp_path / "t.db", VENEZIA)
    for event in parse_shoe("2C 3C 4C 5C 6C"):
        live.apply(event)
    down = DeviceAlarm("table", "the table was down", check=True)
    assert [d.code for d in live.apply(down) if isinstance(d, Alarm)] == ["baize_check"]
    (refused,) = live.apply(CloseBets())
    assert isinstance(refused, Rejected)
    assert "check the rows against the baize first" in refused.reason
    live.close()
    again = JournaledTable.open(tmp_path / "t.db", VENEZIA)  # a restart does not forget it
    assert again.table.awaiting_check == "the table was down"
    (checked,) = again.apply(BaizeChecked("tailleur"))
    assert isinstance(checked, Corrected)
    assert checked.who == "tailleur"
    assert again.table.awaiting_check is None
    assert not isinstance(again.apply(CloseBets())[0], Rejected)
    (nothing,) = again.apply(BaizeChecked("tailleur"))
    assert isinstance(nothing, Rejected)
    again.close()


def test_decode_refuses_a_capture_past_its_size_limit() -> None:
    done = croupier("decode", "/dev/zero", "--dialect", "bee")
    assert done.returncode == 2
    assert "larger than 64 MiB" in done.stderr
