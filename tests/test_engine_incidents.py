"""The engine's incidents, rule by rule: face-up cards, extra copies, dropped and voided
cards, a closed shoe, devices' alarms, the log that replays them, and the ways a shoe ends
(docs/RULES.md §1, §7)."""

from __future__ import annotations

from croupier.cards import Card
from croupier.decisions import (
    Alarm,
    Burned,
    CardExposed,
    CardVoided,
    CoupVoided,
    DealStopped,
    EndReason,
    Rejected,
    Result,
    ShoeEnded,
    VoidReason,
)
from croupier.engine import Phase, Shoe, play
from croupier.events import (
    BurnUnseen,
    CardDrawn,
    CardUnread,
    CutCard,
    DeviceAlarm,
    EndShoe,
    NewShoe,
    ShoeEmpty,
    VoidCard,
    VoidCoup,
)
from croupier.fixtures import parse_shoe
from croupier.rulebook import load_rulebook
from tests.engine_play import BURN, cards, coups, run

VENEZIA = load_rulebook("venezia")


def test_venezia_face_up_cards_count_and_the_third_face_up_coup_ends_the_shoe() -> None:
    text = BURN + (
        "^KS KC KD AS KH KD TS 2H "
        "QS QC QD AC QH QD JS 2D "
        "^JS JC JD AD JH JD TC 3H "
        "KS KH KD ^AS ^KH KD TS AH "
        "TH TD JS 4C QH KC 9C 9D "
    )
    decisions = run(text + "CUT 2D 3D 4D 5D 6D")
    decided = coups(decisions)
    assert [c.face_up for c in decided] == [1, 0, 1, 2]
    assert decided[0].noir_point == 31  # the face-up king counted
    assert decided[3].result is Result.REFAIT  # the limit applies whatever the result
    stop = decisions.index(decided[3]) + 1
    assert decisions[stop:] == [
        DealStopped(EndReason.FACE_UP_LIMIT, 4),
        ShoeEnded(EndReason.FACE_UP_LIMIT, talon=13, burned=5, dealt=32, voided=0),
    ]
    assert not [d for d in decisions if isinstance(d, Alarm)]


def test_venezia_face_up_burn_card_is_one_of_the_five_and_does_not_count_a_coup() -> None:
    decisions = run("^2C 3C 4C 5C 6C KS KC KD AS KH KD TS 2H")
    assert decisions[0] == Burned(cards("2C 3C 4C 5C 6C"))
    assert coups(decisions)[0].face_up == 0


def test_france_face_up_cards_are_burned_at_once_and_do_not_count() -> None:
    decisions = run(BURN + "KS ^9H KC KD AS KH KD TS 2H", "france")
    (coup,) = coups(decisions)
    assert coup.noir == cards("KS KC KD AS")
    assert coup.face_up == 1
    assert coup.exposed == cards("9H")
    assert CardExposed(1, Card.parse("9H")) in decisions
    assert decisions[-1] == ShoeEnded(EndReason.EXHAUSTED, 0, burned=6, dealt=8, voided=0)


def test_france_has_no_face_up_limit() -> None:
    text = BURN + "^9H KS KC KD AS KH KD TS 2H " * 5
    decisions = run(text, "france")
    assert len(coups(decisions)) == 5
    assert decisions[-1].reason is EndReason.EXHAUSTED  # type: ignore[union-attr]


def test_france_face_up_card_in_the_burn_is_burned_besides_the_five() -> None:
    decisions = run("2C ^9H 3C 4C 5C 6C KS KC KD AS KH KD TS 2H", "france")
    assert decisions[0] == Burned(cards("2C 3C 4C 5C 6C"), cards("9H"))
    assert coups(decisions)[0].noir == cards("KS KC KD AS")


def test_a_seventh_copy_is_an_alarm_and_the_card_stays_in_play() -> None:
    decisions = run(BURN + "AS AS AS AS AS AS AS KS KC KD KH KD TS 2H")
    alarms = [d for d in decisions if isinstance(d, Alarm)]
    assert [(a.code, a.card) for a in alarms] == [("seventh_copy", Card.parse("AS"))]
    assert coups(decisions)[0].noir == cards("AS AS AS AS AS AS AS KS KC KD")


def test_an_eighth_copy_is_an_alarm_too_and_copies_are_counted_per_shoe() -> None:
    text = "AS " * 8
    decisions = run(text)
    assert sum(isinstance(d, Alarm) for d in decisions) == 2
    shoe = Shoe(VENEZIA)
    for event in parse_shoe("AS " * 6):
        shoe.apply(event)
    shoe.apply(NewShoe())
    assert not [d for d in shoe.apply(CardDrawn(Card.parse("AS"))) if isinstance(d, Alarm)]


def test_a_dropped_card_is_void_and_the_next_card_takes_its_place() -> None:
    shoe = Shoe(VENEZIA)
    for event in parse_shoe(BURN + "KS KC"):
        shoe.apply(event)
    assert shoe.apply(VoidCard()) == [CardVoided(Card.parse("KC"))]
    decisions = [d for e in parse_shoe("KD KH AS KH KD TS 2H") for d in shoe.apply(e)]
    (coup,) = coups(decisions)
    assert coup.noir == cards("KS KD KH AS")
    assert coup.voided == cards("KC")
    end = shoe.apply(ShoeEmpty())[-1]
    assert end == ShoeEnded(EndReason.EXHAUSTED, 0, burned=5, dealt=8, voided=1)


def test_voiding_the_card_that_closed_the_noir_row_reopens_it() -> None:
    shoe = Shoe(VENEZIA)
    for event in parse_shoe(BURN + "KS KC KD AS"):
        shoe.apply(event)
    assert shoe.phase is Phase.ROUGE
    shoe.apply(VoidCard())
    assert shoe.phase is Phase.NOIR
    assert shoe.state().noir_point == 30


def test_only_the_last_card_drawn_can_be_voided_and_only_once() -> None:
    shoe = Shoe(VENEZIA)
    assert isinstance(shoe.apply(VoidCard())[0], Rejected)
    for event in parse_shoe(BURN + "KS KC"):
        shoe.apply(event)
    shoe.apply(VoidCard())
    before = shoe.state()
    assert isinstance(shoe.apply(VoidCard())[0], Rejected)
    assert shoe.state() == before


def test_the_card_that_decided_a_coup_cannot_be_voided() -> None:
    shoe = Shoe(VENEZIA)
    for event in parse_shoe(BURN + "KS KC KD AS KH KD TS 2H"):
        shoe.apply(event)
    before = shoe.state()
    assert isinstance(shoe.apply(VoidCard())[0], Rejected)
    assert shoe.state() == before


def test_a_dropped_burn_card_is_replaced_by_the_next() -> None:
    shoe = Shoe(VENEZIA)
    for event in parse_shoe("2C 3C"):
        shoe.apply(event)
    shoe.apply(VoidCard())
    decisions = [d for e in parse_shoe("4C 5C 6C 7C") for d in shoe.apply(e)]
    assert decisions == [Burned(cards("2C 4C 5C 6C 7C"))]


def test_cards_after_the_shoe_is_closed_are_rejected_until_a_new_shoe() -> None:
    shoe = Shoe(VENEZIA)
    shoe.apply(ShoeEmpty())
    before = shoe.state()
    assert isinstance(shoe.apply(CardDrawn(Card.parse("AS")))[0], Rejected)
    assert isinstance(shoe.apply(CutCard())[0], Rejected)
    assert isinstance(shoe.apply(ShoeEmpty())[0], Rejected)
    assert shoe.state() == before
    assert shoe.apply(NewShoe()) == []
    assert shoe.phase is Phase.BURN


def test_a_new_shoe_mid_coup_closes_the_old_one_first() -> None:
    shoe = Shoe(VENEZIA)
    for event in parse_shoe(BURN + "KS"):
        shoe.apply(event)
    decisions = shoe.apply(NewShoe())
    assert decisions[0] == CoupVoided(1, VoidReason.EXHAUSTED)
    assert isinstance(decisions[-1], ShoeEnded)
    assert shoe.state().number == 0


def test_a_second_cut_card_is_an_alarm() -> None:
    decisions = run(BURN + "CUT 2D CUT 3D 4D 5D 6D")
    assert [a.code for a in decisions if isinstance(a, Alarm)] == ["second_cut_card"]


def test_device_reports_become_alarms_and_change_nothing() -> None:
    shoe = Shoe(VENEZIA)
    before = shoe.state()
    (unread,) = shoe.apply(CardUnread("camera", Card.parse("QH"), 0.6))
    (device,) = shoe.apply(DeviceAlarm("serial", "E3 Card Not Read"))
    assert (unread.code, device.code) == ("card_unread", "device")  # type: ignore[union-attr]
    assert "E3 Card Not Read" in device.message  # type: ignore[union-attr]
    assert shoe.state() == before


def test_replaying_the_log_rebuilds_the_same_state() -> None:
    shoe = Shoe(VENEZIA)
    for event in parse_shoe(BURN + "KS KC KD AS KH KD TS 2H ^KS KC"):
        shoe.apply(event)
    shoe.apply(VoidCard())
    shoe.apply(VoidCard())  # rejected: not in the log
    again = Shoe(VENEZIA)
    for event in shoe.log:
        again.apply(event)
    assert again.state() == shoe.state()
    assert len(shoe.log) == 16


def test_every_refused_event_is_left_out_of_the_log() -> None:
    shoe = Shoe(VENEZIA)
    for event in [*parse_shoe(BURN + "KS KC KD AS KH KD"), ShoeEmpty()]:  # one coup, closed
        shoe.apply(event)
    logged = list(shoe.log)
    refused = [BurnUnseen(), VoidCoup("chef", "no coup"), ShoeEmpty(), CutCard(),
               CardDrawn(Card.parse("2H")), EndShoe("chef", "closed already"), VoidCard()]
    for event in refused:
        decisions = shoe.apply(event)
        assert len(decisions) == 1
        assert isinstance(decisions[0], Rejected), event
    assert shoe.log == logged


def test_cards_burned_unseen_complete_the_burn_and_are_counted() -> None:
    shoe = Shoe(VENEZIA)
    assert shoe.apply(CardDrawn(Card.parse("2C"))) == []
    for _ in range(3):
        assert shoe.apply(BurnUnseen()) == []
    assert shoe.apply(BurnUnseen()) == [Burned(cards("2C"), (), unseen=4)]
    assert isinstance(shoe.apply(BurnUnseen())[0], Rejected)
    decisions = [d for e in parse_shoe("KS KC KD AS KH KD TS 2H") for d in shoe.apply(e)]
    assert coups(decisions)[0].number == 1
    assert shoe.apply(ShoeEmpty())[-1] == ShoeEnded(EndReason.EXHAUSTED, 0, 5, 8, 0)


def test_a_rulebook_that_burns_no_card_deals_from_the_first() -> None:
    from croupier.value import replace

    no_burn = replace(VENEZIA, name="no-burn", burn_cards=0)
    decisions = play(parse_shoe("KS KC KD AS KH KD TS 2H"), no_burn)
    assert decisions[0] == Burned(())
    assert coups(decisions)[0].noir == cards("KS KC KD AS")


def test_every_way_a_shoe_ends_can_be_told() -> None:
    from croupier.decisions import DealStopped, EndReason
    from croupier.transcript import describe

    for reason in EndReason:
        (line,) = describe(DealStopped(reason, 3))
        assert line.startswith("Last coup of the shoe: stopped by ")
