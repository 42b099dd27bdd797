"""The simulator's fault specs and injector, and its command line."""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.cards import Card
from drivers.messages import CardRead, CutRead, Misread
from hardware_sims.sim_faults import FaultInjector, FaultSpec, FaultSpecError, Unplug

FIXTURE = (
    Path(__file__).resolve().parents[1] / "hardware-sims" / "fixtures" / "wire_faceup_short.shoe"
)


def test_a_spec_is_read_with_its_unplugs_in_order() -> None:
    spec = FaultSpec.parse("flip=0.01, drop-frame=0.5,unplug=40@1.5,unplug=10@0.2")
    assert spec.rate("flip") == 0.01
    assert spec.rate("drop-frame") == 0.5
    assert spec.rate("misread") == 0.0
    assert spec.unplugs == (Unplug(10, 0.2), Unplug(40, 1.5))
    assert FaultSpec.parse("") == FaultSpec()


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("flip", "'flip'"),
        ("flop=0.1", "'flop'"),
        ("flip=lots", "'lots'"),
        ("flip=1.5", "between 0 and 1"),
        ("unplug=40", "MESSAGES@SECONDS"),
        ("unplug=x@1", "MESSAGES@SECONDS"),
        ("unplug=4@0", "0 < SECONDS"),
    ],
)
def test_a_bad_spec_is_named_in_the_error(text: str, named: str) -> None:
    with pytest.raises(FaultSpecError, match=named):
        FaultSpec.parse(text)


@given(st.text(max_size=40))
def test_any_text_is_a_spec_or_a_fault_spec_error(text: str) -> None:
    with contextlib.suppress(FaultSpecError):
        FaultSpec.parse(text)


def test_the_injector_is_repeatable_and_does_what_it_is_told() -> None:
    data = bytes(range(200))
    spec = FaultSpec.parse("flip=0.05,drop-byte=0.05,dup-byte=0.05")
    first = FaultInjector(spec, random.Random(4)).frame(data)
    assert first == FaultInjector(spec, random.Random(4)).frame(data)
    assert first != data
    assert FaultInjector(FaultSpec(), random.Random(4)).frame(data) == data
    assert FaultInjector(FaultSpec.parse("drop-frame=1"), random.Random(4)).frame(data) == b""
    doubled = FaultInjector(FaultSpec.parse("dup-frame=1"), random.Random(4)).frame(data)
    assert doubled == data + data
    misreads = FaultInjector(FaultSpec.parse("misread=1"), random.Random(4))
    assert misreads.message(CardRead(Card.parse("QH"))) == Misread()
    assert misreads.message(CutRead()) == CutRead()


def simulator(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hardware_sims.shoe_sim", *args],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["/no/such.shoe", "--dialect", "bee"], "/no/such.shoe"),
        ([str(FIXTURE), "--dialect", "morse"], "morse"),
        ([str(FIXTURE), "--dialect", "bee", "--faults", "flop=1"], "flop"),
        ([str(FIXTURE), "--dialect", "bee", "--listen", "10.0.0.1:80"], "loopback"),
        ([str(FIXTURE), "--dialect", "bee", "--pace", "-1"], "--pace"),
    ],
)
def test_bad_simulator_arguments_exit_2_naming_them(args: list[str], named: str) -> None:
    done = simulator(*args)
    assert done.returncode == 2
    assert named in done.stderr
    assert done.stdout == ""


def test_a_bad_fixture_token_is_named_with_its_place(tmp_path: Path) -> None:
    bad = tmp_path / "bad.shoe"
    bad.write_text("AS KD\nQH ZZ\n")
    done = simulator(str(bad), "--dialect", "native")
    assert done.returncode == 2
    assert "ZZ" in done.stderr
    assert ":2:" in done.stderr
