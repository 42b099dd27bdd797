"""`croupier floor serve`: the surveillance page, read-only, behind the floor's password.

Starlette under uvicorn. The page is one HTML file that reads the JSON API below it; a
server-sent event stream tells it when a table's rows arrive (PostgreSQL's LISTEN/NOTIFY on
the channel the arrivals notify), so it refreshes within a second of a row reaching the floor.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any

import psycopg
import uvicorn
from psycopg_pool import AsyncConnectionPool
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route
from starlette.types import ASGIApp

from croupier.jsonout import dumps
from floor import queries
from floor.arrival import CHANNEL
from floor.auth import password_matches
from floor.connect import connect, one_line, where
from floor.errors import FloorError

COOKIE = "floor_session"
KEEPALIVE = 15.0
_OPEN = ("/login", "/api/login")


class Sessions:
    """Logins held in memory: a random token per login, forgotten when it expires."""

    def __init__(self, lifetime: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.lifetime, self.clock = lifetime, clock
        self._expiry: dict[str, float] = {}

    def open(self) -> str:
        now = self.clock()
        for stale in [t for t, expiry in self._expiry.items() if expiry < now]:
            del self._expiry[stale]
        token = secrets.token_urlsafe(32)
        self._expiry[token] = self.clock() + self.lifetime
        return token

    def valid(self, token: str | None) -> bool:
        if token is None or token not in self._expiry:
            return False
        if self._expiry[token] < self.clock():
            del self._expiry[token]
            return False
        return True

    def close(self, token: str | None) -> None:
        self._expiry.pop(token or "", None)


class Changes:
    """Fans the floor's notifications out to every open event stream."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._queues: set[asyncio.Queue[str]] = set()

    @contextlib.asynccontextmanager
    async def subscribe(self) -> AsyncIterator[asyncio.Queue[str]]:
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=1000)
        self._queues.add(queue)
        try:
            yield queue
        finally:
            self._queues.discard(queue)

    async def listen(self) -> None:
        """LISTEN for arrivals for ever, reconnecting when the floor goes away."""
        delay = 0.25
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    delay = 0.25
                    self._tell("*")  # whatever happened while we were away
                    async for note in conn.notifies():
                        self._tell(note.payload)
            except psycopg.Error as err:
                print(f"croupier floor serve: {where(self.dsn)}: {one_line(err)}; "
                      f"listening again in {delay:g} s", file=sys.stderr)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)

    def _tell(self, table: str) -> None:
        for queue in list(self._queues):
            with contextlib.suppress(asyncio.QueueFull):  # a stalled page refetches all anyway
                queue.put_nowait(table)


def _page(name: str) -> str:
    return resources.files("floor").joinpath("page", name).read_text(encoding="utf-8")


class _LoginRequired(BaseHTTPMiddleware):
    def __init__(self, app: ASGIApp, sessions: Sessions) -> None:
        super().__init__(app)
        self._sessions = sessions

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        if request.url.path in _OPEN or self._sessions.valid(request.cookies.get(COOKIE)):
            return await call_next(request)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": "log in first"}, status_code=401)
        return RedirectResponse("/login", status_code=303)


class _Site:
    """The page's endpoints, over one connection pool and one listener for arrivals."""

    def __init__(self, dsn: str, session_seconds: float) -> None:
        self.dsn, self.session_seconds = dsn, session_seconds
        self.sessions = Sessions(session_seconds)
        self.changes = Changes(dsn)
        self.pool = AsyncConnectionPool(dsn, min_size=1, max_size=4, open=False,
                                        kwargs={"autocommit": True})

    def routes(self) -> list[Route]:
        return [
            Route("/", self.index), Route("/login", self.login_page),
            Route("/logout", self.logout), Route("/api/login", self.login, methods=["POST"]),
            Route("/api/tables", self.api_tables), Route("/api/alarms", self.api_alarms),
            Route("/api/corrections", self.api_corrections),
            Route("/api/stats", self.api_stats), Route("/api/money", self.api_money),
            Route("/api/events", self.api_events),
        ]

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: Starlette) -> AsyncIterator[None]:
        await self.pool.open()
        asyncio.get_running_loop().run_in_executor(None, queries.warm)
        listener = asyncio.create_task(self.changes.listen())
        try:
            yield
        finally:
            listener.cancel()
            await self.pool.close()

    async def _json_of(self, read: Callable[[queries.Conn], Awaitable[Any]]) -> Response:
        try:
            async with self.pool.connection() as conn:
                data = await read(conn)
        except psycopg.Error as err:
            return JSONResponse({"error": f"{where(self.dsn)}: {one_line(err)}"},
                                status_code=503)
        return Response(dumps(data), media_type="application/json")

    async def index(self, _request: Request) -> Response:
        return HTMLResponse(_page("index.html"))

    async def login_page(self, _request: Request) -> Response:
        return HTMLResponse(_page("login.html"))

    async def login(self, request: Request) -> Response:
        try:
            sent = await request.json()
            password = str(sent["password"])
        except (ValueError, KeyError, TypeError):
            return JSONResponse({"error": 'send {"password": "..."}'}, status_code=400)
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT value FROM floor_setting WHERE key = 'password'")
            found = await cur.fetchone()
        if found is None:
            return JSONResponse({"error": "no floor password is set: run "
                                          "`croupier floor password`"}, status_code=403)
        if not await asyncio.to_thread(password_matches, str(found[0]), password):
            return JSONResponse({"error": "wrong password"}, status_code=401)
        response = JSONResponse({"ok": True})
        response.set_cookie(COOKIE, self.sessions.open(), max_age=int(self.session_seconds),
                            httponly=True, samesite="strict")
        return response

    async def logout(self, request: Request) -> Response:
        self.sessions.close(request.cookies.get(COOKIE))
        response = RedirectResponse("/login", status_code=303)
        response.delete_cookie(COOKIE)
        return response

    async def api_tables(self, _request: Request) -> Response:
        return await self._json_of(queries.tables)

    async def api_alarms(self, request: Request) -> Response:
        return await self._json_of(lambda c: queries.alarms(c, _limit(request)))

    async def api_corrections(self, request: Request) -> Response:
        return await self._json_of(lambda c: queries.corrections(c, _limit(request)))

    async def api_stats(self, _request: Request) -> Response:
        return await self._json_of(queries.stats)

    async def api_money(self, _request: Request) -> Response:
        return await self._json_of(queries.money)

    async def api_events(self, request: Request) -> Response:
        async def stream() -> AsyncIterator[str]:
            async with self.changes.subscribe() as queue:
                yield "retry: 1000\n\n"
                while not await request.is_disconnected():
                    try:
                        table = await asyncio.wait_for(queue.get(), KEEPALIVE)
                    except TimeoutError:
                        yield ": keepalive\n\n"
                        continue
                    yield f"event: change\ndata: {table}\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})


def _limit(request: Request) -> int:
    try:
        return max(1, min(1000, int(request.query_params.get("limit", "100"))))
    except ValueError:
        return 100


def create_app(dsn: str, session_seconds: float = 8 * 3600) -> Starlette:
    site = _Site(dsn, session_seconds)
    return Starlette(routes=site.routes(), lifespan=site.lifespan,
                     middleware=[Middleware(_LoginRequired, sessions=site.sessions)])


def parse_listen(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise FloorError(f"--listen is HOST:PORT, such as 127.0.0.1:8716: {text!r}")
    return host, int(port)


def serve(dsn: str, listen: str, session_seconds: float) -> int:
    host, port = parse_listen(listen)
    connect(dsn).close()  # a floor that cannot be reached is said now, in one line
    print(f"croupier floor serve: http://{host}:{port}/ (floor: {where(dsn)})", flush=True)
    # uvicorn raises the stopping signal again once it has shut down: make that an exit that
    # runs the callers' clean-up (the demo stops its tables and its PostgreSQL).
    signal.signal(signal.SIGTERM, lambda _sig, _frame: sys.exit(0))
    # An event stream stays open for ever: shutting down waits for none of them.
    uvicorn.run(create_app(dsn, session_seconds), host=host, port=port, log_level="warning",
                timeout_graceful_shutdown=1)
    return 0
