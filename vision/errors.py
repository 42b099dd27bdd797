"""The one exception root of the vision package and its narrow subclasses."""

from __future__ import annotations


class VisionError(Exception):
    """Root of every error the vision package raises."""


class ImageError(VisionError, ValueError):
    """A file that cannot be read as an image."""


class DeckError(VisionError, ValueError):
    """A folder of reference faces that cannot be calibrated on."""
