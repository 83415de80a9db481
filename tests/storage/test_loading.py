"""Games read back: at start-up, whole or reported apart, one bad row sparing the others."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from bot.storage.database import Database
from bot.storage.errors import CorruptGame
from bot.storage.models import GameStatus, SeatResult
from bot.storage.repository import GameRepository
from tests.storage.conftest import due, new_game, play, running_game, seats, snapshot


async def test_load_running_games_brings_back_running_and_paused_games_whole(
    games: GameRepository,
) -> None:
    first = await running_game(games)
    await play(games, first, 4)
    second = await running_game(games, guild_id=5)
    await games.pause_game(second, "restart")
    await games.create_game(new_game())  # a lobby: not resumed
    finished = await running_game(games)
    await games.finish_game(finished, [SeatResult(seat=i, score=0, winner=False) for i in range(4)])

    loaded = await games.load_running_games()
    assert loaded.broken == ()
    assert [game.id for game in loaded.games] == [first, second]
    assert loaded.games[0] == await games.get_game(first)
    assert loaded.games[0].snapshot == snapshot(4)
    assert loaded.games[0].deadlines == {"step-4": due(3)}
    assert loaded.games[1].status is GameStatus.PAUSED
    assert loaded.games[1].seats == tuple(seats())


@pytest.mark.parametrize(
    ("column", "bad_value", "reason"),
    [
        ("snapshot", "{not json", "not valid JSON"),
        ("snapshot", '["a", "list"]', "not an object"),
        ("snapshot", '{"step": "vote"}', "snapshot's version None"),
        ("snapshot", '{"version": 7}', "snapshot's version 7"),
        ("snapshot", None, "without a snapshot"),
        ("timers", "{", "timers is not valid JSON"),
        ("variants", '"spare_keys"', "variants"),
    ],
)
async def test_a_corrupt_game_does_not_stop_the_others_from_loading(
    games: GameRepository, db: Database, column: str, bad_value: str | None, reason: str
) -> None:
    good = await running_game(games)
    bad = await running_game(games)
    also_good = await running_game(games)
    async with db.write() as conn:
        await conn.execute(
            text(f"UPDATE games SET {column} = :value WHERE id = :id"),
            {"value": bad_value, "id": bad},
        )
    loaded = await games.load_running_games()
    assert [game.id for game in loaded.games] == [good, also_good]
    assert [broken.game_id for broken in loaded.broken] == [bad]
    assert reason in loaded.broken[0].reason
    with pytest.raises(CorruptGame, match=reason):
        await games.get_game(bad)


async def test_a_game_whose_seats_vanished_is_reported(games: GameRepository, db: Database) -> None:
    good = await running_game(games)
    bad = await running_game(games)
    async with db.write() as conn:
        await conn.execute(text("DELETE FROM seats WHERE game_id = :id"), {"id": bad})
    loaded = await games.load_running_games()
    assert [game.id for game in loaded.games] == [good]
    assert loaded.broken[0].game_id == bad
    assert "without seats" in loaded.broken[0].reason


async def test_a_corrupt_action_is_reported_by_the_log(games: GameRepository, db: Database) -> None:
    game_id = await running_game(games)
    await play(games, game_id, 2)
    async with db.write() as conn:
        await conn.execute(text("UPDATE actions SET action = 'oops' WHERE seq = 2"))
    with pytest.raises(CorruptGame, match="action 2"):
        await games.action_log(game_id)


@pytest.mark.parametrize(
    ("bad_value", "reason"), [("oops", "action 2 is not valid JSON"), ("[1]", "action 2 is a")]
)
async def test_a_corrupt_action_breaks_its_own_game_at_start_up(
    games: GameRepository, db: Database, bad_value: str, reason: str
) -> None:
    """The start-up decodes every log at once; one bad action spares the other logs."""
    good = await running_game(games)
    bad = await running_game(games)
    for game_id in (good, bad):
        await play(games, game_id, 3)
    async with db.write() as conn:
        await conn.execute(
            text("UPDATE actions SET action = :value WHERE game_id = :id AND seq = 2"),
            {"value": bad_value, "id": bad},
        )
    loaded = await games.load_running_with_logs()
    assert reason in loaded.unreadable[bad]
    assert good not in loaded.unreadable
    assert len(loaded.logs[good]) == 3
    assert loaded.logs[good] == [row.action for row in await games.action_log(good)]


async def test_status_and_place_are_read_from_a_row_that_no_longer_decodes(
    games: GameRepository, db: Database
) -> None:
    """What a start-up needs to tell players of an unreadable game: where, in which
    language, and whether it is paused, without decoding the rest of its row."""
    lobby = await games.create_game(new_game(thread_id=None, language="en"))
    broken = await running_game(games)
    await games.pause_game(broken, "a moderator")
    async with db.write() as conn:
        await conn.execute(
            text("UPDATE games SET snapshot = 'oops' WHERE id = :id"), {"id": broken}
        )
    with pytest.raises(CorruptGame):
        await games.get_game(broken)
    assert await games.status(broken) == GameStatus.PAUSED
    assert await games.status(lobby) == GameStatus.LOBBY
    assert await games.status(404) is None
    places = await games.places([broken, lobby, 404])
    assert set(places) == {broken, lobby}
    assert (places[broken].channel_id, places[broken].language) == (3 * 10**17, "fr")
    assert (places[lobby].channel_id, places[lobby].language) == (2 * 10**17, "en")
    assert await games.places([]) == {}
