"""Persistence benchmark: real tables storing every accepted action through StoredGames.

Figures (SQLite file with WAL by default; PostgreSQL with `--postgres URL`, each
phase in a schema of its own, dropped at the end):
- one click applied and durably stored (`Table.act`, which returns after the
  commit): p50/p99, one game, one click at a time;
- many concurrent games in one process, every seat clicking as fast as it
  can: stored actions per second sustained, and the peak RSS;
- cold start, in a new process: `migrate()`, load every running game, check
  each against its seed + log, build its table (its public log recalled) and
  arm its deadline.

`--cold-start-only` measures the cold start alone on games of real length
(`--actions 120`: a whole game as `lockdown simulate` plays it is about 120
actions; the cautious AI plays every seat), stored in bulk by `seed_running_games`
so that seeding 1,000 games takes seconds, not the minutes of 120,000 commits.

The tables have a presenter that shows nothing and a scheduler that never
fires, so only storage, the core and the table are measured.

Run: uv run python bench/persist_bench.py [--games 1000] [--actions 20] [--clicks 2000]
     [--postgres postgresql://postgres@127.0.0.1:5432/test]
     uv run python bench/persist_bench.py --cold-start-only --games 1000 --actions 120
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
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from bot.storage import jsontext
from bot.storage import tables as storage_tables
from bot.storage.database import Database, async_url
from bot.storage.models import NewGame, SeatRecord
from bot.storage.repository import GameRepository
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.lobby import Lobby
from bot.table.persist import StoredGames
from bot.table.presenter import Update
from bot.table.table import Table
from bot.table.timers import TableConfig
from lockdown_core import (
    Action,
    Event,
    ReplayLog,
    Step,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending_seats,
    replay,
    view,
)
from lockdown_core.actions import action_to_dict
from lockdown_core.ai.kinds import make_player


@dataclass(frozen=True, slots=True)
class Target:
    """Where one phase stores its games: a SQLite file, or a PostgreSQL schema."""

    url: str
    schema: str | None = None

    def open(self) -> Database:
        return Database(self.url, schema=self.schema)

    def arguments(self) -> list[str]:
        """How the cold-start process is told to open the same database."""
        return [self.url, *(["--schema", self.schema] if self.schema else [])]


async def postgres_schemas(url: str, names: list[str], *, drop: bool = False) -> None:
    """Create (or drop) scratch schemas on the server at `url`."""
    engine = create_async_engine(async_url(url), isolation_level="AUTOCOMMIT", poolclass=NullPool)
    try:
        async with engine.connect() as admin:
            for name in names:
                if drop:
                    await admin.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
                else:
                    await admin.execute(text(f'CREATE SCHEMA "{name}"'))
    finally:
        await engine.dispose()


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


def make_hub(stored_games: StoredGames, clock: StillClock) -> GameHub:
    return GameHub(
        clock, lambda kind, i, _seed: NoAi(), lambda gid, lobby: Silent(), stored_games=stored_games
    )


async def new_table(hub: GameHub, index: int) -> Table:
    base = 10_000 + index * 10
    lobby: Lobby = await hub.open_lobby(index, index, base, "p0")
    for seat in range(1, 4):
        lobby.join(base + seat, f"p{seat}")
    return await hub.start(lobby, base, False, TableConfig(), seed=index)


async def click(table: Table, rng: random.Random) -> bool:
    """One person who must act picks one of their legal actions; False once the game is over."""
    waiting = pending_seats(table.state)
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


async def click_latency(target: Target, clicks: int) -> list[float]:
    async with target.open() as database:
        await database.migrate()
        hub = make_hub(StoredGames(BatchingGameRepository(database)), StillClock())
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


async def throughput(target: Target, games: int, actions: int) -> tuple[int, float]:
    async with target.open() as database:
        await database.migrate()
        hub = make_hub(StoredGames(BatchingGameRepository(database)), StillClock())
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


async def cold_start(target: Target) -> None:
    start = time.perf_counter()
    async with target.open() as database:
        await database.migrate()
        stored_games = StoredGames(BatchingGameRepository(database))
        clock = StillClock()
        hub = make_hub(stored_games, clock)
        loaded = await stored_games.load()
        for game in loaded.games:
            record = game.record
            lobby = Lobby(record.id, record.guild_id, record.channel_id, record.host_user_id)
            lobby.seats = game.seats
            table = hub.add_table(record.id, game.state, lobby, TableConfig())
            # As the bot's resume does: the public log and what each AI seat saw come back.
            table.recall(game.events)
            await table.begin([], game.deadline)
        elapsed = time.perf_counter() - start
        figures = [len(hub.tables), len(loaded.broken), clock.armed]
        print(*figures, f"{elapsed:.3f}", f"{peak_rss_mb():.0f}")


def running_game(seed: int, actions: int) -> tuple[dict[str, object], list[dict[str, object]]]:
    """A 4-seat game played by cautious AI seats (as `lockdown simulate` plays) for
    `actions` moves, stopped before its end: the snapshot and the log, as the store
    would hold them. (A game that ends sooner is kept one action before its end.)"""
    state, events = new_game(load_ruleset([]), 4, seed)
    players = [make_player("cautious", seat, f"{seed}-{seat}") for seat in range(4)]

    def show(shown: list[Event]) -> None:
        for seat, player in enumerate(players):
            player.observe([e for e in shown if e.to is None or seat in e.to])

    show(events)
    rng = random.Random(seed)
    log: list[dict[str, object]] = []
    while len(log) < actions and state.step != Step.GAME_OVER:
        seat = rng.choice(pending_seats(state))
        choice = players[seat].choose(view(state, seat), legal_actions(state, seat))
        show(apply(state, choice))
        log.append(action_to_dict(choice))
    if state.step == Step.GAME_OVER:
        log.pop()
        state, _ = replay(ReplayLog(players=4, seed=seed, variants=[], actions=log))
    return state.to_dict(), log


async def seed_running_games(target: Target, games: int, actions: int) -> int:
    """`games` running games of `actions` actions each, written in bulk; the action count."""
    async with target.open() as database:
        await database.migrate()
        repository = GameRepository(database)
        total = 0
        for index in range(games):
            seed = 1000 + index
            snapshot, log = running_game(seed, actions)
            game_id = await repository.create_game(
                NewGame(
                    guild_id=index,
                    channel_id=index,
                    thread_id=index,
                    host_user_id=10_000,
                    language="en",
                    seats=tuple(
                        SeatRecord(seat=s, display_name=f"p{s}", user_id=10_000 + s)
                        for s in range(4)
                    ),
                )
            )
            start, _ = new_game(load_ruleset([]), 4, seed)
            await repository.start_game(game_id, seed=seed, snapshot=start.to_dict(), deadlines={})
            async with database.write() as conn:
                await conn.execute(
                    storage_tables.actions.insert(),
                    [
                        {
                            "game_id": game_id,
                            "seq": seq,
                            "actor_seat": action.get("player"),
                            "action": jsontext.dump(action),
                            "created_at": repository._clock(),
                        }
                        for seq, action in enumerate(log, start=1)
                    ],
                )
                await conn.execute(
                    storage_tables.games.update()
                    .where(storage_tables.games.c.id == game_id)
                    .values(snapshot=jsontext.dump(snapshot), version=len(log))
                )
            total += len(log)
        return total


def cold_start_only(args: argparse.Namespace, target: Target) -> None:
    stored = asyncio.run(seed_running_games(target, args.games, args.actions))
    print(f"{args.games} running games stored, {stored / args.games:.0f} actions each on average")
    out = subprocess.run(
        [sys.executable, __file__, "--cold-start", *target.arguments()],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    tables, broken, armed, elapsed, rss = out
    print(
        f"cold start in a new process: {tables} games resumed ({broken} broken), "
        f"{armed} deadlines armed, in {float(elapsed):.2f} s, RSS {rss} MB  (target < 2 s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=20, help="clicks per game")
    parser.add_argument("--clicks", type=int, default=2000, help="latency samples")
    parser.add_argument("--postgres", metavar="URL", help="measure this PostgreSQL server")
    parser.add_argument(
        "--cold-start-only",
        action="store_true",
        help="only the cold start, on --games running games of --actions actions each",
    )
    parser.add_argument("--cold-start", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--schema", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_start is not None:
        asyncio.run(cold_start(Target(args.cold_start, args.schema)))
        return
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")
    if args.cold_start_only and args.postgres is None:
        with tempfile.TemporaryDirectory() as folder:
            print("SQLite file, WAL")
            cold_start_only(args, Target(f"sqlite+aiosqlite:///{Path(folder) / 'cold.db'}"))
        return
    if args.cold_start_only:
        name = f"bench_{uuid.uuid4().hex[:12]}"
        asyncio.run(postgres_schemas(args.postgres, [name]))
        try:
            print(f"PostgreSQL at {async_url(args.postgres).render_as_string()}")
            cold_start_only(args, Target(args.postgres, name))
        finally:
            asyncio.run(postgres_schemas(args.postgres, [name], drop=True))
        return
    if args.postgres is None:
        with tempfile.TemporaryDirectory() as folder:
            latency, games = (Target(f"sqlite+aiosqlite:///{Path(folder) / n}") for n in NAMES)
            print("SQLite file, WAL")
            run_phases(args, latency, games)
        return

    names = [f"bench_{uuid.uuid4().hex[:12]}" for _ in NAMES]
    asyncio.run(postgres_schemas(args.postgres, names))
    try:
        print(f"PostgreSQL at {async_url(args.postgres).render_as_string()}")
        latency, games = (Target(args.postgres, name) for name in names)
        run_phases(args, latency, games)
    finally:
        asyncio.run(postgres_schemas(args.postgres, names, drop=True))


NAMES = ("latency.db", "games.db")


def run_phases(args: argparse.Namespace, latency: Target, games: Target) -> None:
    """The three measurements, each in its own event loop (the cold start in a new process)."""
    samples = asyncio.run(click_latency(latency, args.clicks))
    print(
        f"click stored (Table.act to commit), {len(samples)} clicks: "
        f"p50 {statistics.median(samples) * 1000:.2f} ms, "
        f"p99 {percentile(samples, 0.99) * 1000:.2f} ms  (target p99 < 20 ms)"
    )
    stored, seconds = asyncio.run(throughput(games, args.games, args.actions))
    print(
        f"{args.games} concurrent games: {stored} actions stored in {seconds:.2f} s = "
        f"{stored / seconds:.0f} actions/s  (target >= 500)"
    )
    print(f"peak RSS {peak_rss_mb():.0f} MB  (target < 300 MB)")
    out = subprocess.run(
        [sys.executable, __file__, "--cold-start", *games.arguments()],
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
