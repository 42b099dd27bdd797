"""The guard against a PySide6 that drops references to None and True (ui/refcounts.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from PySide6.QtCore import QObject

from ui.refcounts import protect_singletons

# Far more Qt calls than a bare interpreter holds references to None: without the guard, a
# faulty PySide6 aborts the process ("none_dealloc") at the latest when it exits.
SCRIPT = textwrap.dedent("""
    import os
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtWidgets import QApplication, QLabel
    from ui.refcounts import protect_singletons
    app = QApplication([])
    protect_singletons()
    label = QLabel()
    for i in range(100_000):
        label.setText(str(i))
    print("alive")
""")


def test_many_qt_calls_do_not_abort_the_interpreter() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.strip() == "alive"


def test_a_faulty_pyside_leaves_none_with_ample_headroom(qtbot) -> None:
    faulty = protect_singletons()
    probe = QObject()
    before = sys.getrefcount(None)
    for _ in range(1000):
        probe.setObjectName("x")
    if faulty:
        assert sys.getrefcount(None) > 1 << 40
    else:
        assert sys.getrefcount(None) >= before - 10  # the fault is not there: nothing done
