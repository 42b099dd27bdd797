"""The dialects a shoe may speak, by name: how to decode them and how a shoe encodes them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from drivers import angel, bee
from drivers.angel_link import AngelDecoder
from drivers.checks import check_named, crc16_ccitt
from drivers.decoder import Decoder
from drivers.errors import DialectError
from drivers.messages import Message
from drivers.native_messages import message_frame
from drivers.native_receiver import NativeReceiver

NATIVE_BAUD: Final = 115200


@dataclass(frozen=True, slots=True)
class DecoderOptions:
    """Settings a dialect may need: `check` names angel's unpublished check algorithm;
    `live` is False for a capture file, where nobody can be asked to resend;
    `resend_after` is how long a native receiver waits before asking again; `resume_at` the
    first sequence number a restarted table has not journaled; `seq_range` (lowest,
    highest) is angel's sequence range when the shoe model's is known (otherwise it is
    learned from the stream); `copy_window` how long angel waits for a message's next copy
    (default: from the baud rate)."""

    check: str = "none"
    live: bool = True
    resend_after: float = 0.2
    resume_at: int | None = None
    seq_range: tuple[int, int] | None = None
    copy_window: float | None = None


@dataclass(frozen=True, slots=True)
class Dialect:
    """One wire dialect. `encode` gives one copy of a message's frame, which a shoe sends
    `copies` times; `garbage_is_loss` when the dialect has no other way to notice a lost
    message (no sequence numbers), so that unreadable bytes on a live line raise an alarm."""

    name: str
    baud: int
    copies: int
    garbage_is_loss: bool
    decoder: Callable[[DecoderOptions], Decoder]
    encode: Callable[[Message, int, DecoderOptions], bytes]
    resends: bool = False  # the shoe resends on request: a restarted table loses nothing

    def transmission(self, message: Message, seq: int, options: DecoderOptions) -> bytes:
        """Everything a shoe sends for one message: its frame, as many times as it repeats."""
        return self.encode(message, seq, options) * self.copies


def _encode_native(message: Message, seq: int, options: DecoderOptions) -> bytes:
    return message_frame(message, seq).encode()


def _encode_angel(message: Message, seq: int, options: DecoderOptions) -> bytes:
    check = check_named(options.check) or crc16_ccitt
    return angel.encode_frame(seq, angel.message_data(message), check)


def _encode_bee(message: Message, seq: int, options: DecoderOptions) -> bytes:
    return bee.message_text(message)


DIALECTS: Final = {
    "native": Dialect(
        "native",
        NATIVE_BAUD,
        copies=1,
        garbage_is_loss=False,
        decoder=lambda o: NativeReceiver(can_ask=o.live, resend_after=o.resend_after,
                                         first_expected=o.resume_at),
        encode=_encode_native,
        resends=True,
    ),
    "angel": Dialect(
        "angel",
        angel.BAUD,
        copies=angel.COPIES,
        garbage_is_loss=False,
        decoder=lambda o: AngelDecoder(
            check=o.check, seq_range=o.seq_range, copy_window=o.copy_window
        ),
        encode=_encode_angel,
    ),
    "bee": Dialect(
        "bee",
        bee.BAUD,
        copies=1,
        garbage_is_loss=True,
        decoder=lambda o: bee.BeeDecoder(),
        encode=_encode_bee,
    ),
}


def dialect_named(name: str) -> Dialect:
    try:
        return DIALECTS[name]
    except KeyError:
        raise DialectError(f"unknown dialect {name!r} (known: {', '.join(DIALECTS)})") from None
