"""The one exception root of the drivers package and its narrow subclasses."""

from __future__ import annotations


class ShoeError(Exception):
    """Root of every error the drivers raise."""


class BadFrameError(ShoeError, ValueError):
    """Bytes that are not a well-formed frame of the dialect being spoken."""


class DialectError(ShoeError, ValueError):
    """An unknown dialect, backend or check algorithm, or a bad option for one."""


class PortError(ShoeError, OSError):
    """A port that cannot be opened or has gone away."""
