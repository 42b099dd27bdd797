"""A simulated table for the demo, the tests and the bench: regulation shoes, players' stakes.

`python -m floor.simtable JOURNAL --seed N --pace SECONDS [--cards N]` deals into a journal
the way a live table does (each input durable before it is applied), one card every `pace`
seconds, with simulated players staking while bets are open.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

from croupier.decisions import Burned, Chance, Decision, Settlement
from croupier.events import (
    DeviceAlarm,
    NewShoe,
    PlaceStake,
    SetTable,
    ShoeEmpty,
    ShoeEvent,
    TableEvent,
    VoidCoup,
)
from croupier.rulebook import load_rulebook
from croupier.shuffle import regulation_shoe
from journal.chef import ChefDesk, Role
from journal.live import JournaledTable

CHEF_PIN = "246800"
_STAKES = (Decimal(10), Decimal(20), Decimal(50), Decimal(100), Decimal(500))


def dealing(rng: random.Random) -> Iterator[ShoeEvent]:
    """Shoe after shoe, for ever."""
    while True:
        yield from regulation_shoe(rng, face_up_rate=0.002)
        yield ShoeEmpty()
        yield NewShoe()


def players(rng: random.Random) -> list[TableEvent]:
    """The stakes a few players place while bets are open."""
    return [PlaceStake(rng.randint(1, 9), rng.choice(list(Chance)), rng.choice(_STAKES),
                       rng.random() < 0.2) for _ in range(rng.randint(0, 4))]


def deal(
    path: Path, seed: int, cards: int | None, pace: float, *, durable: bool = True,
    incidents: float = 0.0,
) -> int:
    """Deal `cards` shoe events (or until killed); the journal's last row number.

    With `incidents`, that share of cards also brings something for surveillance: a device
    alarm, a coup voided by the chef de table, or a wrong PIN.
    """
    rng = random.Random(seed)
    live = JournaledTable.open(path, load_rulebook("venezia"), durable=durable)
    desk = ChefDesk(live)
    try:
        if live.journal.head[0] == 1:
            live.apply(SetTable(None, Decimal(10), Decimal(10_000)))
            desk.set_pin(CHEF_PIN, setup=True)
        bets_open = True
        for count, event in enumerate(dealing(rng)):
            if cards is not None and count >= cards:
                break
            if bets_open:
                for stake in players(rng):
                    live.apply(stake)
            decisions = live.apply(event)
            bets_open = _opens_bets(decisions)
            if incidents and rng.random() < incidents and not bets_open:
                _incident(live, desk, rng)
            if pace:
                time.sleep(pace)
        return live.journal.head[0]
    finally:
        live.close()


def _incident(live: JournaledTable, desk: ChefDesk, rng: random.Random) -> None:
    match rng.randrange(3):
        case 0:
            live.apply(DeviceAlarm("shoe", "card jam cleared by the croupier"))
        case 1:
            desk.correct(Role.CHEF, CHEF_PIN, VoidCoup("chef", "misdeal seen on camera"))
        case _:
            desk.correct(Role.CHEF, "000000", VoidCoup("chef", "a mistyped PIN"))


def _opens_bets(decisions: list[Decision]) -> bool:
    """After a coup is settled (or a shoe's burn), players stake for the next coup."""
    return any(isinstance(d, Settlement | Burned) for d in decisions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m floor.simtable")
    parser.add_argument("journal", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pace", type=float, default=0.2)
    parser.add_argument("--cards", type=int)
    parser.add_argument("--fast", action="store_true", help="journal without fsync")
    parser.add_argument("--incidents", type=float, default=0.0,
                        help="share of cards that bring an alarm or a correction")
    options = parser.parse_args(argv)
    print(deal(options.journal, options.seed, options.cards, options.pace,
               durable=not options.fast, incidents=options.incidents))
    return 0


if __name__ == "__main__":
    sys.exit(main())
