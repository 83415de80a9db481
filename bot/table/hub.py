"""Every lobby and running game of the process, and how a lobby becomes a game.

The Discord layer and the terminal table both go through the hub; it knows
no discord: a `PresenterFactory` gives each game its presenter.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable

from bot.table.lobby import Lobby, LobbyError
from bot.table.persist import GameKeeper
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
        keeper: GameKeeper | None = None,
    ) -> None:
        self.scheduler = scheduler
        self.ai_factory = ai_factory
        self.presenter_factory = presenter_factory
        self.keeper = keeper
        self.store = store if store is not None or keeper is None else keeper.actions
        self.lobbies: dict[int, Lobby] = {}
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self.accepting = True
        self._ids = itertools.count(1)

    def next_id(self) -> int:
        return next(self._ids)

    async def open_lobby(
        self, guild_id: int, channel_id: int, host_id: int, host_name: str, language: str = "en"
    ) -> Lobby:
        """A new lobby; with a keeper its id is the stored game's, which its game keeps."""
        if not self.accepting:
            raise LobbyError("error.shutting_down")
        lobby_id = self.next_id()
        if self.keeper is not None:
            lobby_id = await self.keeper.open_lobby(guild_id, channel_id, host_id, language)
        lobby = Lobby(lobby_id, guild_id, channel_id, host_id)
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
        """Check the lobby, deal the game and show its opening; the lobby is gone after.

        With a keeper the game is stored (running, with its seed) before anyone
        sees it. The game keeps the lobby's id either way.
        """
        if not self.accepting:
            raise LobbyError("error.shutting_down")
        lobby.check_start(user_id, is_moderator)
        game_seed = seed if seed is not None else secrets.randbits(63)
        state, events = new_game(load_ruleset(lobby.variants), len(lobby.seats), game_seed)
        game_id = lobby.lobby_id
        table = self.add_table(game_id, state, lobby, config)
        table.seed = game_seed
        del self.lobbies[lobby.lobby_id]
        if self.keeper is not None:
            try:
                await self.keeper.start_game(
                    game_id,
                    seats=lobby.seats,
                    variants=lobby.variants,
                    timers=config.timers,
                    seed=game_seed,
                    state=state,
                    deadline=self.scheduler.now() + config.timers.seconds_for(state.step),
                )
            except Exception:
                self.close(game_id)
                self.lobbies[lobby.lobby_id] = lobby
                raise
        await table.begin(events)
        return table

    async def board_posted(self, game_id: int, message_id: int) -> None:
        """The presenter posted a game's board: remember it for the next start."""
        if self.keeper is not None:
            await self.keeper.board_posted(game_id, message_id)

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

    async def abort(self, game_id: int) -> None:
        """A game given up: it leaves the hub and is never resumed."""
        self.close(game_id)
        if self.keeper is not None:
            await self.keeper.abort(game_id)

    def close(self, game_id: int) -> None:
        table = self.tables.pop(game_id, None)
        if table is not None:
            table.stop()
            self.by_channel = {c: g for c, g in self.by_channel.items() if g != game_id}
