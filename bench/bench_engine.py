"""Engine throughput over random regulation shoes beside a plain loop computing the same
rows, points, results and calls (the yardstick), and `croupier replay` as a whole process."""

from __future__ import annotations

import compileall
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from croupier.calls import coup_calls
from croupier.cards import Card
from croupier.decisions import CardPlaced, CoupDecided, Decision, Row
from croupier.engine import PASS_MARK, decide, play
from croupier.events import CardDrawn, CutCard, ShoeEmpty, ShoeEvent
from croupier.fixtures import render_shoe
from croupier.rulebook import Rulebook, load_rulebook
from croupier.shuffle import regulation_shoe

SHOES = 200
RUNS = 21
PROCESS_RUNS = 15


def plain_loop(events: list[ShoeEvent], rulebook: Rulebook) -> list[Decision]:
    """The yardstick: the cards placed (row, point) and the coups decided (points, result,
    couleur, calls, chances paid) of a shoe with no correction in it, by the shortest loop
    that computes them, as the same decisions the engine gives."""
    decisions: list[Decision] = []
    burn, number = rulebook.burn_cards, 1
    noir: list[Card] = []
    rouge: list[Card] = []
    noir_point = rouge_point = 0
    for event in events:
        if type(event) is not CardDrawn:
            if type(event) is CutCard:
                break
            continue
        card = event.card
        if burn:
            burn -= 1
        elif noir_point <= PASS_MARK:
            noir.append(card)
            noir_point += card.points
            decisions.append(CardPlaced(number, Row.NOIR, card, noir_point, event.face_up))
        else:
            rouge.append(card)
            rouge_point += card.points
            decisions.append(CardPlaced(number, Row.ROUGE, card, rouge_point, event.face_up))
            if rouge_point > PASS_MARK:
                dealt = tuple(noir)
                result, couleur, pay = decide(dealt, noir_point, rouge_point)
                calls, calls_en = coup_calls(noir_point, rouge_point, result, couleur,
                                             rulebook.calls)
                decisions.append(CoupDecided(number, dealt, tuple(rouge), noir_point,
                                             rouge_point, result, couleur, calls, calls_en,
                                             pay, 0, (), ()))
                noir, rouge, noir_point, rouge_point = [], [], 0, 0
                number += 1
    return decisions


def engine_decisions(events: list[ShoeEvent], rulebook: Rulebook) -> list[Decision]:
    return [d for d in play(events, rulebook) if isinstance(d, CardPlaced | CoupDecided)]


def _engine_fold(shoes: list[list[ShoeEvent]], rulebook: Rulebook) -> None:
    for events in shoes:
        play(events, rulebook)


def _plain_fold(shoes: list[list[ShoeEvent]], rulebook: Rulebook) -> None:
    for events in shoes:
        plain_loop(events, rulebook)


def engine_throughput() -> None:
    rulebook = load_rulebook("venezia")
    rng = random.Random(2026)
    shoes = [[*regulation_shoe(rng, rulebook=rulebook), ShoeEmpty()] for _ in range(SHOES)]
    cards = sum(1 for shoe in shoes for e in shoe if isinstance(e, CardDrawn))
    # The yardstick must compute what the engine does, or the race means nothing.
    assert all(engine_decisions(s, rulebook) == plain_loop(s, rulebook) for s in shoes[:50])
    folds: dict[str, Callable[[list[list[ShoeEvent]], Rulebook], None]] = {
        "engine": _engine_fold, "plain loop": _plain_fold}
    rates: dict[str, list[float]] = {name: [] for name in folds}
    # Run by run, each fold beside the other (first in turn), so that both see the same
    # machine; CPU time, which other processes on a busy machine disturb less than the clock.
    # The race is the median of the runs' ratios: a busy spell slows a run's two folds alike.
    order = list(folds.items())
    for _ in range(RUNS):
        for name, fold in order:
            start = time.process_time()
            fold(shoes, rulebook)
            rates[name].append(cards / (time.process_time() - start))
        order.reverse()
    print(f"engine: {SHOES} regulation shoes, {cards} cards per run, {RUNS} runs each, "
          "per CPU second")
    for name, seen in rates.items():
        print(f"engine: {name:<10} median {statistics.median(seen):,.0f} cards/s "
              f"(min {min(seen):,.0f}, max {max(seen):,.0f})")
    ratio = statistics.median(e / p for e, p in zip(rates["engine"], rates["plain loop"],
                                                    strict=True))
    print(f"engine: the engine at {ratio:.2f} times the plain loop's speed, the median of the "
          "runs' (target 1.00 or more)")


def _installed(root: Path, into: Path) -> Path | None:
    """A virtual environment at `into` with the project installed as a table installs it
    (`pip install .`, no editable finder), or None, saying why, when pip cannot build it."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(into)], check=True)
    python = into / "bin" / "python"
    # built from a copy: pip builds in the tree it is given, and the checkout stays clean
    source = shutil.copytree(root, into.with_name("source"), ignore=shutil.ignore_patterns(
        ".*", "build", "*.egg-info", "__pycache__"))
    built = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                            "--quiet", "--no-deps", str(source)], check=False,
                           capture_output=True, text=True)
    if built.returncode != 0:
        print(f"replay: cannot install the project to time it: {built.stderr.strip()[-200:]}")
        return None
    return python


def _median_ms(commands: dict[str, list[str]], cwd: Path) -> dict[str, float]:
    """Each command's median wall time over PROCESS_RUNS runs, the commands taken in turn."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(PROCESS_RUNS):
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True, cwd=cwd)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(seen) * 1000 for name, seen in times.items()}


def replay_process() -> None:
    """`croupier replay` of one shoe as a whole process, installed as at a table, beside the
    bare interpreter's start; and the same from this checkout's editable install, whose
    finder every process of the virtual environment pays for at its start."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        fixture = Path(tmp) / "regulation.shoe"
        fixture.write_text(render_shoe(regulation_shoe(random.Random(7))))
        replay = ["replay", str(fixture), "--json"]
        python = _installed(root, Path(tmp) / "venv")
        if python is not None:
            ms = _median_ms({"replay": [str(python.with_name("croupier")), *replay],
                             "bare": [str(python), "-c", "pass"]}, Path(tmp))
            print(f"replay: one regulation shoe, `croupier replay` installed, whole process, "
                  f"{PROCESS_RUNS} runs: median {ms['replay']:.0f} ms (target under 50 ms), "
                  f"of which the bare interpreter's start {ms['bare']:.0f} ms")
        for package in ("app", "croupier"):
            compileall.compile_dir(root / package, quiet=1)
        ms = _median_ms({"replay": [sys.executable, "-m", "croupier", *replay],
                         "bare": [sys.executable, "-c", "pass"]}, root)
        print(f"replay: the same from this checkout (`python -m croupier`, editable): median "
              f"{ms['replay']:.0f} ms, of which the bare interpreter's start {ms['bare']:.0f} ms")


def main() -> None:
    engine_throughput()
    replay_process()
