"""Games: lobby, start, the compare-and-swap of every action, pauses, the end."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.storage.database import Database
from bot.storage.errors import GameNotFound, StaleVersion, WrongStatus
from bot.storage.models import ActionWrite, GameStatus, SeatProgress, SeatRecord, SeatResult
from bot.storage.repository import GameRepository, seed_digest
from tests.storage.conftest import (
    Clock,
    DatabaseFactory,
    due,
    new_game,
    play,
    running_game,
    seats,
    snapshot,
)

# Lobby and start -----------------------------------------------------------------------


async def test_a_lobby_keeps_its_table_and_seats(games: GameRepository) -> None:
    game_id = await games.create_game(new_game())
    game = await games.get_game(game_id)
    assert game.status is GameStatus.LOBBY
    assert (game.guild_id, game.channel_id, game.thread_id) == (10**17, 2 * 10**17, 3 * 10**17)
    assert (game.language, game.variants, game.timers) == (
        "fr",
        ("spare_keys",),
        {"discussion": 120},
    )
    assert game.seats == tuple(seats())
    assert (game.snapshot, game.seed, game.version, game.deadlines) == (None, None, 0, {})
    assert game.created_at.tzinfo is not None


async def test_lobby_seats_change_until_the_start(games: GameRepository) -> None:
    game_id = await games.create_game(new_game(seats=()))
    await games.replace_seats(game_id, seats(humans=2, ais=0))
    await games.replace_seats(game_id, seats(humans=4, ais=1))
    assert len((await games.get_game(game_id)).seats) == 5
    with pytest.raises(ValueError, match="seat numbers"):
        await games.replace_seats(game_id, [SeatRecord(seat=1, display_name="Gap", user_id=5)])


async def test_start_stores_the_seed_its_digest_the_first_snapshot_and_deadlines(
    games: GameRepository,
) -> None:
    game_id = await games.create_game(new_game())
    final = seats(humans=3, ais=2)
    await games.start_game(
        game_id,
        seed=2**62 + 7,
        snapshot=snapshot(0),
        deadlines={"placement": due()},
        seats=final,
        variants=["creche"],
    )
    game = await games.get_game(game_id)
    assert game.status is GameStatus.RUNNING
    assert game.seed == str(2**62 + 7)
    assert game.seed_sha256 == seed_digest(2**62 + 7) != seed_digest(2**62 + 8)
    assert (game.version, game.snapshot) == (0, snapshot(0))
    assert game.deadlines == {"placement": due()}
    assert game.seats == tuple(final)
    assert game.variants == ("creche",)
    with pytest.raises(WrongStatus):
        await games.start_game(game_id, seed=1, snapshot=snapshot(0), deadlines={})


async def test_a_game_without_seats_does_not_start(games: GameRepository) -> None:
    game_id = await games.create_game(new_game(seats=()))
    with pytest.raises(ValueError, match="no seats"):
        await games.start_game(game_id, seed=1, snapshot=snapshot(0), deadlines={})
    assert (await games.get_game(game_id)).status is GameStatus.LOBBY


async def test_unknown_games_are_named(games: GameRepository) -> None:
    with pytest.raises(GameNotFound):
        await games.get_game(404)
    with pytest.raises(GameNotFound):
        await games.record_action(ActionWrite(404, 0, None, {}, snapshot(1), 1, {}))
    with pytest.raises(GameNotFound):
        await games.set_board_message(404, 1)
    with pytest.raises(GameNotFound):
        await games.action_log(404)


# Actions ---------------------------------------------------------------------------------


async def test_sequential_actions_keep_seq_dense_and_the_snapshot_current(
    games: GameRepository,
) -> None:
    game_id = await running_game(games)
    await play(games, game_id, 30)
    log = await games.action_log(game_id)
    assert [record.seq for record in log] == list(range(1, 31))
    assert log[4].actor == 4 % 3
    assert log[4].action == {"type": "vote", "target": 4 % 4}
    assert [record.seq for record in await games.action_log(game_id, after=28)] == [29, 30]
    game = await games.get_game(game_id)
    assert (game.version, game.snapshot) == (30, snapshot(30))
    assert game.deadlines == {"step-30": due(29)}


async def test_a_table_action_has_no_actor(games: GameRepository) -> None:
    game_id = await running_game(games)
    await games.record_action(
        ActionWrite(game_id, 0, None, {"type": "timeout"}, snapshot(1), 1, {})
    )
    assert (await games.action_log(game_id))[0].actor is None


async def test_fifty_concurrent_writers_on_one_version_exactly_one_wins(
    games: GameRepository,
) -> None:
    game_id = await running_game(games)

    async def attempt(i: int) -> int | StaleVersion:
        try:
            await games.record_action(
                ActionWrite(game_id, 0, i % 4, {"click": i}, snapshot(1, by=i), 1, {"vote": due(i)})
            )
        except StaleVersion as refused:
            return refused
        return i

    outcomes = await asyncio.gather(*(attempt(i) for i in range(50)))
    winners = [outcome for outcome in outcomes if isinstance(outcome, int)]
    refused = [outcome for outcome in outcomes if isinstance(outcome, StaleVersion)]
    assert len(winners) == 1
    assert len(refused) == 49
    assert all((r.expected, r.actual) == (0, 1) for r in refused)
    (winner,) = winners
    log = await games.action_log(game_id)
    assert [(record.seq, record.action) for record in log] == [(1, {"click": winner})]
    game = await games.get_game(game_id)
    assert game.snapshot == snapshot(1, by=winner)
    assert game.deadlines == {"vote": due(winner)}


async def test_concurrent_writers_from_two_processes_never_apply_twice(
    databases: DatabaseFactory, db: Database
) -> None:
    """Two database handles, as two bot processes would have: no shared lock in Python."""
    first, second = GameRepository(db), GameRepository(databases())
    game_id = await running_game(first)

    async def attempt(i: int) -> bool:
        try:
            await (first, second)[i % 2].record_action(
                ActionWrite(game_id, 0, None, {"n": i}, snapshot(1), 1, {})
            )
        except StaleVersion:
            return False
        return True

    outcomes = await asyncio.gather(*(attempt(i) for i in range(40)))
    assert outcomes.count(True) == 1
    assert len(await second.action_log(game_id)) == 1


async def test_a_stale_write_changes_nothing(games: GameRepository) -> None:
    game_id = await running_game(games)
    await play(games, game_id, 3)
    before = await games.get_game(game_id)
    with pytest.raises(StaleVersion) as refused:
        await games.record_action(
            ActionWrite(
                game_id,
                2,
                1,
                {"late": True},
                snapshot(3, late=True),
                3,
                {"other": due()},
                progress=[SeatProgress(seat=0, missed_deadlines=2, ai_takeover=True)],
            )
        )
    assert (refused.value.expected, refused.value.actual) == (2, 3)
    assert await games.get_game(game_id) == before
    assert len(await games.action_log(game_id)) == 3


async def test_seat_progress_is_stored_with_the_action(games: GameRepository) -> None:
    game_id = await running_game(games)
    await games.record_action(
        ActionWrite(
            game_id,
            0,
            None,
            {"type": "timeout"},
            snapshot(1),
            1,
            {},
            progress=[SeatProgress(seat=1, missed_deadlines=3, ai_takeover=True, no_cards_turn=2)],
        )
    )
    seat = (await games.get_game(game_id)).seats[1]
    assert (seat.missed_deadlines, seat.ai_takeover, seat.no_cards_turn) == (3, True, 2)
    with pytest.raises(ValueError, match="no seat 9"):
        await games.record_action(
            ActionWrite(
                game_id,
                1,
                None,
                {},
                snapshot(2),
                2,
                {},
                progress=[SeatProgress(seat=9, missed_deadlines=1, ai_takeover=False)],
            )
        )
    assert (await games.get_game(game_id)).version == 1  # the whole action was undone


async def test_inconsistent_versions_are_refused_before_writing(games: GameRepository) -> None:
    game_id = await running_game(games)
    with pytest.raises(ValueError, match="can only become 1"):
        await games.record_action(ActionWrite(game_id, 0, None, {}, snapshot(2), 2, {}))
    with pytest.raises(ValueError, match="snapshot's version"):
        await games.record_action(ActionWrite(game_id, 0, None, {}, snapshot(5), 1, {}))
    with pytest.raises(ValueError, match="naive"):
        await games.record_action(
            ActionWrite(game_id, 0, None, {}, snapshot(1), 1, {"x": datetime(2026, 1, 1)})
        )
    assert await games.action_log(game_id) == []


async def test_deadlines_are_utc_instants_whatever_zone_they_came_in(
    games: GameRepository,
) -> None:
    game_id = await running_game(games)
    paris = timezone(timedelta(hours=1))
    await games.record_action(
        ActionWrite(
            game_id,
            0,
            None,
            {},
            snapshot(1),
            1,
            {"vote": datetime(2026, 3, 1, 22, 30, tzinfo=paris)},
        )
    )
    stored = (await games.get_game(game_id)).deadlines["vote"]
    assert stored == datetime(2026, 3, 1, 21, 30, tzinfo=UTC)
    assert stored.utcoffset() == timedelta(0)


# Life cycle ------------------------------------------------------------------------------


async def test_pause_refuses_actions_until_resumed(games: GameRepository) -> None:
    game_id = await running_game(games)
    await games.pause_game(game_id, "a moderator paused the game")
    game = await games.get_game(game_id)
    assert (game.status, game.paused_reason) == (GameStatus.PAUSED, "a moderator paused the game")
    assert game.deadlines == {"placement": due()}  # kept, to re-arm on resume
    with pytest.raises(WrongStatus):
        await games.record_action(ActionWrite(game_id, 0, None, {}, snapshot(1), 1, {}))
    await games.resume_game(game_id)
    assert (await games.get_game(game_id)).paused_reason is None
    await play(games, game_id, 1)
    with pytest.raises(WrongStatus):
        await games.resume_game(game_id)


async def test_board_message_id_is_kept(games: GameRepository) -> None:
    game_id = await running_game(games)
    await games.set_board_message(game_id, 9 * 10**17)
    assert (await games.get_game(game_id)).board_message_id == 9 * 10**17


async def test_finish_records_one_result_per_seat_and_ends_the_game(
    games: GameRepository, clock: Clock
) -> None:
    game_id = await running_game(games)
    await play(games, game_id, 2)
    results = [
        SeatResult(seat=i, score=10 - i, winner=i == 0, survivors_by_kind={"leader": 1})
        for i in range(4)
    ]
    with pytest.raises(ValueError, match="results for seats"):
        await games.finish_game(game_id, results[:3])
    await games.finish_game(game_id, results)
    game = await games.get_game(game_id)
    assert game.status is GameStatus.FINISHED
    assert game.finished_at == clock.now
    assert game.deadlines == {}
    with pytest.raises(WrongStatus):
        await games.finish_game(game_id, results)
    with pytest.raises(WrongStatus):
        await games.record_action(ActionWrite(game_id, 2, None, {}, snapshot(3), 3, {}))


async def test_aborted_games_are_not_resumed(games: GameRepository) -> None:
    lobby = await games.create_game(new_game())
    running = await running_game(games)
    await games.abort_game(lobby)
    await games.abort_game(running)
    assert (await games.get_game(running)).status is GameStatus.ABORTED
    assert (await games.load_running_games()).games == ()
    with pytest.raises(WrongStatus):
        await games.abort_game(running)
