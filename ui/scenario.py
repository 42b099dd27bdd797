"""Event lists for the screens without a live shoe: the built-in demo shoe, fixtures, session
scripts and journals, and the boards they fold to coup by coup. No Qt here."""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from croupier.decisions import Chance, Corrected, CoupDecided, CoupVoided, Decision, Rejected
from croupier.errors import CroupierError, FixtureError, RulebookError
from croupier.events import ChoosePrison, PlaceStake, SetTable
from croupier.fixtures import parse_shoe
from croupier.records import event_from_record
from croupier.rulebook import Rulebook, load_rulebook
from croupier.session import parse_session
from croupier.shuffle import regulation_shoe
from croupier.table import Event, Table
from journal.live import recorded_rulebook
from journal.store import Journal
from ui.board import Board, fold, initial_board

DEMO_SEED = 31
DEMO_STAKES = (
    PlaceStake(5, Chance.NOIR, Decimal(100)),
    PlaceStake(4, Chance.ROUGE, Decimal(200), insured=True),
    PlaceStake(3, Chance.INVERSE, Decimal(50)),
    PlaceStake(2, Chance.COULEUR, Decimal(500)),
    PlaceStake(1, Chance.ROUGE, Decimal(20)),
)
DEMO_TABLE: tuple[Event, ...] = (SetTable(minimum=Decimal(10), maximum=Decimal(10000)),)


@dataclass(frozen=True, slots=True)
class Scenario:
    """A table's inputs in order, and the rulebook they were recorded under if known."""

    events: tuple[Event, ...]
    rulebook: Rulebook | None = None
    name: str = "demo"


def demo_scenario(seed: int = DEMO_SEED) -> Scenario:
    """A shuffled regulation shoe, with the table's limits and a few stakes on the first coup,
    placed once the burn is done: bets open only then (docs/RULES.md §2)."""
    shoe = regulation_shoe(random.Random(seed), face_up_rate=0.004)
    burn = load_rulebook().burn_cards
    return Scenario((*DEMO_TABLE, *shoe[:burn], *DEMO_STAKES, *shoe[burn:]), None,
                    f"demo shoe (seed {seed})")


def load_scenario(path: str | Path) -> Scenario:
    """A `.shoe` fixture, a `.session.jsonl` script or a journal `.db`; `CroupierError` names
    what could not be read."""
    path = Path(path)
    if path.suffix == ".db":
        return _journal_scenario(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise CroupierError(f"cannot read {str(path)!r}: {err}") from err
    if path.name.endswith(".jsonl"):
        lines = parse_session(text, load_rulebook, origin=str(path))
        events = tuple(line.event for line in lines if not isinstance(line.event, Rejected))
        return Scenario(events, None, path.name)
    return Scenario(tuple(parse_shoe(text, origin=str(path))), None, path.name)


def _journal_scenario(path: Path) -> Scenario:
    if not path.is_file():
        raise CroupierError(f"no journal at {str(path)!r}")
    with Journal(path, readonly=True) as journal:
        try:
            rulebook = recorded_rulebook(journal)
            events = tuple(event_from_record(row.data()) for row in journal.rows("input"))
        except (ValueError, RulebookError, FixtureError) as err:
            raise CroupierError(f"{path}: cannot replay this journal: {err}") from err
    return Scenario(events, rulebook, path.name)


class Moment(enum.Enum):
    """Why the replay stops at a frame."""

    COUP = "coup"  # a coup decided or void
    CHOICE = "choice"  # a prison choice after a refait
    REFUSED = "refused"  # an input the table refused
    CORRECTION = "correction"  # the chef's correction, or the baize checked
    END = "end"  # where the inputs end


@dataclass(frozen=True, slots=True)
class Frame:
    """The board at one moment of the replay, and the input and decisions that made it."""

    board: Board
    moment: Moment
    event: Event | None = None
    decisions: tuple[Decision, ...] = ()


def _moment(event: Event, decisions: list[Decision]) -> Moment | None:
    if any(isinstance(d, CoupDecided | CoupVoided) for d in decisions):
        return Moment.COUP
    if any(isinstance(d, Rejected) for d in decisions):
        return Moment.REFUSED
    if any(isinstance(d, Corrected) for d in decisions):
        return Moment.CORRECTION
    if isinstance(event, ChoosePrison):
        return Moment.CHOICE
    return None


def frames(scenario: Scenario, rulebook: Rulebook) -> list[Frame]:
    """The board after each coup (decided or void), each prison choice, each refusal and
    each correction between them, then the board where the inputs end."""
    table = Table(scenario.rulebook or rulebook)
    board = initial_board(table.view())
    out: list[Frame] = []
    for event in scenario.events:
        decisions = table.apply(event)
        board = fold(board, event, decisions, table.view())
        if (moment := _moment(event, decisions)) is not None:
            out.append(Frame(board, moment, event, tuple(decisions)))
    if not out or out[-1].board is not board:
        out.append(Frame(board, Moment.END))
    return out


def board_after(scenario: Scenario, rulebook: Rulebook, after: int) -> tuple[Board, int]:
    """The board once coup `after` is decided (coup 0: before any), and how many inputs that
    took; `CroupierError` when the inputs end before that coup."""
    table = Table(scenario.rulebook or rulebook)
    board = initial_board(table.view())
    if after == 0:
        return board, 0
    for used, event in enumerate(scenario.events, 1):
        decisions = table.apply(event)
        board = fold(board, event, decisions, table.view())
        if any(isinstance(d, CoupDecided | CoupVoided) and d.number >= after
               for d in decisions):
            return board, used
    raise CroupierError(f"{scenario.name} has no coup {after}: it ends after coup "
                        f"{table.view().number}")
