"""A guard against a PySide6 build that drops references to `None`, `True` and `False`.

PySide6 6.12.0 (the version installed here) gives back `None` from every Qt method that
returns nothing, and `True` from `Signal.emit`, without taking a reference for it; each call
lowers that object's reference count by one. CPython 3.11 does not make them immortal, so
after some thousands of calls (minutes at a busy table, or at interpreter exit) the process
aborts with "Fatal Python error: none_dealloc" or "bool_dealloc".

`protect_singletons()` checks whether the installed PySide6 has the fault and, only then,
raises the three counts so far that no session can run them down. The real fix is a PySide6
without the fault; this keeps the table alive until then.
"""

from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QObject, Signal

_PROBES = 16
_HEADROOM = 1 << 48  # drops a table would need centuries to make; far from overflow (2**63)
_state = {"checked": False, "faulty": False}


class _Probe(QObject):
    fired = Signal()


def _drops(obj: object, call: object) -> int:
    before = sys.getrefcount(obj)
    for _ in range(_PROBES):
        call()  # type: ignore[operator]
    return before - sys.getrefcount(obj)


def _raise_count(obj: object, by: int) -> None:
    # CPython: a PyObject starts with its reference count, a Py_ssize_t.
    count = ctypes.c_ssize_t.from_address(id(obj))
    count.value += by


def protect_singletons() -> bool:
    """Guard `None`, `True` and `False` if PySide6 drops their references; True if it does."""
    if not _state["checked"]:
        probe = _Probe()
        none_lost = _drops(None, lambda: probe.setObjectName("probe"))
        true_lost = _drops(True, probe.fired.emit)
        _state["faulty"] = none_lost >= _PROBES or true_lost >= _PROBES
        if _state["faulty"]:
            for singleton in (None, True, False):
                _raise_count(singleton, _HEADROOM)
        _state["checked"] = True
    return _state["faulty"]
