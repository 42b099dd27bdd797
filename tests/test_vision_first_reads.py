"""The cards of a coup read where they were outlined all at once name each card as reading
it alone does, as surely: a card's reading does not depend on what else is read with it
(the products over the references, made for all of them at once, may differ from one
card's in the last bits)."""

from __future__ import annotations

from typing import Any

import numpy as np


def test_cards_read_together_where_outlined_are_read_as_each_alone(
    framed: tuple[Any, dict[str, Any]],
) -> None:
    """A coup laid at speed on a design framed near its edges: cards outlined whole and
    partly hidden, some named, some not (the outline grown to the frame is read too)."""
    from hardware_sims.scene_render import AT_SPEED, HARSH, random_coup, render_laid_coup
    from vision.first_reads import classify_each
    from vision.layout import locate

    design, faces = framed
    outlined = []
    for seed in (31, 32, 33):
        rng = np.random.default_rng(seed)
        scene = render_laid_coup(faces, random_coup(rng), rng, laying=AT_SPEED, disturbance=HARSH)
        spots = [spot for row in locate(scene.image, design) for spot in row]
        outlined += [(scene.image, spot.quad, spot.visible) for spot in spots]
    together = classify_each(outlined, design)
    alone = [classify_each([card], design)[0] for card in outlined]
    assert any(visible < 1.0 for _, _, visible in outlined)
    assert any(r.card is None for r in alone)
    assert any(r.card is not None for r in alone)
    for got, want in zip(together, alone, strict=True):
        assert (got.card, got.guess) == (want.card, want.guess)
        assert abs(got.confidence - want.confidence) < 1e-6
        assert abs(got.score - want.score) < 1e-5
