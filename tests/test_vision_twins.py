"""A card unsure of its suit twin (KS and KC) is declined, never named for it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from croupier.cards import ALL_CARDS, Card
from tests.laid_coups import assert_nothing_named_wrong, read_laid_coup
from vision.twins import SUIT_TWIN, TWIN_SURE, twin_doubted


def test_each_card_has_the_card_of_its_rank_in_the_other_suit_of_its_colour() -> None:
    def twin(text: str) -> str:
        return str(ALL_CARDS[SUIT_TWIN[ALL_CARDS.index(Card.parse(text))]])

    assert [twin(c) for c in ("KS", "KC", "9H", "9D", "AS", "TD")] == [
        "KC", "KS", "9D", "9H", "AC", "TH",
    ]
    assert (SUIT_TWIN[SUIT_TWIN] == np.arange(len(ALL_CARDS))).all()


def test_only_an_unsure_card_whose_index_fits_its_twin_best_is_doubted() -> None:
    ks, kc, qs = (ALL_CARDS.index(Card.parse(c)) for c in ("KS", "KC", "QS"))
    fits = np.zeros(len(ALL_CARDS))
    fits[kc] = 0.9
    assert twin_doubted(fits, ks, TWIN_SURE - 0.01)
    assert not twin_doubted(fits, ks, TWIN_SURE)
    assert not twin_doubted(fits, kc, 0.5)
    fits[qs] = 1.0
    assert not twin_doubted(fits, ks, 0.5)


@pytest.mark.parametrize(
    ("seed", "row", "column", "card"),
    [(50600, 0, 1, "KS"), (46602, 1, 4, "9C"), (64605, 1, 4, "2C")],
)
def test_a_card_half_hidden_is_not_named_for_its_suit_twin(
    drawn_106: tuple[Any, dict[str, Any]], seed: int, row: int, column: int, card: str
) -> None:
    """Coups laid at speed on a tuning design: the card, partly under the next one, was
    looked for around its outline and named for its twin (the KS as the KC) at a
    confidence of 0.55 to 0.7, its index alone fitting the right card best. It is
    declined now, and nothing in the coup is named wrong."""
    rows, got = read_laid_coup(drawn_106, seed)
    assert rows[row][column] == card
    assert_nothing_named_wrong(rows, got)


def test_a_court_card_torn_between_its_suit_twins_around_its_outline_is_not_named(
    drawn_108: tuple[Any, dict[str, Any]],
) -> None:
    """A coup laid at speed on a tuning design whose jacks of spades and clubs differ only
    in a few small pips: the JC, a third of it under the next card, was named the JS 0.92
    sure where its row's edges placed it, a little off; around that outline it fitted
    better, and the JS and the JC alike. It is not named now, and nothing in the coup is
    named wrong."""
    rows, got = read_laid_coup(drawn_108, 64800)
    assert rows[1][2] == "JC"
    assert_nothing_named_wrong(rows, got)


def test_a_card_unsure_beside_its_twin_alone_is_named_after_the_closer_look(
    drawn_106: tuple[Any, dict[str, Any]],
) -> None:
    """A coup laid at speed on a tuning design: the ace of spades, at the start of a row,
    fitted its reference a little less than a card named at once must, and the ace of
    clubs almost as well (its split from every other card was clear). It was declined;
    the closer look at their pips finds it the ace of spades. The whole coup is read."""
    rows, got = read_laid_coup(drawn_106, 26600)
    assert rows[1][0] == "AS"
    assert [[str(card) for card in row] for row in got] == rows


def test_the_closer_look_is_taken_where_the_look_around_found_the_card(
    drawn_106: tuple[Any, dict[str, Any]],
) -> None:
    """A coup laid at speed on a tuning design: the AC closing a row and a 5H, each
    declined only for its suit twin, were found a few pixels off the outline their row's
    edges gave them, further than the closer look beside the twin moves; at the outline
    that look did not find either clearly better than its twin. Looked at where each was
    found instead, both are named, and the whole coup is read."""
    rows, got = read_laid_coup(drawn_106, 66607)
    assert (rows[0][7], rows[0][1]) == ("AC", "5H")
    assert [[str(card) for card in row] for row in got] == rows


@pytest.fixture(scope="module")
def builtin() -> Any:
    from vision.design import builtin_design

    return builtin_design()


def _face(card: str) -> np.ndarray:
    from vision.design import BUILTIN, face_files
    from vision.images import read_picture

    return read_picture(face_files(BUILTIN)[card]).pixels


@pytest.mark.parametrize("visible", [1.0, 0.6])
def test_the_fine_look_keeps_every_face_named_right(builtin: Any, visible: float) -> None:
    from vision.classifier import Reading
    from vision.quad import whole_frame
    from vision.twin_look import twin_checked

    for card in ALL_CARDS:
        face = _face(str(card))
        reading = Reading(card, card, 1.0)
        assert twin_checked(face, whole_frame(face), visible, reading, builtin) == reading


def test_the_fine_look_names_a_face_named_for_its_twin_itself(builtin: Any) -> None:
    """Each face read as its suit twin (a spade as the club of its rank, a heart as the
    diamond) is named itself, sharp or seen as a camera sees it, blurred: the twin fits
    it clearly better, and very well. A court card is declined: its picture may differ
    from its twin's over half the card."""
    import cv2

    from vision.classifier import Reading
    from vision.quad import whole_frame
    from vision.twin_look import twin_checked

    for card in ALL_CARDS:
        twin = ALL_CARDS[int(SUIT_TWIN[ALL_CARDS.index(card)])]
        for face in (_face(str(card)), cv2.GaussianBlur(_face(str(card)), (0, 0), 2.0)):
            wrong = Reading(twin, twin, 1.0)
            checked = twin_checked(face, whole_frame(face), 1.0, wrong, builtin)
            court = card.rank.value in "JQK"
            assert checked.card == (None if court else card), (card, twin)


@pytest.mark.parametrize(("seed", "card"), [(56001, "2S"), (60001, "AS")])
def test_a_card_in_full_view_is_not_named_for_its_suit_twin(
    builtin: Any, seed: int, card: str
) -> None:
    """Coups laid at speed on the built-in design (a tuning design): a spade in full view,
    blurred, fitted the club of its rank better on every map, at a confidence of 0.5 and
    0.95. The fine look at their pips declines it, and nothing is named wrong."""
    from hardware_sims.scene_render import (
        AT_SPEED,
        HARSH,
        load_faces,
        random_coup,
        render_laid_coup,
    )
    from vision.design import BUILTIN
    from vision.layout import read_layout

    rng = np.random.default_rng(seed)
    rows = random_coup(rng)
    scene = render_laid_coup(load_faces(BUILTIN), rows, rng, laying=AT_SPEED, disturbance=HARSH)
    got = [[s.reading.card for s in r] for r in read_layout(scene.image, builtin)]
    assert card in {str(c) for row in rows for c in row}
    assert [len(r) for r in got] == [len(r) for r in rows]
    for row_got, row_want in zip(got, rows, strict=True):
        assert all(g is None or str(g) == w for g, w in zip(row_got, row_want, strict=True))


def test_the_fine_look_at_an_outline_outside_the_frame_keeps_the_reading(builtin: Any) -> None:
    from vision.classifier import Reading
    from vision.quad import Quad
    from vision.twin_look import twin_checked

    frame = _face("KS")
    h, w = frame.shape[:2]
    reading = Reading(ALL_CARDS[0], ALL_CARDS[0], 1.0)
    for dx, dy in ((2 * w, 0), (-2 * w, 0), (0, -2 * h)):
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) + np.array([dx, dy])
        assert twin_checked(frame, Quad(corners), 1.0, reading, builtin) == reading


def test_the_fine_look_forgets_a_design_once_it_is_gone() -> None:
    """What the fine look derives from a design lives with it: a design loaded again each
    time a camera opens leaves nothing behind once it is gone, and is derived once."""
    import gc
    import weakref

    from vision.classifier import Reading
    from vision.design import builtin_design
    from vision.quad import whole_frame
    from vision.twin_look import twin_checked

    face = _face("KS")
    for _ in range(3):
        design = builtin_design()
        twin_checked(face, whole_frame(face), 1.0, Reading(ALL_CARDS[0], None, 1.0), design)
        assert design.fine_parted is design.fine_parted
        gone = weakref.ref(design)
        del design
        gc.collect()
        assert gone() is None


def test_a_card_whose_index_alone_fits_another_rank_of_its_suit_is_named(
    drawn_108: tuple[Any, dict[str, Any]],
) -> None:
    """A coup laid at speed on a tuning design: the 4S opening a row, partly under the next
    card, fitted its reference surely on the whole and on its face, its index alone
    fitting the 5S a little better. It was declined; it is named now, and nothing in the
    coup is named wrong."""
    rows, got = read_laid_coup(drawn_108, 46807)
    assert rows[1][0] == "4S"
    assert str(got[1][0]) == "4S"
    assert_nothing_named_wrong(rows, got)


def test_a_card_paled_by_glare_is_not_named_for_its_suit_twin(
    drawn_106: tuple[Any, dict[str, Any]],
) -> None:
    """A coup laid at speed on a framed tuning design: a glare paled some pips of the TS,
    in full view, and to one correlation over all its pips the paler TC fitted better.
    Compared pip by pip, the TC fits clearly worse: the TS is not named the TC."""
    rows, got = read_laid_coup(drawn_106, 46303)
    assert rows[0][1] == "TS"
    assert_nothing_named_wrong(rows, got)


def test_a_club_declined_beside_its_twin_alone_is_named_pip_by_pip(
    drawn_106: tuple[Any, dict[str, Any]],
) -> None:
    """A coup laid at speed on a framed tuning design: the TC of the second row, a fifth of
    it under the next card, was declined for its twin alone, and the closer look at their
    pips, where they differ only, found the two alike. With the paper and the shared ink
    around each pip compared too, the TC fits clearly better, and the whole coup is read."""
    rows, got = read_laid_coup(drawn_106, 26604)
    assert rows[1][1] == "TC"
    assert [[str(card) for card in row] for row in got] == rows
