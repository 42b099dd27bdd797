"""Money is exact: decimal amounts, written without exponent or trailing zeros."""

from __future__ import annotations

from decimal import Decimal


def money_text(amount: Decimal) -> str:
    """`Decimal("12.50")` → `"12.5"`, `Decimal("1E+2")` → `"100"`."""
    return format(amount.normalize(), "f")
