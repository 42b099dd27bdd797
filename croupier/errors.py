"""The one exception root of the engine and its narrow subclasses."""

from __future__ import annotations


class CroupierError(Exception):
    """Root of every error the engine package raises."""


class CardError(CroupierError, ValueError):
    """Text that is not a card in the notation of docs/FORMATS.md (cards)."""


class FixtureError(CroupierError, ValueError):
    """A shoe fixture or session script that cannot be read."""


class RulebookError(CroupierError, ValueError):
    """A rulebook that is missing, malformed or incomplete."""
