"""Suite-wide guards: no display, and no test may leave a thread or a child process behind."""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _children() -> set[int]:
    """This process's children, but for multiprocessing's resource tracker, which the
    standard library keeps for the interpreter's whole life once a pool has been spawned."""
    try:
        with open(f"/proc/{os.getpid()}/task/{os.getpid()}/children") as f:
            pids = {int(pid) for pid in f.read().split()}
    except OSError:
        return set()
    return {pid for pid in pids if not _is_resource_tracker(pid)}


def _is_resource_tracker(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"multiprocessing.resource_tracker" in f.read()
    except OSError:
        return False


@pytest.fixture(autouse=True)
def _private_data_folder(tmp_path_factory: pytest.TempPathFactory,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Live tables journal to the user's data folder by default, and card designs are cached
    in the user's cache: never the real ones here (the cache is shared by the whole run)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "cache"))


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


# The vision suites' shared fixtures; OpenCV loads only for the tests that ask for them.
@pytest.fixture(scope="module")
def design(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The built-in card design, calibrated into a private cache."""
    from vision.design import builtin_design

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield builtin_design()


@pytest.fixture(scope="module")
def faces() -> dict[str, Any]:
    """The built-in design's 52 face images, by card name."""
    from hardware_sims.scene_render import load_faces
    from vision.design import BUILTIN

    return load_faces(BUILTIN)


def _drawn(tmp_path_factory: pytest.TempPathFactory, seed: int) -> tuple[Any, dict[str, Any]]:
    """The design `deck_maker` draws from `seed`, calibrated into a private cache, and its
    faces."""
    from hardware_sims.deck_maker import write_deck
    from hardware_sims.scene_render import load_faces
    from vision.design import load_design

    folder = tmp_path_factory.mktemp(f"drawn{seed}")
    write_deck(folder, seed=seed)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        return load_design(folder), load_faces(folder)


@pytest.fixture(scope="module")
def drawn_builtin(design: Any, faces: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The built-in design and its faces, as the tuning designs are drawn (`drawn_design`)."""
    return design, faces


@pytest.fixture(scope="module")
def framed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, Any]]:
    """A design drawn with a coloured frame printed near the edge (tuning design 105)."""
    return _drawn(tmp_path_factory, 105)


@pytest.fixture(scope="module")
def drawn_106(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, Any]]:
    """Tuning design 106 (framed near its edges)."""
    return _drawn(tmp_path_factory, 106)


@pytest.fixture(scope="module")
def drawn_108(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, Any]]:
    """Tuning design 108 (court cards alike in a suit's colour but for a few small pips)."""
    return _drawn(tmp_path_factory, 108)


@pytest.fixture(scope="module")
def drawn_118(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, Any]]:
    """Tuning design 118 (its kings of spades and clubs alike but for their small pips)."""
    return _drawn(tmp_path_factory, 118)



@pytest.fixture(scope="module")
def drawn_design(
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[int], tuple[Any, dict[str, Any]]]:
    """Tuning designs by their `deck_maker` seed, each drawn and calibrated once a module."""
    return functools.cache(lambda seed: _drawn(tmp_path_factory, seed))
