"""Fault injection for the shoe simulator: what a serial line and a shoe's reader do wrong.

A spec is `name=value` items joined by commas, e.g.
`flip=0.001,drop-byte=0.001,drop-frame=0.05,misread=0.02,unplug=40@1.5`:

- `flip`, `drop-byte`, `dup-byte`: the chance, per byte sent, of one flipped bit, of the
  byte being lost, of it arriving twice;
- `drop-frame`, `dup-frame`: the chance, per frame (per copy, for a dialect that repeats),
  of it being lost whole or sent twice;
- `misread`: the chance that the shoe fails to read a card (it sends a failed read);
- `unplug=N@S`: after the N-th message, the cable is pulled for S seconds (may repeat).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from drivers.messages import CardRead, Message, Misread

_RATES = ("flip", "drop-byte", "dup-byte", "drop-frame", "dup-frame", "misread")


class FaultSpecError(ValueError):
    """A fault spec that cannot be read; the message names the bad item."""


@dataclass(frozen=True, slots=True)
class Unplug:
    """Pull the cable after `after` messages, for `seconds`."""

    after: int
    seconds: float


@dataclass(frozen=True, slots=True)
class FaultSpec:
    rates: dict[str, float] = field(default_factory=dict)
    unplugs: tuple[Unplug, ...] = ()

    def rate(self, name: str) -> float:
        return self.rates.get(name, 0.0)

    @classmethod
    def parse(cls, text: str) -> FaultSpec:
        rates: dict[str, float] = {}
        unplugs: list[Unplug] = []
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, sep, value = item.partition("=")
            if not sep:
                raise FaultSpecError(f"fault {item!r} has no value (want name=value)")
            if name == "unplug":
                unplugs.append(_unplug(item, value))
            elif name in _RATES:
                rates[name] = _probability(item, value)
            else:
                known = ", ".join((*_RATES, "unplug"))
                raise FaultSpecError(f"unknown fault {name!r} in {item!r} (known: {known})")
        return cls(rates, tuple(sorted(unplugs, key=lambda u: u.after)))


def _probability(item: str, value: str) -> float:
    try:
        rate = float(value)
    except ValueError:
        raise FaultSpecError(f"{item!r}: {value!r} is not a number") from None
    if not 0.0 <= rate <= 1.0:
        raise FaultSpecError(f"{item!r}: a probability is between 0 and 1")
    return rate


def _unplug(item: str, value: str) -> Unplug:
    after, sep, seconds = value.partition("@")
    try:
        unplug = Unplug(int(after), float(seconds))
    except ValueError:
        raise FaultSpecError(f"{item!r}: want unplug=MESSAGES@SECONDS, e.g. 40@1.5") from None
    if not sep or unplug.after < 0 or not 0.0 < unplug.seconds <= 60.0:
        raise FaultSpecError(f"{item!r}: want unplug=MESSAGES@SECONDS with 0 < SECONDS <= 60")
    return unplug


class FaultInjector:
    """Applies a spec with its own seeded random source, so a run can be repeated."""

    def __init__(self, spec: FaultSpec, rng: random.Random) -> None:
        self._spec = spec
        self._rng = rng

    def message(self, message: Message) -> Message:
        if isinstance(message, CardRead) and self._chance("misread"):
            return Misread()
        return message

    def frame(self, data: bytes) -> bytes:
        if self._chance("drop-frame"):
            return b""
        if self._chance("dup-frame"):
            data += data
        if not any(self._spec.rate(n) for n in ("flip", "drop-byte", "dup-byte")):
            return data
        out = bytearray()
        for byte in data:
            if self._chance("drop-byte"):
                continue
            flip = 1 << self._rng.randrange(8) if self._chance("flip") else 0
            out.append(byte ^ flip)
            if self._chance("dup-byte"):
                out.append(byte ^ flip)
        return bytes(out)

    def _chance(self, name: str) -> bool:
        rate = self._spec.rate(name)
        return rate > 0.0 and self._rng.random() < rate
