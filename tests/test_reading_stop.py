"""A reader's source stopped from the screen's thread while it is being started."""

from __future__ import annotations

import threading
from types import SimpleNamespace
from typing import Any

import pytest

from app import reading
from app.reading import Source


def test_a_source_stopped_while_its_reader_starts_is_stopped_not_crashed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A kiosk closed at its first frame stopped the shoe's source from the screen's thread
    just as the source started its reader: the reader's thread was set and not yet started,
    and joining it raised, which crashed the closing window."""
    errors: list[BaseException] = []
    source: Source | None = None

    def stop() -> None:
        try:
            assert source is not None
            source.stop()
        except RuntimeError as err:
            errors.append(err)

    class StoppedAsItStarts(threading.Thread):
        def start(self) -> None:
            stopper = threading.Thread(target=stop)
            stopper.start()
            stopper.join(0.3)  # the stop lands here, between set and started
            super().start()
            stoppers.append(stopper)

    def cannot_open(_resume_at: int | None) -> Any:
        raise OSError("no shoe here")

    stoppers: list[threading.Thread] = []
    # the reader module alone sees the thread that is stopped as it starts
    monkeypatch.setattr(reading, "threading",
                        SimpleNamespace(Thread=StoppedAsItStarts, Lock=threading.Lock))
    source = Source("shoe", cannot_open, resends=None)
    alarms: list[object] = []
    ended = threading.Event()
    source.start(lambda events, _at: alarms.extend(events), None, ended.set)
    for stopper in stoppers:
        stopper.join(5)
    assert ended.wait(5)
    assert errors == []
    assert len(alarms) == 1  # the source that could not open says so, once
