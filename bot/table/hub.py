"""Every lobby and running game of the process, and how a lobby becomes a game.

The Discord layer and the terminal table both go through the hub; it knows
no discord: a `PresenterFactory` gives each game its presenter.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable

from bot.table.lobby import Lobby, LobbyError
from bot.table.presenter import Presenter
from bot.table.scheduler import Scheduler
from bot.table.table import ActionStore, AiFactory, Table, TableConfig
from lockdown_core import GameState, load_ruleset, new_game

PresenterFactory = Callable[[int, Lobby], Presenter]


class GameHub:
    """Lobbies by id, tables by game id and by the channel (thread) they live in."""

    def __init__(
        self,
        scheduler: Scheduler,
        ai_factory: AiFactory,
        presenter_factory: PresenterFactory,
        store: ActionStore | None = None,
    ) -> None:
        self.scheduler = scheduler
        self.ai_factory = ai_factory
        self.presenter_factory = presenter_factory
        self.store = store
        self.lobbies: dict[int, Lobby] = {}
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self.accepting = True
        self._ids = itertools.count(1)

    def next_id(self) -> int:
        return next(self._ids)

    def open_lobby(self, guild_id: int, channel_id: int, host_id: int, host_name: str) -> Lobby:
        if not self.accepting:
            raise LobbyError("error.shutting_down")
        lobby = Lobby(self.next_id(), guild_id, channel_id, host_id)
        lobby.join(host_id, host_name)
        self.lobbies[lobby.lobby_id] = lobby
        return lobby

    def table_in(self, channel_id: int) -> Table | None:
        game_id = self.by_channel.get(channel_id)
        return self.tables.get(game_id) if game_id is not None else None

    async def start(
        self,
        lobby: Lobby,
        user_id: int,
        is_moderator: bool,
        config: TableConfig,
        seed: int | None = None,
    ) -> Table:
        """Check the lobby, deal the game and show its opening; the lobby is gone after."""
        if not self.accepting:
            raise LobbyError("error.shutting_down")
        lobby.check_start(user_id, is_moderator)
        game_seed = seed if seed is not None else secrets.randbits(63)
        state, events = new_game(load_ruleset(lobby.variants), len(lobby.seats), game_seed)
        table = self.add_table(lobby.lobby_id, state, lobby, config)
        table.seed = game_seed
        del self.lobbies[lobby.lobby_id]
        await table.begin(events)
        return table

    def add_table(self, game_id: int, state: GameState, lobby: Lobby, config: TableConfig) -> Table:
        """Register a table (a new game, or one resumed from the database)."""
        table = Table(
            game_id,
            state,
            lobby.seats,
            self.presenter_factory(game_id, lobby),
            self.scheduler,
            self.ai_factory,
            config,
            self.store,
        )
        self.tables[game_id] = table
        self.by_channel[lobby.channel_id] = game_id
        return table

    def close(self, game_id: int) -> None:
        table = self.tables.pop(game_id, None)
        if table is not None:
            table.stop()
            self.by_channel = {c: g for c, g in self.by_channel.items() if g != game_id}
