"""A failed save changes nothing (issue 13, item 1).

All-AI games are played on a real database while the store fails under them:
writes refused at their first statement, half-way through the transaction or
at the commit, with the errors of a full disk, a read-only database, a lock
timeout or a lost connection (`tests/storage/faults.py`). After every step of
the clock, each game's state in memory must be, byte for byte, the state its
last stored action left; at the end the stored log must replay to the stored
snapshot, and a new process must resume every game. The same on a real full
file system (a small tmpfs) during a truck search, and on a database file
the kernel refuses to write (`chattr +i`), where the tests run as root.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.storage.database import Database
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.lobby import Lobby
from bot.table.persist import StoredGames
from bot.table.store import AcceptedAction
from bot.table.stored_actions import StoredActions
from bot.table.stored_form import rebuild
from bot.table.table import Table
from bot.table.timers import TableConfig
from lockdown_core import GameState, Step, legal_actions, load_ruleset, new_game, pending_seats
from tests.storage.conftest import DatabaseFactory, databases
from tests.storage.faults import FAULTS, SmallDisk, StoreFaults, connection_lost, immutable
from tests.table.fakes import ManualScheduler, RandomSeat, RecordingPresenter

__all__ = ["databases"]

CONFIG = TableConfig(ai_delay=1.0, store_retry=5.0)


def frozen(state: GameState) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


class Witness:
    """The stored_games's action store, watched: what was stored, what was refused, and the
    state each game's last stored action left (what memory must hold)."""

    def __init__(self, inner: StoredActions) -> None:
        self.inner = inner
        self.stored: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        self.last: dict[int, str] = {}

    async def record(self, accepted: AcceptedAction) -> None:
        kind = str(accepted.action["type"])
        try:
            await self.inner.record(accepted)
        except Exception:
            self.refused[kind] += 1
            raise
        self.stored[kind] += 1
        self.last[accepted.game_id] = frozen(accepted.state)

    async def stored_after(self, game_id: int, version: int) -> list[dict[str, Any]]:
        return await self.inner.stored_after(game_id, version)


async def ai_game(hub: GameHub, stored_games: StoredGames, witness: Witness, seed: int) -> Table:
    """A game of AI seats only, stored as the hub stores a game (the hub's `start`
    wants a person at the table)."""
    players = 3 + seed % 4
    lobby = Lobby(0, 1, 5000 + seed, 100)
    for _ in range(players):
        lobby.add_ai(100, "random")
    lobby.lobby_id = await stored_games.open_lobby(lobby, "en")
    state, events = new_game(load_ruleset(), players, seed)
    table = hub.add_table(lobby.lobby_id, state, lobby, CONFIG)
    table.seed = seed
    deadline = hub.scheduler.now() + CONFIG.timers.seconds_for(state.step)
    await stored_games.start_game(
        lobby.lobby_id,
        seats=lobby.seats,
        variants=[],
        timers=CONFIG.timers,
        seed=seed,
        state=state,
        deadline=deadline,
    )
    witness.last[table.game_id] = frozen(state)
    await table.begin(events, deadline)
    return table


class Games:
    """Several all-AI games on one hub, one stored_games and one manual clock."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.stored_games = StoredGames(BatchingGameRepository(database))
        self.witness = Witness(self.stored_games.actions)
        self.scheduler = ManualScheduler()
        self.hub = GameHub(
            self.scheduler,
            lambda kind, index, _seed: RandomSeat(index * 7919 + 1),
            lambda game_id, lobby: RecordingPresenter(),
            store=self.witness,
            stored_games=self.stored_games,
        )
        self.tables: list[Table] = []

    async def open(self, seeds: list[int]) -> None:
        for seed in seeds:
            self.tables.append(await ai_game(self.hub, self.stored_games, self.witness, seed))

    async def tick(self, check: bool = True) -> None:
        """Run whatever falls due next, then check every game against its last save."""
        due = self.scheduler.next_due()
        assert due is not None, "every game stalled"
        await self.scheduler.advance(due - self.scheduler.now())
        if check:
            self.check_memory()

    def check_memory(self) -> None:
        for table in self.tables:
            assert frozen(table.state) == self.witness.last[table.game_id], (
                f"game {table.game_id}: memory differs from its last stored action"
            )

    async def check_stored(self) -> None:
        """Each game's stored log replays to its stored snapshot, which is memory's state."""
        for table in self.tables:
            record = await self.stored_games.games.get_game(table.game_id)
            log = [row.action for row in await self.stored_games.games.action_log(table.game_id)]
            assert record.snapshot is not None
            assert len(log) == record.version == table.state.version
            assert frozen(rebuild(record, log)) == frozen(GameState.from_dict(record.snapshot))
            assert frozen(GameState.from_dict(record.snapshot)) == frozen(table.state)


async def resumes_every_game(database: Database, games: Games) -> None:
    """A new process on the same database: nothing broken, every running game as it was."""
    loaded = await StoredGames(BatchingGameRepository(database)).load()
    assert loaded.broken == []
    running = {t.game_id: t for t in games.tables if not t.finished}
    assert {g.record.id for g in loaded.games} == set(running)
    for game in loaded.games:
        assert frozen(game.state) == frozen(running[game.record.id].state)


@pytest.mark.parametrize("fault", sorted(FAULTS))
async def test_each_fault_refuses_the_action_and_changes_nothing(
    databases: DatabaseFactory, fault: str
) -> None:
    """One action, refused at every point of its transaction by one kind of fault."""
    database = databases()
    await database.migrate()
    games = Games(database)
    await games.open([11])
    (table,) = games.tables
    faults = StoreFaults(database)
    for at, after in (("statement", 0), ("statement", 1), ("statement", 3), ("commit", 0)):
        before = frozen(table.state)
        refused = sum(games.witness.refused.values())
        # Twice: the write-behind batch, then its one-by-one retry.
        faults.fail_next(2, FAULTS[fault], at=at, after=after)
        await games.tick()
        assert faults.armed == 0
        assert sum(games.witness.refused.values()) == refused + 1, (at, after)
        assert frozen(table.state) == before
    await games.tick()
    assert table.state.version == 1
    await games.check_stored()
    faults.detach()


async def test_hundreds_of_refused_actions_of_every_kind_change_nothing(
    databases: DatabaseFactory,
) -> None:
    """Outages of every kind come and go while six games are played; none of them ever
    holds a change its store does not, and a restart resumes every one."""
    database = databases()
    await database.migrate()
    games = Games(database)
    await games.open([1, 2, 3, 4, 5, 6])
    faults = StoreFaults(database)
    rng = random.Random(13)
    kinds = sorted(FAULTS)
    ticks = 0
    while sum(games.witness.refused.values()) < 300 or ticks < 1500:
        if all(t.finished for t in games.tables) or ticks > 6000:
            break
        if rng.random() < 0.45:
            at = "commit" if rng.random() < 0.25 else "statement"
            with faults.outage(FAULTS[rng.choice(kinds)], at=at, after=rng.randrange(4)):
                await games.tick()
        else:
            await games.tick()
        ticks += 1
    faults.detach()
    refused, stored = games.witness.refused, games.witness.stored
    assert sum(refused.values()) >= 300, refused
    assert set(stored) <= set(refused), f"kinds never refused: {set(stored) - set(refused)}"
    assert len(refused) >= 8, refused
    await games.check_stored()
    # A few more steps with the store healthy: the games go on from where they were.
    for _ in range(50):
        if all(t.finished for t in games.tables):
            break
        await games.tick()
    await games.check_stored()
    for table in games.tables:
        table.stop()
    await resumes_every_game(databases(), games)


async def test_a_commit_whose_answer_was_lost_is_caught_up(databases: DatabaseFactory) -> None:
    """The database commits, then the connection drops before it says so: the table
    is told nothing was stored and undoes the action, so memory is one action behind
    the store. The write-behind's retry then finds the version moved; the table reads
    the actions stored beyond its copy, applies them and shows them, instead of
    refusing every later action of the game as stale."""
    database = databases()
    await database.migrate()
    games = Games(database)
    await games.open([41])
    (table,) = games.tables
    faults = StoreFaults(database)
    for _ in range(3):
        await games.tick()
    version = table.state.version
    faults.fail_next(1, connection_lost, at="after_commit")
    await games.tick(check=False)  # the witness saw a failure: it is not the judge here
    assert faults.injected == 1
    assert table.state.version == version + 1, "caught up with the stored action"
    stored = await games.stored_games.games.get_game(table.game_id)
    assert stored.version == version + 1
    assert stored.snapshot is not None
    assert frozen(GameState.from_dict(stored.snapshot)) == frozen(table.state)
    for _ in range(20):
        await games.tick(check=False)
    assert table.state.version > version + 5, "the game goes on"
    await games.check_stored()
    faults.detach()


async def test_a_click_whose_commit_answer_was_lost_is_told_it_happened(
    databases: DatabaseFactory,
) -> None:
    """The person's action was committed; only the answer was lost. The catch-up finds
    that very action next in the store, so the person is told it was done."""
    database = databases()
    await database.migrate()
    stored_games = StoredGames(BatchingGameRepository(database))
    scheduler = ManualScheduler()
    hub = GameHub(
        scheduler,
        lambda kind, index, _seed: RandomSeat(index),
        lambda game_id, lobby: RecordingPresenter(),
        stored_games=stored_games,
    )
    lobby = await hub.open_lobby(1, 2, 100, "ana")
    for _ in range(3):
        lobby.add_ai(100, "random")
    table = await hub.start(lobby, 100, False, CONFIG, seed=12)
    while 0 not in pending_seats(table.state):
        due = scheduler.next_due()
        assert due is not None
        await scheduler.advance(due - scheduler.now())
    version = table.state.version
    choice = legal_actions(table.state, 0)[0]
    faults = StoreFaults(database)
    faults.fail_next(1, connection_lost, at="after_commit")
    reply = await table.act(100, table.token, lambda seat: choice)
    assert faults.injected == 1
    assert (reply.ok, reply.key) == (True, "ui.receipt.ok")
    assert table.state.version == version + 1
    log = [row.action for row in await stored_games.games.action_log(table.game_id)]
    assert len(log) == version + 1
    record = await stored_games.games.get_game(table.game_id)
    assert frozen(rebuild(record, log)) == frozen(table.state)
    table.stop()
    faults.detach()


# Real file systems -------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[SmallDisk]:
    why = SmallDisk.why_not()
    if why is not None:
        pytest.skip(why)
    disk = SmallDisk(tmp_path / "disk")
    try:
        disk.mount()
    except OSError as exc:
        pytest.skip(str(exc))
    try:
        yield disk
    finally:
        disk.unmount()


@pytest.fixture
async def disk_games(small_disk: SmallDisk) -> AsyncIterator[tuple[Games, SmallDisk]]:
    database = Database(f"sqlite+aiosqlite:///{small_disk.root / 'lockdown.db'}")
    try:
        await database.migrate()
        yield Games(database), small_disk
    finally:
        small_disk.free()
        await database.close()


async def test_a_truck_search_during_a_full_disk_draws_nothing(
    disk_games: tuple[Games, SmallDisk],
) -> None:
    """The disk fills up while the truck is searched: no card leaves the deck until the
    search is stored, and then exactly once; a restart resumes the game."""
    games, disk = disk_games
    await games.open([21, 22, 23])
    table = games.tables[0]
    for _ in range(3000):
        vote = table.state.vote
        if vote is not None and vote.kind == "truck" and table.state.step == Step.DESIGNATION:
            break
        await games.tick()
    else:
        pytest.fail("no truck vote")
    deck, drawn = list(table.state.deck), list(table.state.drawn)
    assert disk.fill() > 0
    for _ in range(40):  # AI designations, their retries and the timer's, all refused
        await games.tick()
        assert table.state.deck == deck
        assert table.state.drawn == drawn
    assert sum(games.witness.refused.values()) >= 40
    disk.free()
    for _ in range(400):
        if table.state.step not in (Step.DESIGNATION, Step.TIEBREAK, Step.TRUCK_CHOICE):
            break
        await games.tick()
    assert len(table.state.deck) < len(deck), "the search happened once the disk had room"
    await games.check_stored()
    for each in games.tables:
        each.stop()
    await resumes_every_game(games.database, games)


async def test_a_database_file_the_kernel_will_not_write(tmp_path: Path) -> None:
    """`chattr +i` on the database and its write-ahead log: writes fail with EPERM
    from the kernel (disk I/O error); nothing changes, and the game goes on after."""
    if SmallDisk.why_not() is not None:
        pytest.skip("chattr +i needs root")
    path = tmp_path / "lockdown.db"
    database = Database(f"sqlite+aiosqlite:///{path}")
    try:
        await database.migrate()
        games = Games(database)
        await games.open([31])
        for _ in range(5):
            await games.tick()
        # Not the -shm file: SQLite maps it in memory, and the kernel answers a refused
        # write to a mapped page with SIGBUS, which no test (and no bot) survives.
        files = [path, path.with_name(path.name + "-wal")]
        try:
            block = immutable(files)
            block.__enter__()
        except Exception as exc:  # chattr needs a file system that has the flag
            pytest.skip(f"chattr +i refused here: {exc}")
        try:
            for _ in range(20):
                await games.tick()
        finally:
            block.__exit__(None, None, None)
        assert sum(games.witness.refused.values()) >= 10
        for _ in range(30):
            await games.tick()
        assert sum(games.witness.stored.values()) > 5
        await games.check_stored()
        for table in games.tables:
            table.stop()
        await resumes_every_game(database, games)
    finally:
        await database.close()
