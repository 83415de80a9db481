"""Start-up reads under concurrent writes, and migrations by two processes at once.

A second process (a deploy, a restart) loads the running games while the
first still stores actions. Read in two transactions, a write in between put a
log one action ahead of its snapshot and healthy games were paused; here the
load runs again and again while real games are being played on another
handle, and no game may ever come out broken. A real mismatch still does.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import REGISTRY
from sqlalchemy import text

from bot.storage import tables
from bot.storage.database import Database
from bot.storage.models import GamesAndLogs, Shards
from bot.storage.repository import GameRepository
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.lobby import Lobby
from bot.table.persist import StoredGames
from bot.table.table import Table
from bot.table.timers import TableConfig
from lockdown_core import legal_actions, pending_seats
from tests.storage.conftest import PG_URL, DatabaseFactory, _pg_admin
from tests.table.fakes import ManualScheduler, RandomSeat, RecordingPresenter


def make_hub(stored_games: StoredGames) -> GameHub:
    return GameHub(
        ManualScheduler(),
        lambda kind, index, _seed: RandomSeat(index),
        lambda game_id, lobby: RecordingPresenter(),
        stored_games=stored_games,
    )


async def start_games(
    hub: GameHub, count: int, guild_of: Any = lambda i: 10**17 + i
) -> list[Table]:
    tables_: list[Table] = []
    for index in range(count):
        base = 5000 + index * 10
        lobby = await hub.open_lobby(guild_of(index), 700 + index, base, "p0")
        for seat in range(1, 4):
            lobby.join(base + seat, f"p{seat}")
        tables_.append(await hub.start(lobby, base, False, TableConfig(), seed=index))
    return tables_


async def click(table: Table, rng: random.Random) -> bool:
    """A seated person makes one of their legal moves; False once nobody can."""
    waiting = pending_seats(table.state)
    if table.finished or not waiting:
        return False
    seat = rng.choice(waiting)
    choice = rng.choice(legal_actions(table.state, seat))
    reply = await table.act(table.seats[seat].user_id or 0, table.token, lambda s: choice)
    return reply.ok


async def test_a_start_up_during_writes_never_finds_a_healthy_game_broken(
    databases: DatabaseFactory,
) -> None:
    writer_db = databases()
    await writer_db.migrate()
    hub = make_hub(StoredGames(BatchingGameRepository(writer_db)))
    games = await start_games(hub, 6)
    for table in games:  # some history first: the logs are not empty
        for _ in range(5):
            await click(table, random.Random(table.game_id))
    stop = asyncio.Event()
    stored = 0

    async def write() -> None:
        nonlocal stored
        rng = random.Random(7)
        while not stop.is_set():
            if await click(rng.choice(games), rng):
                stored += 1
            await asyncio.sleep(0)

    loads = 0
    broken: list[str] = []
    writer = asyncio.create_task(write())
    try:
        reader = StoredGames(BatchingGameRepository(databases()))  # another process starting
        # Until the writer has stored plenty meanwhile, however busy the machine is.
        while loads < 10 or (stored < 20 and loads < 500):
            loaded = await reader.load()
            loads += 1
            broken += [f"{bad.game_id}: {bad.reason}" for bad in loaded.broken]
            assert {game.record.id for game in loaded.games} <= {t.game_id for t in games}
    finally:
        stop.set()
        await writer
    assert stored > 20, "the writer really wrote while the loads ran"
    assert broken == []


async def test_a_log_read_ahead_of_its_snapshot_is_read_again(
    databases: DatabaseFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = databases()
    await database.migrate()
    hub = make_hub(StoredGames(BatchingGameRepository(database)))
    [table] = await start_games(hub, 1)
    for _ in range(4):
        await click(table, random.Random(3))
    stored_games = StoredGames(BatchingGameRepository(databases()))
    real = GameRepository.load_running_with_logs
    calls = 0

    async def stale_first(self: GameRepository, *args: Any, **kwargs: Any) -> GamesAndLogs:
        """The first read gives a log one action ahead of its snapshot, as a read split
        across a write used to; the next reads are true."""
        nonlocal calls
        calls += 1
        got = await real(self, *args, **kwargs)
        if calls == 1:
            for log in got.logs.values():
                log.append(dict(log[-1]))
        return got

    monkeypatch.setattr(GameRepository, "load_running_with_logs", stale_first)
    loaded = await stored_games.load()
    assert loaded.broken == []
    assert [game.record.id for game in loaded.games] == [table.game_id]
    assert calls == 2


async def test_a_real_mismatch_still_pauses_the_game(databases: DatabaseFactory) -> None:
    database = databases()
    await database.migrate()
    hub = make_hub(StoredGames(BatchingGameRepository(database)))
    good, bad = await start_games(hub, 2)
    for table in (good, bad):
        for _ in range(3):
            await click(table, random.Random(5))
    async with database.write() as conn:  # the last action of `bad` lost, its snapshot kept
        await conn.execute(
            tables.actions.delete().where(
                tables.actions.c.game_id == bad.game_id,
                tables.actions.c.seq == bad.state.version,
            )
        )
    loaded = await StoredGames(BatchingGameRepository(databases())).load()
    assert [game.record.id for game in loaded.games] == [good.game_id]
    assert [b.game_id for b in loaded.broken] == [bad.game_id]


async def test_a_table_that_lost_a_write_race_catches_up_and_counts_it(
    databases: DatabaseFactory,
) -> None:
    """A table whose copy went stale (another writer stored two moves) does not retry
    it: its click is refused, the conflict is counted, the table takes the stored moves."""
    database = databases()
    await database.migrate()
    first = make_hub(StoredGames(BatchingGameRepository(database)))
    [table] = await start_games(first, 1)
    other_stored_games = StoredGames(BatchingGameRepository(databases()))
    [other] = (await other_stored_games.load()).games
    # The other process plays two moves; the first table's copy is now stale.
    second = make_hub(other_stored_games)
    record = other.record
    lobby = Lobby(record.id, record.guild_id, record.channel_id, record.host_user_id, other.seats)
    lobby_table = second.add_table(record.id, other.state, lobby, TableConfig())
    rng = random.Random(11)
    assert await click(lobby_table, rng)
    assert await click(lobby_table, rng)
    conflicts = REGISTRY.get_sample_value("lockdown_version_conflicts_total") or 0.0
    stale_version = table.state.version
    assert not await click(table, random.Random(12)), "the stale copy cannot be stored"
    # The table then catches up with the two stored moves instead of staying stale.
    assert table.state.version == stale_version + 2
    assert table.state.to_dict() == lobby_table.state.to_dict()
    assert REGISTRY.get_sample_value("lockdown_version_conflicts_total") == conflicts + 1


async def test_each_process_loads_the_games_of_its_own_shards(databases: DatabaseFactory) -> None:
    database = databases()
    await database.migrate()
    hub = make_hub(StoredGames(BatchingGameRepository(database)))
    # Guild ids whose shard (of 2) is known: (id >> 22) % 2.
    games = await start_games(hub, 6, guild_of=lambda i: (10**6 + i) << 22)
    shard_of = {t.game_id: ((10**6 + i) % 2) for i, t in enumerate(games)}
    for shard in (0, 1):
        stored_games = StoredGames(BatchingGameRepository(databases()), shards=Shards(2, (shard,)))
        loaded = await stored_games.load()
        assert sorted(g.record.id for g in loaded.games) == sorted(
            game_id for game_id, s in shard_of.items() if s == shard
        )
    both = await StoredGames(BatchingGameRepository(databases()), shards=Shards(2, (0, 1))).load()
    assert len(both.games) == 6


async def test_two_handles_migrating_an_empty_database_at_once_both_succeed(
    databases: DatabaseFactory,
) -> None:
    handles = [databases() for _ in range(3)]
    await asyncio.gather(*(handle.migrate() for handle in handles))
    revisions = {await handle.revision() for handle in handles}
    assert len(revisions) == 1
    assert None not in revisions


@pytest.mark.postgres
async def test_two_processes_migrating_a_new_database_at_once_both_succeed() -> None:
    """`lockdown-bot migrate` twice at the same instant on an empty PostgreSQL database."""
    name = f"lockdown_{uuid.uuid4().hex[:12]}"
    async with _pg_admin() as admin:
        await admin.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        url = PG_URL.rsplit("/", 1)[0] + f"/{name}"
        env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
        env["DATABASE_URL"] = url
        script = Path(sys.executable).parent / "lockdown-bot"
        for _ in range(3):
            runs = [
                await asyncio.create_subprocess_exec(
                    str(script),
                    "migrate",
                    env=env,
                    stdout=asyncio.subprocess.DEVNULL,
                    stderr=asyncio.subprocess.PIPE,
                )
                for _ in range(2)
            ]
            outcomes = [await run.communicate() for run in runs]
            statuses = [run.returncode for run in runs]
            assert statuses == [0, 0], [err.decode() for _, err in outcomes]
            async with Database(url) as database:
                assert await database.revision() is not None
                async with database.write() as conn:  # empty again for the next round
                    await conn.execute(text("DROP SCHEMA public CASCADE"))
                    await conn.execute(text("CREATE SCHEMA public"))
    finally:
        async with _pg_admin() as admin:
            await admin.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
