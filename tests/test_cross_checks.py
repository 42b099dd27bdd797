"""The shoe's cross-checks (croupier/cross_checks.py): what a link cannot see, the shoe's
arithmetic can, and the tailleur hears of it at the moment it is detectable — on the
screen of `croupier table` and in its journal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from croupier.cards import Card
from croupier.decisions import Alarm, CoupDecided, Decision, ShoeEnded
from croupier.engine import Shoe
from croupier.events import CardDrawn, CardUnread, DeviceAlarm, ShoeEmpty, ShoeEvent
from croupier.fixtures import parse_shoe
from croupier.rulebook import load_rulebook
from journal.store import Journal

FIXTURES = Path(__file__).resolve().parents[1] / "hardware-sims" / "fixtures"
REGULATION = parse_shoe((FIXTURES / "regulation.shoe").read_text(encoding="utf-8"))


def answers(events: list[ShoeEvent]) -> list[list[Decision]]:
    """The decisions of each event, one list an event."""
    shoe = Shoe(load_rulebook("venezia"))
    return [shoe.apply(event) for event in events]


def alarms(decisions: list[Decision], code: str) -> list[Alarm]:
    return [d for d in decisions if isinstance(d, Alarm) and d.code == code]


def flat(answered: list[list[Decision]]) -> list[Decision]:
    return [d for ds in answered for d in ds]


def test_a_regulation_shoe_reconciles_silently() -> None:
    answered = flat(answers([*REGULATION, ShoeEmpty()]))
    assert [d for d in answered if isinstance(d, Alarm)] == []
    (end,) = [d for d in answered if isinstance(d, ShoeEnded)]
    assert end.total == 312


def test_a_card_the_link_lost_silently_shows_at_the_end_of_the_shoe() -> None:
    index = next(i for i, e in enumerate(REGULATION) if isinstance(e, CardDrawn) and i > 40)
    lost = REGULATION[index]
    assert isinstance(lost, CardDrawn)
    answered = answers([*REGULATION[:index], *REGULATION[index + 1 :], ShoeEmpty()])
    assert alarms(flat(answered[:-1]), "shoe_count") == []  # not before it is detectable
    (alarm,) = alarms(answered[-1], "shoe_count")
    assert "311 cards" in alarm.message
    assert "1 left it unseen" in alarm.message
    assert f"{lost.card}×1" in alarm.message


def test_an_unread_card_counts_in_the_reconciliation() -> None:
    index = next(i for i, e in enumerate(REGULATION) if isinstance(e, CardDrawn) and i > 40)
    unread = CardUnread("shoe")
    answered = flat(answers([*REGULATION[:index], unread, *REGULATION[index + 1 :], ShoeEmpty()]))
    assert alarms(answered, "shoe_count") == []


def test_the_313th_card_raises_an_alarm_at_once() -> None:
    cards = [e for e in REGULATION if isinstance(e, CardDrawn)]
    extra = CardDrawn(Card.parse("AS"))
    answered = answers([*cards, extra])
    assert alarms(flat(answered[:-1]), "shoe_overcount") == []
    (alarm,) = alarms(answered[-1], "shoe_overcount")
    assert alarm.card == extra.card
    assert "card 313" in alarm.message


def test_the_313th_card_counts_the_cards_left_unread() -> None:
    """No copy too many: the card is the 313th only with the one no reader saw."""
    cards = [e for e in REGULATION if isinstance(e, CardDrawn)]
    answered = answers([*cards[:-1], CardUnread("shoe"), cards[-1]])
    assert alarms(flat(answered), "seventh_copy") == []
    assert alarms(flat(answered[:-1]), "shoe_overcount") == []
    (alarm,) = alarms(answered[-1], "shoe_overcount")
    assert alarm.card == cards[-1].card
    assert "card 313" in alarm.message


def test_a_short_shoe_is_not_reconciled() -> None:
    short = parse_shoe((FIXTURES / "cut_noir.shoe").read_text(encoding="utf-8"))
    assert alarms(flat(answers([*short, ShoeEmpty()])), "shoe_count") == []


def test_a_coup_decided_after_an_unread_card_or_a_loss_is_in_doubt() -> None:
    burn = [CardDrawn(Card.parse(c)) for c in ("2C", "3C", "4C", "5C", "6C")]
    noir = [CardDrawn(Card.parse(c)) for c in ("TS", "TH", "9D", "3S")]  # 32
    rouge = [CardDrawn(Card.parse(c)) for c in ("KS", "KH", "5D", "7S")]  # 32: après
    for trouble in (CardUnread("shoe", guess=Card.parse("8H")),
                    DeviceAlarm("shoe", "lost 1 message(s): seq 14 never arrived")):
        answered = answers([*burn, *noir[:2], trouble, *noir[2:], *rouge, *noir, *rouge])
        first = next(i for i, ds in enumerate(answered) if any(
            isinstance(d, CoupDecided) for d in ds))
        assert alarms(flat(answered[:first]), "coup_doubt") == []  # nothing decided yet
        (doubt,) = alarms(answered[first], "coup_doubt")
        assert "coup 1 " in doubt.message
        assert "check the rows against the baize" in doubt.message
        assert alarms(flat(answered[first + 1 :]), "coup_doubt") == []  # coup 2 was clean


def test_a_loss_before_the_burn_ended_does_not_doubt_the_first_coup() -> None:
    burn = [CardDrawn(Card.parse(c)) for c in ("2C", "3C", "4C", "5C", "6C")]
    coup = [CardDrawn(Card.parse(c)) for c in ("TS", "TH", "9D", "3S", "KS", "KH", "5D", "7S")]
    answered = flat(answers([burn[0], DeviceAlarm("shoe", "port lost"), *burn[1:], *coup]))
    assert any(isinstance(d, CoupDecided) for d in answered)
    assert alarms(answered, "coup_doubt") == []


def test_the_table_shows_and_journals_each_alarm_at_its_card(tmp_path: Path) -> None:
    """`croupier table` on a shoe holding a seventh copy and a card lost: each alarm is
    printed right after the decision that made it detectable, and journaled."""
    index = next(i for i, e in enumerate(REGULATION) if isinstance(e, CardDrawn) and i > 40)
    lost = REGULATION[index]
    assert isinstance(lost, CardDrawn)
    events = [*REGULATION[:index], *REGULATION[index + 1 :]]
    sixth = _first_sixth_copy(events)
    card = events[sixth]
    assert isinstance(card, CardDrawn)
    fixture = tmp_path / "seventh_and_lost.shoe"
    tokens = [_token(e) for e in events]
    tokens.insert(sixth + 1, str(card.card))  # its seventh copy, dealt into a row
    fixture.write_text(" ".join(tokens) + "\n", encoding="utf-8")
    db = tmp_path / "table.db"
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "table", "--shoe", str(fixture), "--backend",
         "replay", "--journal", str(db)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    (copy,) = [i for i, line in enumerate(lines) if line.startswith("ALARM [seventh_copy]")]
    assert str(card.card) in lines[copy - 1], lines[copy - 2 : copy + 1]  # just after it
    assert not any("shoe_count" in line for line in lines)  # the shoe is not over yet
    # the tailleur closes the shoe and starts the next one: the old one is reconciled
    empty = tmp_path / "empty.shoe"
    empty.write_text("# the next shoe, not dealt yet\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "table", "--shoe", str(empty), "--backend",
         "replay", "--journal", str(db), "--new-shoe"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1].startswith("ALARM [shoe_count] the shoe accounts for 312 cards"), lines
    assert f"short of their copies: {lost.card}×1" in lines[-1]
    with Journal(db, readonly=True) as journal:
        codes = [
            d.get("code")
            for row in journal.rows("decisions")
            for d in row.data()["decisions"]
            if d.get("event") == "warning"
        ]
    assert codes == ["seventh_copy", "shoe_count"]


def _first_sixth_copy(events: list[ShoeEvent]) -> int:
    """Where the first identity to reach its sixth copy reaches it."""
    seen: dict[Card, int] = {}
    for index, event in enumerate(events):
        if isinstance(event, CardDrawn):
            seen[event.card] = seen.get(event.card, 0) + 1
            if seen[event.card] == 6:
                return index
    raise AssertionError("no card six times")


def _token(event: ShoeEvent) -> str:
    if isinstance(event, CardDrawn):
        return f"^{event.card}" if event.face_up else str(event.card)
    return "CUT"

