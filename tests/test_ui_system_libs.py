"""`croupier ui` on an X display that lacks Qt's libraries names them and the apt-get line,
instead of letting Qt abort the process."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ui.system_libs import debian_package, install_hint, missing_xcb_libraries


@pytest.mark.parametrize(("soname", "package"), [
    ("libxcb-cursor.so.0", "libxcb-cursor0"),
    ("libxcb-icccm.so.4", "libxcb-icccm4"),
    ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
    ("libdbus-1.so.3", "libdbus-1-3"),
    ("libEGL.so.1", "libegl1"),
])
def test_debian_names_its_library_packages(soname: str, package: str) -> None:
    assert debian_package(soname) == package


def test_the_hint_is_one_apt_get_line() -> None:
    hint = install_hint(["libxcb-keysyms.so.1", "libxcb-cursor.so.0"])
    assert hint.endswith("sudo apt-get install -y libxcb-cursor0 libxcb-keysyms1")


def test_the_demo_on_a_display_without_qts_libraries_says_what_to_install() -> None:
    missing = missing_xcb_libraries()
    if not missing:
        pytest.skip("this machine has every library Qt's X11 platform needs")
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM",
                                                           "WAYLAND_DISPLAY")}
    env["DISPLAY"] = ":99"  # a desktop's display; Qt never gets to open it
    done = subprocess.run([sys.executable, "-m", "croupier", "ui", "--demo", "--seed", "4"],
                          capture_output=True, text=True, timeout=60, check=False, env=env)
    assert done.returncode == 0, done.stderr
    assert "sudo apt-get install -y " in done.stderr
    assert all(debian_package(soname) in done.stderr for soname in missing)
    assert "Coup 1" in done.stdout  # the same shoe, as text
