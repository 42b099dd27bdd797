"""The core is fenced: `croupier/` imports the standard library and itself, nothing else;
and no package below the application imports the application — but for its live runtime,
`app.runtime`, which the screen runs on as `croupier table` does, and which imports nothing
of the screen or the commands."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EDGES = ("croupier", "journal", "drivers", "vision", "ui", "hardware-sims")
# Entry points of edge folders: command lines, which belong to the application.
ENTRY_POINTS = {"croupier/__main__.py", "hardware-sims/shoe_sim.py",
                "hardware-sims/camera_sim.py"}


# The runtime and what it is built of: none imports the screen or the commands.
RUNTIME_PARTS = {"app.runtime": "runtime.py", "app.reading": "reading.py",
                 "app.witnessing": "witnessing.py"}


def _modules_imported(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def _imports(path: Path) -> set[str]:
    return {name.split(".")[0] for name in _modules_imported(path)}


def _modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", _modules("croupier"), ids=lambda p: p.name)
def test_the_core_imports_the_standard_library_and_itself_only(path: Path) -> None:
    if str(path.relative_to(ROOT)) in ENTRY_POINTS:
        return
    foreign = _imports(path) - set(sys.stdlib_module_names) - {"croupier", "__future__"}
    assert not foreign, f"{path.relative_to(ROOT)} imports {sorted(foreign)}"


@pytest.mark.parametrize("folder", EDGES)
def test_nothing_below_the_application_imports_it(folder: str) -> None:
    reaching = [str(p.relative_to(ROOT)) for p in _modules(folder)
                if any(m.split(".")[0] == "app" and m not in RUNTIME_PARTS
                       for m in _modules_imported(p))
                and str(p.relative_to(ROOT)) not in ENTRY_POINTS]
    assert reaching == []


@pytest.mark.parametrize("part", RUNTIME_PARTS.values())
def test_the_runtime_stands_below_the_screen_and_the_commands(part: str) -> None:
    below = {m for m in _modules_imported(ROOT / "app" / part)
             if m.split(".")[0] not in sys.stdlib_module_names}
    allowed = {"__future__", "croupier", "journal", "drivers"}
    assert all(m.split(".")[0] in allowed or m in RUNTIME_PARTS for m in below), below
