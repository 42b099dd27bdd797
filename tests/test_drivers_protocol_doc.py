"""Every `frame` example of drivers/PROTOCOL.md decodes to the JSON lines written under it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from drivers.decode import decode_bytes
from drivers.native_frames import NativeFrame, NativeFramer
from drivers.to_events import message_json

DOC = Path(__file__).resolve().parents[1] / "drivers" / "PROTOCOL.md"
BLOCK = re.compile(r"^```frame (\w+)( text)?\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _examples() -> list[tuple[str, bool, bytes, list[dict[str, Any]], int]]:
    found = []
    text = DOC.read_text(encoding="utf-8")
    for match in BLOCK.finditer(text):
        dialect, as_text, body = match.group(1), bool(match.group(2)), match.group(3)
        wire = [line for line in body.splitlines() if not line.startswith("=>")]
        want = [
            json.loads(line[2:])
            for line in body.splitlines()
            if line[2:].strip()
            if line.startswith("=>")
        ]
        data = "\n".join(wire).encode("ascii") if as_text else bytes.fromhex(" ".join(wire))
        line_number = text.count("\n", 0, match.start()) + 1
        found.append((dialect, as_text, data, want, line_number))
    return found


EXAMPLES = _examples()


def test_the_document_has_examples_of_every_dialect() -> None:
    assert {e[0] for e in EXAMPLES} == {"native", "angel", "bee"}
    assert len(EXAMPLES) >= 12


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e[0]}-line{e[4]}")
def test_example_decodes_as_documented(example: tuple[str, bool, bytes, list[Any], int]) -> None:
    dialect, _, data, want, _ = example
    got = [j for m in decode_bytes(data, dialect) if (j := message_json(m)) is not None]
    assert got == want


SINGLE_NATIVE = [e for e in EXAMPLES if e[0] == "native" and len(NativeFramer().feed(e[2])) == 1]


@pytest.mark.parametrize("example", SINGLE_NATIVE, ids=lambda e: f"line{e[4]}")
def test_single_native_frame_is_what_the_encoder_writes(
    example: tuple[str, bool, bytes, list[Any], int],
) -> None:
    (frame,) = NativeFramer().feed(example[2])
    assert isinstance(frame, NativeFrame)
    assert frame.encode() == example[2]


def test_seven_single_native_frames_are_documented() -> None:
    assert len(SINGLE_NATIVE) == 7
