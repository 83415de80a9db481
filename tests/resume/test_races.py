"""Two writers, fifty clicks at once: every accepted action is stored exactly once."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

import pytest

from bot.storage.repository import GameRepository
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.lobby import Lobby
from bot.table.persist import StoredGames
from bot.table.reply import Reply
from bot.table.table import Table
from bot.table.timers import TableConfig
from lockdown_core import Action, Designate, Step, legal_actions, pending_seats
from tests.resume.helpers import stored_replay
from tests.storage.conftest import DatabaseFactory
from tests.table.fakes import ManualScheduler, RandomSeat, RecordingPresenter

pytestmark = pytest.mark.resume


def make_hub(stored_games: StoredGames, scheduler: ManualScheduler) -> GameHub:
    return GameHub(
        scheduler,
        lambda kind, index, _seed: RandomSeat(index),
        lambda game_id, lobby: RecordingPresenter(),
        stored_games=stored_games,
    )


async def start_game(hub: GameHub, people: int, seed: int) -> Table:
    lobby = await hub.open_lobby(1, 2, 100, "P0")
    for index in range(1, people):
        lobby.join(100 + index, f"P{index}")
    return await hub.start(lobby, 100, False, TableConfig(ai_delay=1.0), seed=seed)


async def until_step(table: Table, scheduler: ManualScheduler, step: str) -> None:
    """Let the timers play the defaults until the game reaches `step`."""
    for _ in range(2000):
        if table.state.step == step:
            return
        due = scheduler.next_due()
        assert due is not None
        await scheduler.advance(due - scheduler.now())
    pytest.fail(f"never reached {step}")


async def test_fifty_simultaneous_ballots_count_each_voter_once(
    databases: DatabaseFactory,
) -> None:
    database = databases()
    await database.migrate()
    scheduler = ManualScheduler()
    hub = make_hub(StoredGames(BatchingGameRepository(database)), scheduler)
    table = await start_game(hub, 6, seed=3)
    await until_step(table, scheduler, Step.DESIGNATION)
    vote = table.state.vote
    assert vote is not None
    voters = pending_seats(table.state)
    candidates = list(vote.candidates)
    before = table.state.version
    token = table.token
    rng = random.Random(50)
    ballots = [(voters[i % len(voters)], rng.choice(candidates)) for i in range(50)]

    def ballot(candidate: int) -> Callable[[int], Action]:
        return lambda seat: Designate(seat, candidate)

    replies: list[Reply] = await asyncio.gather(
        *(table.act(100 + voter, token, ballot(candidate)) for voter, candidate in ballots)
    )
    accepted = sum(1 for reply in replies if reply.ok)
    assert accepted >= len(voters)
    assert {reply.key for reply in replies if not reply.ok} <= {"error.stale"}
    revealed = [e for e in table.public_log if e.kind == "designations_revealed"][-1]
    assert sorted(int(v) for v in revealed.data["designations"]) == sorted(voters)
    assert sum(revealed.data["totals"].values()) == sum(revealed.data["weights"].values())
    log = await GameRepository(database).action_log(table.game_id, after=before)
    assert len(log) == accepted == table.state.version - before
    replayed = await stored_replay(database, table.game_id)
    assert replayed.to_dict() == table.state.to_dict()


async def test_a_lost_write_race_is_refused_clearly_and_never_applied(
    databases: DatabaseFactory,
) -> None:
    first_db, second_db = databases(), databases()
    await first_db.migrate()
    scheduler = ManualScheduler()
    winner_hub = make_hub(StoredGames(BatchingGameRepository(first_db)), scheduler)
    winner = await start_game(winner_hub, 3, seed=5)
    # A second process holding the same game (it should never happen; it must be safe).
    second_stored_games = StoredGames(BatchingGameRepository(second_db))
    loaded = await second_stored_games.load()
    (stored,) = loaded.games
    loser_hub = make_hub(second_stored_games, ManualScheduler())
    record = stored.record
    lobby = Lobby(record.id, record.guild_id, record.channel_id, record.host_user_id, stored.seats)
    loser = loser_hub.add_table(record.id, stored.state, lobby, TableConfig())
    await loser.begin([], stored.deadline)

    seat = pending_seats(winner.state)[0]
    choice = legal_actions(winner.state, seat)
    version = winner.state.version
    won = await winner.act(100 + seat, winner.token, lambda s: choice[0])
    assert won.ok
    snapshot = loser.state.to_dict()
    lost = await loser.act(100 + seat, loser.token, lambda s: choice[-1])
    assert not lost.ok
    assert lost.key == "error.stale"
    assert loser.state.to_dict() != snapshot, "the loser caught up with the stored action"
    assert loser.state.to_dict() == winner.state.to_dict(), "and the refused one left no trace"
    log = await GameRepository(first_db).action_log(record.id)
    assert [row.seq for row in log] == [version + 1]
    replayed = await stored_replay(first_db, record.id)
    assert replayed.to_dict() == winner.state.to_dict()
