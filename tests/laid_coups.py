"""Coups laid at speed on a design, read whole: what the vision tests of single cards in a
coup share."""

from __future__ import annotations

from typing import Any

import numpy as np

from croupier.cards import Card


def read_laid_coup(drawn: tuple[Any, dict[str, Any]], seed: int) -> tuple[
    list[list[str]], list[list[Card | None]]
]:
    """The coup `seed` draws, laid at speed under harsh light on `drawn` (a design and its
    faces), and what `read_layout` names in it."""
    from hardware_sims.scene_render import AT_SPEED, HARSH, random_coup, render_laid_coup
    from vision.layout import read_layout

    design, faces = drawn
    rng = np.random.default_rng(seed)
    rows = random_coup(rng)
    scene = render_laid_coup(faces, rows, rng, laying=AT_SPEED, disturbance=HARSH)
    return rows, [[s.reading.card for s in r] for r in read_layout(scene.image, design)]


def assert_nothing_named_wrong(rows: list[list[str]], got: list[list[Card | None]]) -> None:
    """Every row as long as laid, and every card named the card laid or declined."""
    assert [len(r) for r in got] == [len(r) for r in rows]
    for row_got, row_want in zip(got, rows, strict=True):
        assert all(g is None or str(g) == w for g, w in zip(row_got, row_want, strict=True))


def assert_read_whole(drawn: tuple[Any, dict[str, Any]], seed: int,
                      laid: tuple[int, int, str]) -> None:
    """The coup `seed` laid at speed on `drawn` holds the card `laid` (row, column, name)
    where a test says, and is read whole: every card named as laid."""
    rows, got = read_laid_coup(drawn, seed)
    row, column, card = laid
    assert rows[row][column] == card
    assert [[str(c) for c in r] for r in got] == rows
