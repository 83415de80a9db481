"""A game stored by the bot before issue 15's rule fixes still resumes at start-up.

The game of `tests/core/stored/games_before_issue15.json` that was stored mid-way
(seed "old/4/2", 55 actions, a late card after a Done and a move from a full
destination among them) is written into a database as the bot of that time wrote
it: its seed, its actions without a rules revision mark, and last the snapshot
that code stored. `StoredGames.load`, the start-up path, must rebuild that
snapshot from the seed and the log and hand the game back to be played on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.storage.database import Database
from bot.storage.models import ActionWrite
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.persist import StoredGames
from bot.table.timers import TableConfig
from lockdown_core import GameState, Step, actor, apply, legal_actions, pending_seats
from lockdown_core.actions import REVISION_KEY, action_from_dict, action_revision
from tests.table.fakes import ManualScheduler, RandomSeat, RecordingPresenter

FIXTURE = Path(__file__).parents[1] / "core" / "stored" / "games_before_issue15.json"


def stored_mid_way() -> dict[str, Any]:
    games = json.loads(FIXTURE.read_text(encoding="utf-8"))["games"]
    game: dict[str, Any] = next(g for g in games if "stored_at" in g)
    return game


async def test_a_game_stored_before_rules_revision_2_resumes_at_start_up(tmp_path: Path) -> None:
    game = stored_mid_way()
    count = game["stored_at"]["actions"]
    old_log: list[dict[str, Any]] = game["actions"][:count]
    assert all(REVISION_KEY not in data for data in old_log)
    async with Database(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}") as database:
        await database.migrate()
        scheduler = ManualScheduler()
        hub = GameHub(
            scheduler,
            lambda kind, index, _seed: RandomSeat(index),
            lambda game_id, lobby: RecordingPresenter(),
            stored_games=StoredGames(BatchingGameRepository(database)),
        )
        lobby = await hub.open_lobby(1, 2, 100, "ana")
        for _ in range(3):
            lobby.add_ai(100, "random")
        # The fixture's seed is text, which the store keeps as it is (persist.stored_seed).
        table = await hub.start(
            lobby,
            100,
            False,
            TableConfig(),
            seed=game["seed"],
        )
        hub.close(table.game_id)
        games = StoredGames(BatchingGameRepository(database)).games
        state = table.state
        for version, data in enumerate(old_log):
            action = action_from_dict(data)
            apply(state, action, action_revision(data))
            last = version + 1 == count
            snapshot = game["stored_at"]["snapshot"] if last else state.to_dict()
            await games.record_action(
                ActionWrite(table.game_id, version, actor(action), data, snapshot, version + 1, {})
            )

        loaded = await StoredGames(BatchingGameRepository(database)).load()
    assert loaded.broken == []
    (resumed,) = loaded.games
    assert resumed.state.to_dict() == GameState.from_dict(game["stored_at"]["snapshot"]).to_dict()
    # It plays on under the current rules.
    assert resumed.state.step != Step.GAME_OVER
    seat = pending_seats(resumed.state)[0]
    assert legal_actions(resumed.state, seat)
