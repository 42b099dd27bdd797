"""The sources a live table reads: a shoe on a serial line, a camera, the shoe simulator."""

from __future__ import annotations

from pathlib import Path

from app.reading import Source
from croupier.rulebook import Rulebook
from drivers.backends import CameraReader, SimulatorSource, open_backend
from drivers.dialects import DecoderOptions, dialect_named


def serial_source(url: str, dialect: str = "native") -> Source:
    """A card-reading shoe on a serial line (a device, a pty, `socket://`)."""
    return Source("shoe", lambda resume_at: open_backend(
        "serial", url, dialect=dialect, options=DecoderOptions(resume_at=resume_at)),
        resends=dialect_named(dialect).resends)


def camera_source(source: str, rulebook: Rulebook) -> Source:
    """Cards read off the layout by a camera, the burn counted as `rulebook` burns."""
    return Source("camera", lambda _resume_at: CameraReader(source, rulebook), resends=None)


def simulator_source(fixture: str | Path, *, pace: float, dialect: str = "native") -> Source:
    """`hardware-sims`' shoe simulator as its own process on a pty, a card every `pace` s.
    A fresh simulator deals a fresh shoe: there is nothing of an earlier one to resume."""
    return Source("simulator", lambda _resume_at: SimulatorSource(
        str(fixture), dialect, DecoderOptions(), pace), resends=None)
