"""`make bench`: runs every `bench/bench_*.py` module's `main()`, or those named on the line."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import bench


def main(names: list[str]) -> int:
    modules = pkgutil.iter_modules(bench.__path__)
    found = sorted(m.name for m in modules if m.name.startswith("bench_"))
    wanted = [n for n in found if not names or n.removeprefix("bench_") in names or n in names]
    for name in wanted:
        print(f"== {name}", flush=True)
        importlib.import_module(f"bench.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
