"""One click applied and stored, with 200 games running in the process (issue 17).

200 real games are started through `GameHub` and `StoredGames`; then clicks go
round the games, one at a time: the seat the game waits for picks a legal
action and `Table.act` returns once it is applied and committed. Finished
games are replaced, so 200 stay in the process. Figures: p50 and p99 wall
time of `Table.act`, and the CPU time per stored action (every thread of the
process, the database driver's included). The presenter shows nothing, the
timers never fire and no AI seat plays, so only the click's own work counts.

To compare with older code, run that code's own copy of this file with that
code first on the path, from a folder outside the repository: `cd /tmp &&
PYTHONPATH=/path/to/old python /path/to/old/bench/stored_click_bench.py`
(since the table reaches storage through a `GameStore`, the stored_games is built
on a repository instead of a database). `--json` prints one object for
`bench/compare.py`.

Run: uv run python bench/stored_click_bench.py [--clicks 1500] [--postgres URL]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from bot.storage.database import Database, async_url
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.lobby import Lobby
from bot.table.persist import StoredGames
from bot.table.presenter import Update
from bot.table.table import Table
from bot.table.timers import TableConfig
from lockdown_core import Action, Event, legal_actions, pending_seats

GAMES = 200


class Never:
    def cancel(self) -> None:
        """Nothing to cancel: the timer never runs."""


class StillClock:
    """Deadlines are computed and stored, but never fire: only clicks move the games."""

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], Awaitable[None]]) -> Never:
        return Never()


class Silent:
    async def show(self, table: Table, update: Update) -> None:
        return None


class NoAi:
    def observe(self, events: list[Event]) -> None:
        return None

    def choose(self, view: dict[str, object], legal: list[Action]) -> Action:
        return legal[0]


def always(action: Action) -> Callable[[int], Action]:
    """The click's action, whichever seat the table finds for the person."""
    return lambda seat: action


async def new_table(hub: GameHub, index: int) -> Table:
    base = 10_000 + index * 10
    lobby: Lobby = await hub.open_lobby(index, index, base, "p0")
    for seat in range(1, 4 + index % 3):
        lobby.join(base + seat, f"p{seat}")
    return await hub.start(lobby, base, False, TableConfig(), seed=index)


async def measure(database: Database, clicks: int) -> dict[str, float]:
    await database.migrate()
    hub = GameHub(
        StillClock(),
        lambda kind, i, _seed: NoAi(),
        lambda gid, lobby: Silent(),
        stored_games=StoredGames(BatchingGameRepository(database)),
    )
    tables = [await new_table(hub, index) for index in range(GAMES)]
    started = GAMES
    rng = random.Random(17)
    walls: list[float] = []
    cpu = 0.0
    turn = 0
    while len(walls) < clicks:
        slot = turn % GAMES
        turn += 1
        table = tables[slot]
        waiting = pending_seats(table.state)
        if table.finished or not waiting:
            tables[slot] = await new_table(hub, started)
            started += 1
            continue
        seat = rng.choice(waiting)
        choice = rng.choice(legal_actions(table.state, seat))
        user = table.seats[seat].user_id or 0
        wall, began = time.perf_counter(), time.process_time()
        reply = await table.act(user, table.token, always(choice))
        cpu += time.process_time() - began
        walls.append(time.perf_counter() - wall)
        assert reply.ok, reply
    walls.sort()
    return {
        "games_in_process": GAMES,
        "clicks": len(walls),
        "p50_ms": statistics.median(walls) * 1000,
        "p99_ms": walls[min(len(walls) - 1, int(0.99 * len(walls)))] * 1000,
        "cpu_ms_per_action": cpu / len(walls) * 1000,
    }


async def on_sqlite(clicks: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        async with Database(f"sqlite+aiosqlite:///{Path(folder) / 'clicks.db'}") as database:
            return await measure(database, clicks)


async def on_postgres(url: str, clicks: int) -> dict[str, float]:
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = create_async_engine(async_url(url), isolation_level="AUTOCOMMIT", poolclass=NullPool)
    try:
        async with admin.connect() as conn:
            await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        try:
            async with Database(url, schema=schema) as database:
                return await measure(database, clicks)
        finally:
            async with admin.connect() as conn:
                await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    finally:
        await admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=1500)
    parser.add_argument("--postgres", metavar="URL", help="measure this PostgreSQL server")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    where = "PostgreSQL" if args.postgres else "SQLite (file, WAL)"
    figures: dict[str, Any] = asyncio.run(
        on_postgres(args.postgres, args.clicks) if args.postgres else on_sqlite(args.clicks)
    )
    figures["database"] = where
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"{where}, {GAMES} games in the process, {figures['clicks']} clicks: "
        f"p50 {figures['p50_ms']:.2f} ms, p99 {figures['p99_ms']:.2f} ms, "
        f"CPU {figures['cpu_ms_per_action']:.2f} ms per stored action"
    )


if __name__ == "__main__":
    main()
