"""The chef's reports, built in a process of their own so that reading a day's journal never
takes the interpreter lock from the cards. No Qt here: the process imports only what
`ui.audit_data` needs, and is started by spawning, never by forking a window's threads."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from croupier.errors import CroupierError
from croupier.rulebook import Rulebook
from ui.audit_data import AuditReport, report_after


class ReportProcess:
    """The report process seen from the window: started on the first request, asked one
    report at a time, started again if it died, ended by `close`."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    def report(self, path: str, rulebook: Rulebook, secret: bytes | None,
               after: int) -> AuditReport:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        try:
            return self._pool.submit(report_after, path, rulebook, secret, after).result()
        except BrokenProcessPool as err:
            self._pool = None  # the next request starts a fresh one
            raise CroupierError(f"the report process is gone: {err}") from err
        except CroupierError:
            raise
        except Exception as err:  # the window is told, whatever it was
            raise CroupierError(f"the report failed: {type(err).__name__}: {err}") from err

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
