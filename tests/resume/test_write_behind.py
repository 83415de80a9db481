"""The write-behind queue: many games in one transaction, each refused or stored on its own."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.storage.errors import StaleVersion, WrongStatus
from bot.storage.models import ActionWrite, SeatProgress
from bot.storage.repository import GameRepository
from bot.storage.write_behind import WriteBehind
from tests.storage.conftest import DatabaseFactory, due, new_game, running_game, snapshot

pytestmark = pytest.mark.resume


async def test_concurrent_games_share_transactions_and_a_stale_write_fails_alone(
    databases: DatabaseFactory,
) -> None:
    database = databases()
    await database.migrate()
    games = GameRepository(database)
    ids = [await running_game(games, host_user_id=1000) for _ in range(30)]
    paused = ids.pop()
    await games.pause_game(paused, "a moderator")
    writer = WriteBehind(database, games)

    def write(game_id: int, expected: int) -> asyncio.Future[None]:
        return asyncio.ensure_future(
            writer.record_action(
                ActionWrite(
                    game_id,
                    expected,
                    0,
                    {"type": "Done", "player": 0},
                    snapshot(expected + 1),
                    expected + 1,
                    {"token": due(expected)},
                    progress=[SeatProgress(seat=0, missed_deadlines=1, ai_takeover=False)],
                )
            )
        )

    stale_game = ids[0]
    await games.record_action(ActionWrite(stale_game, 0, 0, {"type": "x"}, snapshot(1), 1, {}))
    results = await asyncio.gather(
        *(write(game_id, 0) for game_id in ids), write(paused, 0), return_exceptions=True
    )
    assert isinstance(results[0], StaleVersion)
    assert isinstance(results[-1], WrongStatus)
    assert all(result is None for result in results[1:-1])
    assert writer.batches < len(ids)
    for game_id in ids[1:]:
        stored = await games.get_game(game_id)
        assert stored.version == 1
        assert stored.seats[0].missed_deadlines == 1
        assert list(stored.deadlines) == ["token"]
        assert [row.seq for row in await games.action_log(game_id)] == [1]
    assert [row.action["type"] for row in await games.action_log(stale_game)] == ["x"]


async def test_an_idle_store_writes_at_once_and_refuses_a_skipped_version(
    databases: DatabaseFactory,
) -> None:
    database = databases()
    await database.migrate()
    games = GameRepository(database)
    game_id = await running_game(games)
    writer = WriteBehind(database, games)
    with pytest.raises(ValueError, match="can only become"):
        await writer.record_action(ActionWrite(game_id, 0, 0, {}, snapshot(2), 2, {}))
    await writer.record_action(ActionWrite(game_id, 0, 0, {"type": "Done"}, snapshot(1), 1, {}))
    assert writer.batches == 1
    assert (await games.get_game(game_id)).version == 1


async def test_the_write_behind_stores_rows_exactly_as_the_repository_does(
    databases: DatabaseFactory,
) -> None:
    """A batch and the repository's own `record_action` run the same statements
    (`bot.storage.action_writes`): every column must come out the same, each in the
    same stored form (the database's own type and text) included."""
    database = databases()
    await database.migrate()
    games = GameRepository(database)
    direct, behind = [await running_game(games) for _ in range(2)]
    progress = [SeatProgress(seat=1, missed_deadlines=2, ai_takeover=True, no_cards_turn=4)]
    action = {"type": "Done", "player": 1, "rules": 2}
    await games.record_action(
        ActionWrite(direct, 0, 1, action, snapshot(1), 1, {"step": due(5)}, progress=progress)
    )
    await WriteBehind(database, games).record_action(
        ActionWrite(behind, 0, 1, action, snapshot(1), 1, {"step": due(5)}, progress=progress)
    )
    one, other = await games.get_game(direct), await games.get_game(behind)
    assert (one.version, one.snapshot, one.deadlines, one.seats, one.status) == (
        other.version,
        other.snapshot,
        other.deadlines,
        other.seats,
        other.status,
    )
    [mine], [theirs] = await games.action_log(direct), await games.action_log(behind)
    assert (mine.seq, mine.actor, mine.action) == (theirs.seq, theirs.actor, theirs.action)
    assert theirs.created_at.tzinfo is not None
    assert abs(theirs.created_at - mine.created_at) < timedelta(minutes=1)
    # The instants of the two rows differ, their stored forms must not: naive UTC
    # text with its microseconds on SQLite, a timestamptz on PostgreSQL.
    if database.is_sqlite:
        kind, created = "typeof({})", "typeof(a.created_at), length(a.created_at)"
    else:
        kind, created = "pg_typeof({})::text", "pg_typeof(a.created_at)::text"
    forms = ", ".join(
        [
            created,
            *(
                f"{kind.format(column)}, CAST({column} AS TEXT)"
                for column in ("a.action", "g.snapshot", "d.due_at")
            ),
        ]
    )
    async with database.read() as conn:
        rows = (
            await conn.exec_driver_sql(
                f"SELECT {forms} FROM actions a JOIN games g ON g.id = a.game_id "
                "JOIN deadlines d ON d.game_id = a.game_id "
                f"WHERE a.game_id IN ({direct}, {behind}) ORDER BY a.game_id"
            )
        ).all()
    assert len(rows) == 2
    assert rows[0] == rows[1]


async def test_a_write_naming_a_seat_its_game_lacks_fails_alone_in_its_batch(
    databases: DatabaseFactory,
) -> None:
    """The batch runs the repository's checks too: its transaction is rolled back,
    each write goes again on its own, and only the bad one is refused."""
    database = databases()
    await database.migrate()
    games = GameRepository(database)
    ids = [await running_game(games) for _ in range(4)]
    bad = ids[1]
    writer = WriteBehind(database, games)

    def write(game_id: int) -> asyncio.Future[None]:
        seat = 9 if game_id == bad else 0
        progress = [SeatProgress(seat=seat, missed_deadlines=1, ai_takeover=False)]
        return asyncio.ensure_future(
            writer.record_action(
                ActionWrite(game_id, 0, 0, {"type": "Done"}, snapshot(1), 1, {}, progress=progress)
            )
        )

    results = await asyncio.gather(*(write(game_id) for game_id in ids), return_exceptions=True)
    assert isinstance(results[1], ValueError)
    assert "no seat 9" in str(results[1])
    assert [results[0], *results[2:]] == [None, None, None]
    assert (await games.get_game(bad)).version == 0
    assert await games.action_log(bad) == []
    for game_id in (ids[0], *ids[2:]):
        stored = await games.get_game(game_id)
        assert (stored.version, stored.seats[0].missed_deadlines) == (1, 1)


async def test_what_goes_past_sqlalchemy_is_stored_as_sqlalchemy_stores_it(
    databases: DatabaseFactory,
) -> None:
    """An action's transaction goes to the driver directly, aiosqlite or asyncpg
    (`Database.driver_write`), while the start of a game goes through SQLAlchemy: a
    deadline, a snapshot and an instant must be stored in one form either way (the
    database's own type and text), so that every row reads back the same."""
    database = databases()
    await database.migrate()
    games = GameRepository(database)
    started = await games.create_game(new_game())
    await games.start_game(started, seed=1, snapshot=snapshot(0), deadlines={"step": due(5)})
    played = await running_game(games)
    await WriteBehind(database, games).record_action(
        ActionWrite(played, 0, 1, {"type": "Done"}, snapshot(1), 1, {"step": due(5)})
    )
    if database.is_sqlite:
        kind, instant = "typeof({0})", "typeof({0}) || length({0})"
    else:
        kind, instant = "pg_typeof({0})::text", "pg_typeof({0})::text"
    forms = ", ".join(
        [
            kind.format("g.snapshot"),
            kind.format("d.due_at"),
            "CAST(d.due_at AS TEXT)",
            instant.format("g.created_at"),
        ]
    )
    async with database.read() as conn:
        by_sqlalchemy = (
            await conn.exec_driver_sql(
                f"SELECT {forms} FROM games g JOIN deadlines d ON d.game_id = g.id "
                f"WHERE g.id = {started}"
            )
        ).one()
        past_it = (
            await conn.exec_driver_sql(
                f"SELECT {forms.replace('g.created_at', 'a.created_at')} FROM games g "
                "JOIN deadlines d ON d.game_id = g.id JOIN actions a ON a.game_id = g.id "
                f"WHERE g.id = {played}"
            )
        ).one()
    assert tuple(past_it) == tuple(by_sqlalchemy)
