"""What the surveillance page asks of the floor, as JSON-able dicts.

The statistics are `croupier stats`'s own tests (`journal.stats`), fed with counts the
database adds up, so a day of fifty tables is one grouped query, not a walk over rows.
"""

from __future__ import annotations

import asyncio
import functools
from collections import Counter
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from psycopg import AsyncConnection

from croupier.decisions import Chance, Result
from journal.stats import Tally, Theory, marque, tests, theory_of

CONNECTED_WITHIN = 5.0  # seconds since a shipper last reached the floor
SHIFT = timedelta(hours=8)
SHIFT_ORIGIN = "2000-01-01 06:00:00+00"  # shifts start at 06:00, 14:00 and 22:00 UTC

Conn = AsyncConnection[tuple[Any, ...]]


def _seconds(later: datetime | None, earlier: datetime | None) -> float | None:
    if later is None or earlier is None:
        return None
    return round((later - earlier).total_seconds(), 3)


async def tables(conn: Conn) -> list[dict[str, Any]]:
    cur = await conn.execute(
        "SELECT table_id, head_seq, shoe, coup, dealing, last_call, last_card_at, last_row_at, "
        "arrived_at, shipper_seen, clock_timestamp(), "
        "(SELECT count(*) FROM refused_row r WHERE r.table_id = t.table_id) "
        "FROM floor_table t ORDER BY table_id")
    lines = await cur.fetchall()
    marques = await _marques(conn)
    out = []
    for (table, head, shoe, coup, dealing, last_call, last_card, last_row, arrived, seen, now,
         refused) in lines:
        since_contact = _seconds(now, seen)
        out.append({
            "table": table, "rows": head, "shoe": shoe, "coup": coup, "dealing": dealing,
            "last_call": last_call,
            "last_card_at": last_card.isoformat() if last_card else None,
            "last_row_at": last_row.isoformat() if last_row else None,
            "since_last_card": _seconds(now, last_card),
            "lag": _seconds(arrived, last_row),
            "connected": since_contact is not None and since_contact < CONNECTED_WITHIN,
            "since_contact": since_contact,
            "refused_rows": refused,
            "marque": marques.get(table, {"results": "", "couleur": ""}),
        })
    return out


async def _marques(conn: Conn) -> dict[str, dict[str, str]]:
    """Each table's marque of its current shoe, in one query for the whole floor."""
    cur = await conn.execute(
        "SELECT c.table_id, c.result, c.couleur FROM coup c JOIN floor_table t "
        "ON c.table_id = t.table_id AND c.shoe = t.shoe WHERE NOT c.retracted "
        "ORDER BY c.table_id, c.number")
    coups: dict[str, list[tuple[Result, Chance | None]]] = {}
    for table, result, couleur in await cur.fetchall():
        coups.setdefault(table, []).append((Result(result), Chance(couleur) if couleur else None))
    out = {}
    for table, shoe in coups.items():
        results, colours = marque(shoe)
        out[table] = {"results": results, "couleur": colours}
    return out


async def alarms(conn: Conn, limit: int) -> list[dict[str, Any]]:
    cur = await conn.execute("SELECT table_id, seq, at, source, code, message FROM alarm "
                             "ORDER BY at DESC, id DESC LIMIT %s", (limit,))
    return [{"table": t, "row": s, "at": a.isoformat(), "source": src, "code": c, "message": m}
            for t, s, a, src, c, m in await cur.fetchall()]


async def corrections(conn: Conn, limit: int) -> list[dict[str, Any]]:
    cur = await conn.execute("SELECT table_id, seq, at, action, who, why, detail FROM correction "
                             "ORDER BY at DESC, seq DESC LIMIT %s", (limit,))
    return [{"table": t, "row": s, "at": a.isoformat(), "action": act, "who": w, "why": y,
             "detail": d} for t, s, a, act, w, y, d in await cur.fetchall()]


async def stats(conn: Conn, decks: int = 6) -> dict[str, Any]:
    """`croupier stats`'s tests per table and across the floor, with their flags."""
    tallies: dict[str, Tally] = {}

    def tally(table: str) -> Tally:
        return tallies.setdefault(table, Tally())

    cur = await conn.execute(
        "SELECT table_id, count(*), "
        "count(*) FILTER (WHERE result = 'rouge'), count(*) FILTER (WHERE result = 'noir'), "
        "count(*) FILTER (WHERE result = 'apres'), count(*) FILTER (WHERE result = 'refait'), "
        "count(*) FILTER (WHERE couleur = 'couleur'), "
        "count(*) FILTER (WHERE couleur = 'inverse') "
        "FROM coup WHERE NOT retracted GROUP BY table_id")
    for table, coups, rouge, noir, apres, refait, couleur, inverse in await cur.fetchall():
        t = tally(table)
        t.coups = coups
        t.results = Counter(rouge=rouge, noir=noir, apres=apres, refait=refait)
        t.couleur = Counter(couleur=couleur, inverse=inverse)
    cur = await conn.execute(
        "SELECT table_id, point, count(*) FROM ("
        " SELECT table_id, noir_point AS point FROM coup WHERE NOT retracted"
        " UNION ALL SELECT table_id, rouge_point FROM coup WHERE NOT retracted) p "
        "GROUP BY table_id, point")
    for table, point, count in await cur.fetchall():
        tally(table).points[point] = count
    # The exact theory takes a second to compute, and the tests are arithmetic: both run
    # beside the page's event loop, never in its way.
    return await asyncio.to_thread(_report, tallies, decks)


def warm() -> None:
    """Computes the theory before the first page asks for it."""
    _theory(6)


@functools.cache
def _theory(decks: int) -> Theory:
    return theory_of(decks)


def _report(tallies: dict[str, Tally], decks: int) -> dict[str, Any]:
    theory = _theory(decks)
    floor = Tally()
    scopes = []
    for table in sorted(tallies):
        floor.merge(tallies[table])
        scopes.append(_scope(f"table {table}", tallies[table], theory))
    scopes.append(_scope("floor", floor, theory))
    return {"scopes": scopes, "flagged": sum(len(s["flagged"]) for s in scopes)}


def _scope(name: str, tally: Tally, theory: Theory) -> dict[str, Any]:
    found = tests(tally, theory)
    return {"scope": name, "coups": tally.coups,
            "tests": [{"test": t.name, "observed": t.observed, "expected": t.expected,
                       "p": t.p_value, "flagged": t.flagged} for t in found],
            "flagged": [t.name for t in found if t.flagged]}


async def money(conn: Conn) -> list[dict[str, Any]]:
    """Per table and shift: stakes collected, winnings paid, premiums, the table's result.

    A shared prisoner gives the player back `amount`; the house keeps the rest of the stake.
    """
    cur = await conn.execute(
        "SELECT table_id, date_bin(%s, at, %s::timestamptz) AS shift, "
        "coalesce(sum(coalesce(amount, stake)) FILTER (WHERE action = 'collect'), 0), "
        "coalesce(sum(amount) FILTER (WHERE action = 'pay'), 0), "
        "coalesce(sum(amount) FILTER (WHERE action = 'premium'), 0), "
        "coalesce(sum(stake - amount) FILTER (WHERE action = 'share'), 0) "
        "FROM settlement GROUP BY table_id, shift ORDER BY shift DESC, table_id",
        (SHIFT, SHIFT_ORIGIN))
    out = []
    for table, shift, collected, paid, premiums, kept in await cur.fetchall():
        result: Decimal = collected + premiums + kept - paid
        out.append({"table": table, "shift": shift.isoformat(), "collected": collected,
                    "paid": paid, "premiums": premiums, "shares_kept": kept,
                    "result": result})
    return out
