"""Every lobby and running game of the process, and how a lobby becomes a game.

The Discord layer and the terminal table both go through the hub; it knows
no discord: a `PresenterFactory` gives each game its presenter.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from collections.abc import Callable

from bot.table.lobby import Lobby, LobbyError
from bot.table.persist import StoredGames
from bot.table.scheduler import Scheduler
from bot.table.seat_players import AiFactory
from bot.table.store import ActionStore
from bot.table.table import Presenter, Table
from bot.table.timers import TableConfig
from lockdown_core import GameState, load_ruleset, new_game

PresenterFactory = Callable[[int, Lobby], Presenter]
# A change to a lobby (a join, a leave, an AI seat, a variant choice): it may
# raise LobbyError, having changed nothing.
LobbyChange = Callable[[Lobby], object]

log = logging.getLogger(__name__)


class GameHub:
    """Lobbies by id, tables by game id and by the channel (thread) they live in."""

    def __init__(
        self,
        scheduler: Scheduler,
        ai_factory: AiFactory,
        presenter_factory: PresenterFactory,
        store: ActionStore | None = None,
        stored_games: StoredGames | None = None,
    ) -> None:
        self.scheduler = scheduler
        self.ai_factory = ai_factory
        self.presenter_factory = presenter_factory
        self.stored_games = stored_games
        self.store = store if store is not None or stored_games is None else stored_games.actions
        self.lobbies: dict[int, Lobby] = {}
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self.accepting = True
        self._last_id = 0
        self._lobby_locks: dict[int, asyncio.Lock] = {}

    def next_id(self) -> int:
        """An id for a lobby without a stored_games, above every id this hub has seen."""
        self._last_id += 1
        return self._last_id

    def _seen(self, some_id: int) -> None:
        self._last_id = max(self._last_id, some_id)

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        language: str = "en",
        seat: LobbyChange | None = None,
        step_hours: int | None = None,
    ) -> Lobby:
        """A new lobby, the host seated (or seated by `seat`, as for "Play again").

        With a stored_games the lobby is stored with its seats before anyone sees it,
        and its id is the stored game's, which its game keeps.
        """
        if not self.accepting:
            raise LobbyError("error.shutting_down")
        lobby = Lobby(0, guild_id, channel_id, host_id, opened_at=self.scheduler.now())
        lobby.step_hours = step_hours
        if seat is None:
            lobby.join(host_id, host_name)
        else:
            seat(lobby)
        if self.stored_games is not None:
            lobby.lobby_id = await self.stored_games.open_lobby(lobby, language)
            self._seen(lobby.lobby_id)
        else:
            lobby.lobby_id = self.next_id()
        self.lobbies[lobby.lobby_id] = lobby
        return lobby

    async def drop_lobby(self, lobby_id: int) -> None:
        """A lobby that could not be shown (Discord refused its thread): gone, row and all."""
        self.lobbies.pop(lobby_id, None)
        self._lobby_locks.pop(lobby_id, None)
        if self.stored_games is not None:
            await self.stored_games.abort(lobby_id)

    async def expire_lobby(self, lobby: Lobby) -> bool:
        """A lobby its server's time-out closes: gone, row and all, unless it started or
        went away meanwhile (then False, and nothing changes). Under its lock, so a
        click that waits behind it finds the lobby gone."""
        async with self._lock_of(lobby.lobby_id):
            if self.lobbies.get(lobby.lobby_id) is not lobby:
                return False
            await self.drop_lobby(lobby.lobby_id)
            return True

    def restore_lobby(self, lobby: Lobby) -> None:
        """A stored lobby back after a restart; new ids stay clear of its id."""
        self._seen(lobby.lobby_id)
        self.lobbies[lobby.lobby_id] = lobby

    def _lock_of(self, lobby_id: int) -> asyncio.Lock:
        return self._lobby_locks.setdefault(lobby_id, asyncio.Lock())

    async def change_lobby(self, lobby: Lobby, change: LobbyChange) -> None:
        """Change a lobby and store it before anyone is told; one change at a time.

        A `LobbyError` from `change` leaves the lobby as it was. If storing
        fails, the lobby is put back as it was (and as it is stored) and a
        `LobbyError("error.try_again")` says so. A lobby that started or went
        away while this click waited is `error.lobby_gone`.
        """
        async with self._lock_of(lobby.lobby_id):
            if self.lobbies.get(lobby.lobby_id) is not lobby:
                raise LobbyError("error.lobby_gone")
            seats = [dataclasses.replace(s) for s in lobby.seats]
            variants = list(lobby.variants)
            try:
                change(lobby)
                if self.stored_games is not None:
                    await self.stored_games.store_lobby(lobby)
            except LobbyError:
                lobby.seats, lobby.variants = seats, variants
                raise
            except Exception as exc:
                lobby.seats, lobby.variants = seats, variants
                log.exception("lobby %s: could not store a change; it was undone", lobby.lobby_id)
                raise LobbyError("error.try_again") from exc

    async def status_of(self, game_id: int) -> str | None:
        """A game without a table here as the store knows it (`paused` when it could not
        be loaded); None without a stored_games, or for a game the store does not have."""
        if self.stored_games is None:
            return None
        return await self.stored_games.status(game_id)

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
        game_variants: Callable[[Lobby], list[str]] | None = None,
    ) -> Table:
        """Check the lobby, deal the game and show its opening; the lobby is gone after.

        Under the lobby's lock, so the game is dealt with the seats and variants
        the last stored change left. `game_variants` turns the lobby's chosen
        variants into the game's (a server's settings may add some); the lobby
        itself keeps its choice, in case the start fails. With a stored_games the
        game is stored (running, with its seed) before anyone sees it. The
        game keeps the lobby's id either way.
        """
        if not self.accepting:
            raise LobbyError("error.shutting_down")
        async with self._lock_of(lobby.lobby_id):
            if self.lobbies.get(lobby.lobby_id) is not lobby:
                raise LobbyError("error.lobby_gone")
            lobby.check_start(user_id, is_moderator)
            variants = list(lobby.variants) if game_variants is None else game_variants(lobby)
            game_seed = seed if seed is not None else secrets.randbits(63)
            # The AI seats' own seed, drawn apart: nothing they draw follows the game's.
            ai_seed = secrets.randbits(63)
            state, events = new_game(load_ruleset(variants), len(lobby.seats), game_seed)
            game_id = lobby.lobby_id
            table = self.add_table(game_id, state, lobby, config, ai_seed)
            table.seed = game_seed
            del self.lobbies[lobby.lobby_id]
            if self.stored_games is not None:
                try:
                    await self.stored_games.start_game(
                        game_id,
                        seats=lobby.seats,
                        variants=variants,
                        timers=config.timers,
                        seed=game_seed,
                        ai_seed=ai_seed,
                        state=state,
                        deadline=self.scheduler.now() + config.timers.seconds_for(state.step),
                        practice=lobby.practice,
                    )
                except Exception:
                    self.close(game_id)
                    self.lobbies[lobby.lobby_id] = lobby
                    raise
            self._lobby_locks.pop(lobby.lobby_id, None)
            await table.begin(events)
            return table

    async def board_posted(self, game_id: int, message_id: int) -> None:
        """The presenter posted a game's board: remember it for the next start."""
        if self.stored_games is not None:
            await self.stored_games.board_posted(game_id, message_id)

    def add_table(
        self,
        game_id: int,
        state: GameState,
        lobby: Lobby,
        config: TableConfig,
        ai_seed: int | str | None = None,
    ) -> Table:
        """Register a table (a new game, or one resumed from the database, with the seed of
        its AI seats as stored: None for a game stored without one)."""
        table = Table(
            game_id,
            state,
            lobby.seats,
            self.presenter_factory(game_id, lobby),
            self.scheduler,
            self.ai_factory,
            config,
            self.store,
            ai_seed,
        )
        self.tables[game_id] = table
        self.by_channel[lobby.channel_id] = game_id
        self._seen(game_id)
        return table

    async def abort(self, game_id: int) -> None:
        """A game given up: it leaves the hub and is never resumed."""
        self.close(game_id)
        if self.stored_games is not None:
            await self.stored_games.abort(game_id)

    def close(self, game_id: int) -> None:
        table = self.tables.pop(game_id, None)
        if table is not None:
            table.stop()
            self.by_channel = {c: g for c, g in self.by_channel.items() if g != game_id}
