"""The simulator's end of the cable: a pseudo-terminal or a loopback TCP port.

Both can be unplugged and plugged back. A link is `connected` only while a receiver is
there (the pty's slave is open, a TCP client is accepted), because a receiver opening the
port flushes whatever was waiting in it.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import tty
from pathlib import Path
from typing import Protocol

GRACE = 0.05  # a receiver that just opened the port is still configuring it
POLL = 0.01  # how often to look for a receiver while none is there


class Link(Protocol):
    url: str

    def connected(self, now: float) -> bool: ...

    def exchange(self, timeout: float) -> bytes:
        """Sends what is pending, waits up to `timeout` for bytes, returns them."""
        ...

    def write(self, data: bytes) -> None: ...

    def pending(self) -> int: ...

    def unplug(self) -> None: ...

    def replug(self) -> None: ...

    def close(self) -> None: ...


class PtyLink:
    """A pseudo-terminal whose slave is reached through a stable symlink, `url`: unplugging
    closes the master (the receiver's reads fail) and removes the link until replugged."""

    def __init__(self, directory: Path) -> None:
        self.url = str(directory / "shoe")
        self._master: int | None = None
        self._spare: tuple[int, str] | None = None
        self._out = bytearray()
        self._since: float | None = None
        self.replug()

    @staticmethod
    def _open_pty() -> tuple[int, str]:
        master, slave = os.openpty()
        tty.setraw(slave)
        target = os.ttyname(slave)
        os.close(slave)  # the receiver opens it; the link watches for that
        os.set_blocking(master, False)
        return master, target

    def replug(self) -> None:
        self._master, target = self._spare or self._open_pty()
        self._spare = None
        temporary = self.url + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        os.symlink(target, temporary)
        os.replace(temporary, self.url)

    def unplug(self) -> None:
        # The next pty is made while the old one still exists, so that it gets another
        # number: a receiver still holding the old one never mistakes it for the new one.
        self._spare = self._open_pty()
        self._release()

    def _release(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.url)
        if self._master is not None:
            os.close(self._master)
        self._master = None
        self._out.clear()
        self._since = None

    def close(self) -> None:
        self._release()
        if self._spare is not None:
            os.close(self._spare[0])
            self._spare = None

    def _hung_up(self) -> bool:
        if self._master is None:
            return True
        poller = select.poll()
        poller.register(self._master, select.POLLOUT)
        return any(flags & select.POLLHUP for _, flags in poller.poll(0))

    def connected(self, now: float) -> bool:
        if self._hung_up():
            self._since = None
            self._out.clear()  # nobody will read it: a real cable drops it too
            return False
        if self._since is None:
            self._since = now
        return now - self._since >= GRACE

    def write(self, data: bytes) -> None:
        if self._master is not None:
            self._out += data

    def pending(self) -> int:
        return len(self._out)

    def exchange(self, timeout: float) -> bytes:
        master = self._master
        if master is None or self._hung_up():
            # no receiver: a hung-up master is always "readable", so poll gently instead
            select.select([], [], [], min(timeout, POLL))
            return b""
        writers = [master] if self._out else []
        readable, writable, _ = select.select([master], writers, [], timeout)
        if writable:
            with contextlib.suppress(BlockingIOError, OSError):
                del self._out[: os.write(master, self._out)]
        if readable:
            with contextlib.suppress(BlockingIOError, OSError):
                return os.read(master, 4096)
        return b""


class TcpLink:
    """A loopback TCP port (`socket://host:port`) serving one receiver at a time; unplugging
    closes the connection and refuses new ones until replugged."""

    def __init__(self, host: str, port: int) -> None:
        self._host = host
        self._port = port
        self._listener: socket.socket | None = None
        self._client: socket.socket | None = None
        self._out = bytearray()
        self._since = 0.0
        self.replug()
        self.url = f"socket://{host}:{self._port}"

    def replug(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self._host, self._port))
        listener.listen(1)
        listener.setblocking(False)
        self._port = listener.getsockname()[1]
        self._listener = listener

    def unplug(self) -> None:
        self._drop_client()
        if self._listener is not None:
            self._listener.close()
        self._listener = None

    close = unplug

    def _drop_client(self) -> None:
        if self._client is not None:
            self._client.close()
        self._client = None
        self._out.clear()

    def connected(self, now: float) -> bool:
        if self._client is None and self._listener is not None:
            with contextlib.suppress(BlockingIOError):
                self._client, _ = self._listener.accept()
                self._client.setblocking(False)
                self._client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                self._since = now
        return self._client is not None and now - self._since >= GRACE

    def write(self, data: bytes) -> None:
        if self._client is not None:
            self._out += data

    def pending(self) -> int:
        return len(self._out)

    def exchange(self, timeout: float) -> bytes:
        client = self._client
        waits = [s for s in (client, self._listener) if s is not None]
        writers = [client] if client is not None and self._out else []
        readable, writable, _ = select.select(waits, writers, [], timeout)
        if client is None:
            return b""
        if writable:
            try:
                del self._out[: client.send(self._out)]
            except BlockingIOError:
                pass
            except OSError:
                self._drop_client()
                return b""
        if client in readable:
            try:
                data = client.recv(4096)
            except BlockingIOError:
                return b""
            except OSError:
                data = b""
            if not data:
                self._drop_client()  # the receiver hung up
            return data
        return b""
