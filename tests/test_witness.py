"""The camera as the shoe's witness: the comparison of the shoe's record with the baize."""

from __future__ import annotations

from croupier.cards import Card
from croupier.decisions import CardPlaced, Row
from croupier.engine import Shoe
from croupier.events import CardDrawn
from croupier.rulebook import load_rulebook
from croupier.witness import (
    UNNAMED_FRAMES,
    Go,
    Kind,
    Layout,
    Wait,
    Witness,
    differences,
    placements,
)

BURN = ["4C", "KD", "9S", "2H", "QC"]


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def _shoe(*cards: str) -> Shoe:
    shoe = Shoe(load_rulebook("venezia"))
    for name in [*BURN, *cards]:
        shoe.apply(CardDrawn(Card.parse(name)))
    return shoe


def _next(shoe: Shoe, name: str) -> tuple[CardPlaced, ...]:
    return placements(shoe, [CardDrawn(Card.parse(name))])


def _laid(witness: Witness, noir: str, rouge: str = "", clearing: int = 0, frames: int = 1) -> None:
    for _ in range(frames):
        witness.look(Layout(clearing, _cards(noir), _cards(rouge)))


def test_the_same_rows_differ_nowhere_and_unnamed_paper_is_no_difference() -> None:
    noir, rouge = _cards("8S 7C KD 9H"), _cards("AD 2S")
    assert differences(noir, rouge, Layout(0, noir, rouge)) == []
    assert differences(noir, rouge, Layout(0, (noir[0], None, *noir[2:]), rouge)) == []


def test_each_kind_of_difference_is_named_with_its_place() -> None:
    noir, rouge = _cards("8S 7C KD"), _cards("AD")
    switched = differences(noir, rouge, Layout(0, _cards("8S 7C QH"), rouge))
    assert [(d.kind, d.row, d.place) for d in switched] == [(Kind.SWITCHED, Row.NOIR, 3)]
    assert "the shoe read KD, the baize shows QH" in switched[0].text(4)
    wrong_row = differences(noir, rouge, Layout(0, _cards("8S 7C KD AD"), ()))
    assert {(d.kind, d.row, d.place) for d in wrong_row} == {
        (Kind.MISPLACED, Row.NOIR, 4), (Kind.NOT_LAID, Row.ROUGE, 1)}
    extra = differences(noir, (), Layout(0, _cards("8S 7C 5D KD"), ()))
    assert (Kind.SWITCHED, Row.NOIR, 3) in {(d.kind, d.row, d.place) for d in extra}
    never = differences(noir, (), Layout(0, _cards("8S 7C KD 5D"), ()))
    assert [(d.kind, d.seen) for d in never] == [(Kind.NEVER_READ, Card.parse("5D"))]


def test_placements_are_the_engines_and_leave_it_untouched() -> None:
    shoe = _shoe("8S", "7C", "KD", "9H")  # noir 34: the next card opens the rouge row
    before = shoe.state()
    assert _next(shoe, "AD") == (CardPlaced(1, Row.ROUGE, Card.parse("AD"), 1, False),)
    assert shoe.state() == before


def test_a_card_is_held_until_seen_laid_where_the_engine_puts_it() -> None:
    shoe, witness = _shoe("8S", "7C"), Witness(patience=10)
    _laid(witness, "8S 7C")
    assert witness.check(shoe.state()) == Go()
    coming = _next(shoe, "KD")
    assert witness.check(shoe.state(), coming) == Wait()
    _laid(witness, "8S 7C", frames=5)
    assert witness.check(shoe.state(), coming) == Wait()
    _laid(witness, "8S 7C KD")
    assert witness.check(shoe.state(), coming) == Go()


def test_a_switched_card_is_alarmed_at_once_and_the_coup_only_once() -> None:
    shoe, witness = _shoe("8S", "7C"), Witness(patience=10)
    _laid(witness, "8S 7C QH")
    verdict = witness.check(shoe.state(), _next(shoe, "KD"))
    assert isinstance(verdict, Go)
    assert len(verdict.alarms) == 1
    assert "coup 1" in verdict.alarms[0]
    assert "QH" in verdict.alarms[0]
    assert witness.check(shoe.state(), _next(shoe, "KD")) == Go()


def test_a_card_never_laid_is_alarmed_after_patience_and_then_played() -> None:
    shoe, witness = _shoe("8S", "7C"), Witness(patience=10)
    _laid(witness, "8S 7C")
    coming = _next(shoe, "KD")
    assert witness.check(shoe.state(), coming) == Wait()
    _laid(witness, "8S 7C", frames=10)
    verdict = witness.check(shoe.state(), coming)
    assert isinstance(verdict, Go)
    assert "the shoe read KD, the baize shows none" in verdict.alarms[0]


def test_a_card_the_shoe_never_read_is_alarmed_once_it_has_lain_a_while() -> None:
    shoe, witness = _shoe("8S", "7C"), Witness(patience=10)
    for _ in range(10):  # the table checks after every frame
        _laid(witness, "8S 7C 5D")
        assert witness.check(shoe.state()) == Go()
    _laid(witness, "8S 7C 5D")
    verdict = witness.check(shoe.state())
    assert isinstance(verdict, Go)
    assert "5D lies on the baize, the shoe never read it" in (
        verdict.alarms[0])


def test_the_next_coup_waits_for_the_baize_to_be_cleared() -> None:
    # Coup 1 decided: noir 8S 7C KD 9H (34), rouge KS QS JS 2H (32).
    shoe, witness = _shoe(*["8S", "7C", "KD", "9H", "KS", "QS", "JS"]), Witness(patience=10)
    _laid(witness, "8S 7C KD 9H", "KS QS JS 2H", clearing=0)
    assert witness.check(shoe.state(), _next(shoe, "2H")) == Go()
    shoe.apply(CardDrawn(Card.parse("2H")))
    assert witness.check(shoe.state(), _next(shoe, "8S")) == Wait()  # the old coup lies there
    witness.check(shoe.state())  # between coups: nothing to compare
    _laid(witness, "", clearing=1)
    coming = _next(shoe, "8S")
    assert coming[0].number == 2
    assert witness.check(shoe.state(), coming) == Wait()
    _laid(witness, "8S", clearing=1)
    assert witness.check(shoe.state(), coming) == Go()


def test_a_blind_witness_holds_nothing() -> None:
    shoe, witness = _shoe("8S"), Witness()
    witness.blind = True
    assert witness.check(shoe.state(), _next(shoe, "7C")) == Go()


def test_paper_the_camera_cannot_name_lets_the_card_go_after_a_moment_not_the_patience() -> None:
    shoe, witness = _shoe("8S", "7C"), Witness(patience=40)
    coming = _next(shoe, "KD")
    for _ in range(UNNAMED_FRAMES - 1):
        witness.look(Layout(0, (*_cards("8S 7C"), None)))
        assert witness.check(shoe.state(), coming) == Wait()
    witness.look(Layout(0, (*_cards("8S 7C"), None)))
    assert witness.check(shoe.state(), coming) == Go()


def test_unnamed_paper_where_another_card_lies_named_is_no_reason_to_go() -> None:
    shoe, witness = _shoe("8S", "7C"), Witness(patience=40)
    coming = placements(shoe, [CardDrawn(Card.parse(n)) for n in ("KD", "9H")])
    for _ in range(UNNAMED_FRAMES + 2):  # KD's place unnamed, 9H's not there yet
        witness.look(Layout(0, (*_cards("8S 7C"), None)))
        assert witness.check(shoe.state(), coming) == Wait()


def test_a_coup_is_never_compared_with_the_next_coups_cards() -> None:
    # The shoe's record lags: coup 1's next card is still held when the camera already
    # shows the baize cleared and the next coup's first card laid.
    shoe, witness = _shoe("8S", "7C"), Witness(patience=10)
    _laid(witness, "8S 7C", clearing=0)
    coming = _next(shoe, "KD")
    assert witness.check(shoe.state(), coming) == Wait()
    _laid(witness, "", clearing=1)
    _laid(witness, "4H", clearing=1)
    assert witness.check(shoe.state(), coming) == Wait()  # no "the baize shows 4H"
    _laid(witness, "4H", clearing=1, frames=10)
    verdict = witness.check(shoe.state(), coming)
    assert isinstance(verdict, Go)
    assert all("4H" not in alarm for alarm in verdict.alarms), verdict


def test_a_second_copy_of_a_card_laid_before_the_shoe_reads_it_is_not_misplaced() -> None:
    # Six decks: TS twice in a row. The camera sees the second before the shoe's message.
    noir = _cards("6D 3D TS AC 9D")
    [only] = differences(noir, (), Layout(0, _cards("6D 3D TS AC 9D TS"), ()))
    assert only.kind is Kind.NEVER_READ  # alarmed only if it lasts: the shoe may read it yet
    # But the record's copy seen elsewhere, its own place empty, is misplaced.
    [moved, gone] = differences(_cards("6D 3D TS"), _cards("AC"),
                                Layout(0, _cards("6D 3D TS AC"), ()))
    assert (moved.kind, moved.place, gone.kind) == (Kind.MISPLACED, 4, Kind.NOT_LAID)


def test_cards_read_well_ahead_of_the_baize_wait_from_the_card_before_them() -> None:
    # The shoe has read the whole coup before the camera sees a card of it: each card's
    # wait begins when the one before it is seen laid.
    shoe, witness = _shoe(), Witness(patience=10)
    coming = placements(shoe, [CardDrawn(Card.parse(n)) for n in
                               ("8S", "7C", "KD", "9H", "AD", "2S", "JH")])
    laid = ""
    for card in ("8S", "7C", "KD", "9H"):
        for _ in range(8):  # each card laid 8 frames after the one before: under patience
            _laid(witness, laid)
            assert witness.check(shoe.state(), coming) == Wait()
        laid = f"{laid} {card}"
    for _ in range(8):
        _laid(witness, laid, "AD 2S JH")
    assert witness.check(shoe.state(), coming) == Go()


def test_a_coup_the_baize_was_cleared_of_is_judged_by_its_last_sight() -> None:
    # The coup's last card lay unnamed for a frame, then the baize was cleared before the
    # shoe's record of it was played: no "not laid" alarm, for it was seen.
    shoe, witness = _shoe("8S", "7C"), Witness(patience=10)
    _laid(witness, "8S 7C")
    coming = _next(shoe, "KD")
    witness.look(Layout(0, (*_cards("8S 7C"), None)))
    assert witness.check(shoe.state(), coming) == Wait()
    _laid(witness, "", clearing=1)
    _laid(witness, "4H", clearing=1, frames=12)
    assert witness.check(shoe.state(), coming) == Go()
    # A card never seen before the clearing is not laid: alarmed once it has waited.
    shoe, witness = _shoe("8S", "7C"), Witness(patience=10)
    _laid(witness, "8S 7C")
    coming = _next(shoe, "KD")
    assert witness.check(shoe.state(), coming) == Wait()
    _laid(witness, "", clearing=1, frames=11)
    verdict = witness.check(shoe.state(), coming)
    assert isinstance(verdict, Go)
    assert verdict.alarms
    assert "the shoe read KD, the baize shows none" in verdict.alarms[0]


def test_the_next_shoe_numbers_its_coups_anew_and_is_witnessed_anew() -> None:
    # Shoe 1's coup 1 raised an alarm; shoe 2's coup 1 lies after a later clearing.
    witness = Witness(patience=10)
    first = _shoe("8S", "7C")
    _laid(witness, "8S 7C QH")
    verdict = witness.check(first.state(), _next(first, "KD"))
    assert isinstance(verdict, Go)
    assert verdict.alarms
    first.apply(CardDrawn(Card.parse("KD")))
    assert witness.check(first.state()) == Go()
    second = _shoe()  # a new shoe, burned, coup 1 to come
    _laid(witness, "", clearing=5)
    coming = _next(second, "9H")
    assert witness.check(second.state(), coming) == Wait()  # not taken for shoe 1's coup 1
    _laid(witness, "9H", clearing=5)
    assert witness.check(second.state(), coming) == Go()
    second.apply(CardDrawn(Card.parse("9H")))
    _laid(witness, "9H 4D", clearing=5)
    verdict = witness.check(second.state(), _next(second, "2C"))
    assert isinstance(verdict, Go)
    assert verdict.alarms  # shoe 2's coup 1 is witnessed, not skipped as already alarmed
    assert "the shoe read 2C, the baize shows 4D" in verdict.alarms[0]


def test_cards_of_two_coups_read_together_are_held_until_both_are_witnessed() -> None:
    # The shoe's link delivered two whole coups in one batch (a burst after a stall). The
    # first coup seen laid used to let the whole batch go: the second coup's switched card
    # was played, and its coup called, before anything was said.
    first, second = "KD QH JS 5C KS QD 9H 3C", "TS 8D 7H 6C JD TH 9C 4S"
    shoe, witness = _shoe(), Witness(patience=10)
    coming = placements(shoe, [CardDrawn(Card.parse(n)) for n in f"{first} {second}".split()])
    _laid(witness, "KD QH JS 5C", "KS QD 9H 3C")
    assert witness.check(shoe.state(), coming) == Wait()  # the second coup not laid yet
    _laid(witness, "", clearing=1)
    _laid(witness, "TS 8D 7H 6C", "JD TH 9C", clearing=1)
    assert witness.check(shoe.state(), coming) == Wait()
    _laid(witness, "TS 8D 7H 6C", "JD TH 9C 4S", clearing=1)
    assert witness.check(shoe.state(), coming) == Go()
    # The same batch, the second coup's last card switched on the baize: alarmed before
    # the batch is played.
    shoe, witness = _shoe(), Witness(patience=10)
    _laid(witness, "KD QH JS 5C", "KS QD 9H 3C")
    assert witness.check(shoe.state(), coming) == Wait()
    _laid(witness, "", clearing=1)
    _laid(witness, "TS 8D 7H 6C", "JD TH 9C 4H", clearing=1)
    verdict = witness.check(shoe.state(), coming)
    assert isinstance(verdict, Go)
    assert verdict.alarms == (
        "coup 2, the rouge row's 4th card: the shoe read 4S, the baize shows 4H",
    )


def test_an_alarm_about_one_coup_is_raised_while_the_next_coup_of_its_batch_waits() -> None:
    # The first coup of a two-coup batch shows a switched card; the second is not laid yet:
    # the alarm is raised at once, the batch still held for the second coup.
    first, second = "KD QH JS 5C KS QD 9H 3C", "TS 8D 7H 6C JD TH 9C 4S"
    shoe, witness = _shoe(), Witness(patience=10)
    coming = placements(shoe, [CardDrawn(Card.parse(n)) for n in f"{first} {second}".split()])
    _laid(witness, "KD QH JS 5C", "KS QD 9H 3H")
    verdict = witness.check(shoe.state(), coming)
    assert verdict == Wait(
        ("coup 1, the rouge row's 4th card: the shoe read 3C, the baize shows 3H",)
    )
    _laid(witness, "", clearing=1)
    _laid(witness, "TS 8D 7H 6C", "JD TH 9C 4S", clearing=1)
    assert witness.check(shoe.state(), coming) == Go()  # said once, not again
