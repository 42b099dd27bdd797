"""A card read where it was outlined is named at once only when sure; less sure, it is
looked for further, and declined rather than named wrong."""

from __future__ import annotations

from typing import Any

from tests.laid_coups import assert_nothing_named_wrong, read_laid_coup


def test_a_card_read_unsurely_where_outlined_is_looked_for_further(
    drawn_106: tuple[Any, dict[str, Any]],
) -> None:
    """A coup laid at speed on a tuning design: glare over the middle pip of a three of
    spades, outlined whole by the finder, passed it for the two at a confidence of 0.65,
    and the look around its outline guessed the two as well, unsurely. Looked for further,
    it is not named the two: beside the three, its pale middle pip leads (`vision.rival_look`
    `_pale_pip`), and it is named the three; nothing in the coup is named wrong."""
    rows, got = read_laid_coup(drawn_106, 48602)
    assert rows[1][5] == "3S"
    assert str(got[1][5]) == "3S"
    assert_nothing_named_wrong(rows, got)
