"""The chef's report process: `python -m ui.audit_process` builds audit reports for the
table's window, so that reading a day's journal never takes the interpreter lock from the
cards. No Qt here.

The window talks to it over its stdin and stdout: each message a 4-byte big-endian length
and a pickle, a request `(path, rulebook, secret, after)` answered by an `AuditReport` or
by the `CroupierError` that stopped it. Both ends are this program's own processes.
"""

from __future__ import annotations

import pickle
import struct
import subprocess
import sys
from typing import IO, Any

from croupier.errors import CroupierError
from croupier.rulebook import Rulebook
from ui.audit_data import AuditReport, report_after

_LENGTH = struct.Struct(">I")
STOP_TIMEOUT = 3.0


def write_message(stream: IO[bytes], message: object) -> None:
    data = pickle.dumps(message)
    stream.write(_LENGTH.pack(len(data)) + data)
    stream.flush()


def read_message(stream: IO[bytes]) -> Any:
    """The next message, or None when the other end has gone."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        return None
    data = stream.read(_LENGTH.unpack(head)[0])
    return pickle.loads(data)


class ReportProcess:
    """The report process seen from the window: started on the first request, asked one
    report at a time, ended by `close`."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None

    def report(self, path: str, rulebook: Rulebook, secret: bytes | None,
               after: int) -> AuditReport:
        process = self._process
        if process is None or process.poll() is not None:
            process = self._process = subprocess.Popen(
                [sys.executable, "-m", "ui.audit_process"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert process.stdin is not None
        assert process.stdout is not None
        try:
            write_message(process.stdin, (path, rulebook, secret, after))
        except OSError as err:
            raise CroupierError(f"the report process is gone: {err}") from err
        reply = read_message(process.stdout)
        if isinstance(reply, AuditReport):
            return reply
        if isinstance(reply, CroupierError):
            raise reply
        raise CroupierError("the report process stopped without an answer")

    def close(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if process.stdin is not None:
            process.stdin.close()  # its end of input: it exits
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


def main() -> int:
    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    while (request := read_message(requests)) is not None:
        try:
            reply: object = report_after(*request)
        except Exception as err:  # the window is told, whatever it was
            reply = CroupierError(f"the report failed: {err}")
        write_message(replies, reply)
    return 0


if __name__ == "__main__":
    sys.exit(main())
