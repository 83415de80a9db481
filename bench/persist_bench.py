"""Persistence benchmark: real tables storing every accepted action through GameKeeper.

Figures (SQLite file, WAL):
- one click applied and durably stored (`Table.act`, which returns after the
  commit): p50/p99, one game, one click at a time;
- many concurrent games in one process, every seat clicking as fast as it
  can: stored actions per second sustained, and the peak RSS;
- cold start, in a new process: `migrate()`, load every running game, check
  each against its seed + log, build its table and arm its deadline.

The tables have a presenter that shows nothing and a scheduler that never
fires, so only storage, the core and the table are measured.

Run: uv run python bench/persist_bench.py [--games 1000] [--actions 20] [--clicks 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.storage.database import Database
from bot.table.hub import GameHub
from bot.table.lobby import Lobby
from bot.table.persist import GameKeeper
from bot.table.presenter import Update
from bot.table.table import Table, TableConfig
from lockdown_core import Action, Event, legal_actions, pending_players


class Never:
    def cancel(self) -> None:
        """Nothing to cancel: the timer never runs."""


class StillClock:
    """Deadlines are computed and stored, but never fire: only clicks move the games."""

    def __init__(self) -> None:
        self.armed = 0

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], Awaitable[None]]) -> Never:
        self.armed += 1
        return Never()


class Silent:
    async def show(self, table: Table, update: Update) -> None:
        return None


class NoAi:
    def observe(self, events: list[Event]) -> None:
        return None

    def choose(self, view: dict[str, object], legal: list[Action]) -> Action:
        return legal[0]


def make_hub(keeper: GameKeeper, clock: StillClock) -> GameHub:
    return GameHub(clock, lambda kind, i: NoAi(), lambda gid, lobby: Silent(), keeper=keeper)


async def new_table(hub: GameHub, index: int) -> Table:
    base = 10_000 + index * 10
    lobby: Lobby = await hub.open_lobby(index, index, base, "p0")
    for seat in range(1, 4):
        lobby.join(base + seat, f"p{seat}")
    return await hub.start(lobby, base, False, TableConfig(), seed=index)


async def click(table: Table, rng: random.Random) -> bool:
    """One person who must act picks one of their legal actions; False once the game is over."""
    waiting = pending_players(table.state)
    if table.finished or not waiting:
        return False
    seat = rng.choice(waiting)
    options = legal_actions(table.state, seat)
    choice = rng.choice(options)
    reply = await table.act(table.seats[seat].user_id or 0, table.token, lambda s: choice)
    assert reply.ok, reply
    return True


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def click_latency(path: Path, clicks: int) -> list[float]:
    async with Database(f"sqlite+aiosqlite:///{path}") as database:
        await database.migrate()
        hub = make_hub(GameKeeper(database), StillClock())
        rng = random.Random(1)
        samples: list[float] = []
        index = 0
        table = await new_table(hub, index)
        while len(samples) < clicks:
            start = time.perf_counter()
            acted = await click(table, rng)
            if acted:
                samples.append(time.perf_counter() - start)
            else:
                index += 1
                table = await new_table(hub, index)
        return samples


async def throughput(path: Path, games: int, actions: int) -> tuple[int, float]:
    async with Database(f"sqlite+aiosqlite:///{path}") as database:
        await database.migrate()
        hub = make_hub(GameKeeper(database), StillClock())
        tables = [await new_table(hub, 1000 + i) for i in range(games)]

        async def play(table: Table, seed: int) -> int:
            rng = random.Random(seed)
            done = 0
            while done < actions and await click(table, rng):
                done += 1
            return done

        start = time.perf_counter()
        counts = await asyncio.gather(*(play(t, i) for i, t in enumerate(tables)))
        return sum(counts), time.perf_counter() - start


async def cold_start(path: Path) -> None:
    start = time.perf_counter()
    async with Database(f"sqlite+aiosqlite:///{path}") as database:
        await database.migrate()
        keeper = GameKeeper(database)
        clock = StillClock()
        hub = make_hub(keeper, clock)
        loaded = await keeper.load()
        for game in loaded.games:
            record = game.record
            lobby = Lobby(record.id, record.guild_id, record.channel_id, record.host_user_id)
            lobby.seats = game.seats
            table = hub.add_table(record.id, game.state, lobby, TableConfig())
            await table.begin([], game.deadline)
        elapsed = time.perf_counter() - start
        figures = [len(hub.tables), len(loaded.broken), clock.armed]
        print(*figures, f"{elapsed:.3f}", f"{peak_rss_mb():.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=20, help="clicks per game")
    parser.add_argument("--clicks", type=int, default=2000, help="latency samples")
    parser.add_argument("--cold-start", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_start is not None:
        asyncio.run(cold_start(args.cold_start))
        return
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as folder:
        samples = asyncio.run(click_latency(Path(folder) / "latency.db", args.clicks))
        print(
            f"click stored (Table.act to commit), {len(samples)} clicks: "
            f"p50 {statistics.median(samples) * 1000:.2f} ms, "
            f"p99 {percentile(samples, 0.99) * 1000:.2f} ms  (target p99 < 20 ms)"
        )
        db = Path(folder) / "games.db"
        stored, seconds = asyncio.run(throughput(db, args.games, args.actions))
        print(
            f"{args.games} concurrent games: {stored} actions stored in {seconds:.2f} s = "
            f"{stored / seconds:.0f} actions/s  (target >= 500)"
        )
        print(f"peak RSS {peak_rss_mb():.0f} MB  (target < 300 MB)")
        out = subprocess.run(
            [sys.executable, __file__, "--cold-start", str(db)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        tables, broken, armed, elapsed, rss = out
        print(
            f"cold start in a new process: {tables} games resumed ({broken} broken), "
            f"{armed} deadlines armed, in {float(elapsed):.2f} s, RSS {rss} MB  (target < 5 s)"
        )


if __name__ == "__main__":
    main()
