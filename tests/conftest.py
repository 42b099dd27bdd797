"""Suite-wide guards: no display, and no test may leave a thread or a child process behind."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _children() -> set[int]:
    try:
        with open(f"/proc/{os.getpid()}/task/{os.getpid()}/children") as f:
            return {int(pid) for pid in f.read().split()}
    except OSError:
        return set()


@pytest.fixture(autouse=True)
def _private_data_folder(tmp_path_factory: pytest.TempPathFactory,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Live tables journal to the user's data folder by default: never the real one here."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(autouse=True)
def _no_leaks() -> Iterator[None]:
    threads_before = set(threading.enumerate())
    children_before = _children()
    yield
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        leaked = [t for t in threading.enumerate() if t not in threads_before and t.is_alive()]
        children = _children() - children_before
        if not leaked and not children:
            return
        time.sleep(0.02)
    if leaked:
        pytest.fail(f"test left threads running: {[t.name for t in leaked]}")
    if children:
        pytest.fail(f"test left child processes running: {sorted(children)}")
