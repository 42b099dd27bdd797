"""The floor's errors: one root, each naming what failed and where."""

from __future__ import annotations

from croupier.errors import CroupierError


class FloorError(CroupierError):
    """The floor cannot be reached, set up or read."""
