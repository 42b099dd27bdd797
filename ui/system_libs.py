"""Which system libraries Qt's X11 platform needs and this machine lacks, and the Debian
packages that hold them: without them Qt aborts the whole process ("no Qt platform plugin
could be initialized"), which no Python code can catch, so the window is not even tried."""

from __future__ import annotations

import ctypes
import os
import re
import subprocess
from pathlib import Path

# Qt loads these with dlopen when the window opens: `ldd` of the plugin does not list them.
LOADED_AT_RUN_TIME = ("libxcb-cursor.so.0",)


def wants_xcb() -> bool:
    """Qt will pick its X11 platform: an X display, and no other platform asked for."""
    platform = os.environ.get("QT_QPA_PLATFORM", "").split(":")[0]
    if platform:
        return platform == "xcb"
    return bool(os.environ.get("DISPLAY")) and not os.environ.get("WAYLAND_DISPLAY")


def missing_xcb_libraries() -> list[str]:
    """The shared libraries (sonames) the X11 platform plugin cannot find."""
    import PySide6

    plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    try:
        listing = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True,
                                 timeout=20, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        listing = ""  # no ldd: only what Qt loads at run time is checked
    missing = {line.split()[0] for line in listing.splitlines() if "=> not found" in line}
    for soname in LOADED_AT_RUN_TIME:
        try:
            ctypes.CDLL(soname)
        except OSError:
            missing.add(soname)
    return sorted(missing)


def debian_package(soname: str) -> str:
    """Debian's name for the package of a library: libxcb-cursor.so.0 → libxcb-cursor0,
    libxkbcommon-x11.so.0 → libxkbcommon-x11-0 (a dash when the name ends in a digit)."""
    found = re.fullmatch(r"(lib.+)\.so\.(\d+)", soname)
    if not found:
        return soname
    name, version = found.group(1).lower(), found.group(2)
    return f"{name}-{version}" if name[-1].isdigit() else f"{name}{version}"


def install_hint(missing: list[str]) -> str:
    packages = " ".join(sorted({debian_package(soname) for soname in missing}))
    return (f"Qt cannot open a window here: {', '.join(missing)} not found; on Debian or "
            f"Ubuntu: sudo apt-get install -y {packages}")
