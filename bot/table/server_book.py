"""Each server's book: its settings, its campaign, its variants, its records.

The one place the Discord layer goes for a server's shared history; it knows
no discord and no database: only the campaign's rules, and storage through
the interfaces of `bot.table.store`.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.storage.errors import GameNotFound
from bot.storage.models import GameStatus, LeaderboardEntry, SettingsChange, UserStats
from bot.table.campaign import (
    VariantStatus,
    offered_variants,
    variant_epilogues,
    variant_of,
    variant_statuses,
)
from bot.table.seats import Seat
from bot.table.server_settings import ServerConfig, SettingError
from bot.table.store import GameStore, ServerStore, StatsStore
from bot.texts import choose_lang
from lockdown_core import GameState, epilogue_to_unlock

log = logging.getLogger(__name__)


class ServerBook:
    def __init__(self, servers: ServerStore, stats: StatsStore, games: GameStore) -> None:
        self.servers = servers
        self.stats = stats
        self.games = games
        # Servers whose unreadable settings row was just put aside, not yet told so.
        self._unreadable: set[int] = set()

    # Settings ------------------------------------------------------------------

    async def config(self, guild_id: int, locale: str | None = None) -> ServerConfig:
        """The server's settings; its language, until a moderator sets one, follows
        `locale`, the server's preferred locale on Discord (French reads French)."""
        stored = await self.servers.settings(guild_id)
        if stored.quarantined is not None:
            log.error(
                "server %s: its settings row could not be read (%s); kept in the settings' "
                "audit, defaults apply",
                guild_id,
                stored.quarantined,
            )
            self._unreadable.add(guild_id)
        return ServerConfig.from_stored(stored.values, choose_lang(None, locale))

    def take_unreadable(self, guild_id: int) -> bool:
        """True once after this server's unreadable settings were put aside (by `config`):
        the server is told once, as a game that cannot be loaded is."""
        if guild_id in self._unreadable:
            self._unreadable.discard(guild_id)
            return True
        return False

    async def change(
        self, guild_id: int, user_id: int, key: str, value: Any, locale: str | None = None
    ) -> ServerConfig:
        """Check one setting against its range, then store it (audited with who changed it)."""
        current = await self.config(guild_id, locale)
        changed = current.with_value(key, value)
        if key == "variants_offered" and changed.offered_variants is not None:
            for variant in changed.offered_variants:
                if variant not in variant_epilogues():
                    raise SettingError("error.variant_unknown")
        stored = changed.stored()
        await self.servers.update_settings(guild_id, user_id, {key: stored[key]})
        log.info("server %s: user %s set %s to %r", guild_id, user_id, key, stored[key])
        return changed

    async def history(self, guild_id: int, limit: int = 5) -> list[SettingsChange]:
        return await self.servers.settings_history(guild_id, limit=limit)

    # Campaign and variants -------------------------------------------------------

    async def unlocked_epilogues(self, guild_id: int) -> list[str]:
        return [e.code for e in await self.servers.epilogues(guild_id)]

    async def variants(self, guild_id: int) -> list[VariantStatus]:
        overrides = await self.servers.variant_overrides(guild_id)
        return variant_statuses(
            await self.unlocked_epilogues(guild_id),
            {key: o.unlocked for key, o in overrides.items()},
        )

    async def offered(self, guild_id: int, config: ServerConfig) -> list[str]:
        return offered_variants(config, await self.variants(guild_id))

    async def set_variant(self, guild_id: int, user_id: int, variant: str, state: str) -> None:
        """A moderator unlocks or locks a variant by hand, or gives it back to the campaign."""
        if variant not in variant_epilogues():
            raise SettingError("error.variant_unknown")
        if state == "campaign":
            await self.servers.clear_variant_override(guild_id, variant)
        else:
            await self.servers.set_variant_override(
                guild_id, variant, unlocked=state == "unlock", by_user_id=user_id
            )
        log.info("server %s: user %s set variant %s to %s", guild_id, user_id, variant, state)

    async def close_game(self, guild_id: int, game_id: int | None, state: GameState) -> str | None:
        """R10.2-R10.4 at a game's end: the epilogue this game unlocks here, if any.

        The insert is idempotent, so two games ending at once never unlock the
        same epilogue twice. The game that loses that race goes on down R10's
        order, as if the other game had ended just before it. Closing the same
        game again (a restart before its reveal was posted) unlocks nothing
        more: it returns what that game unlocked, or None again, since the
        unlocked set only grows.
        """
        if game_id is not None:
            for epilogue in await self.servers.epilogues(guild_id):
                if epilogue.game_id == game_id:
                    return epilogue.code
        unlocked = await self.unlocked_epilogues(guild_id)
        while True:
            code = epilogue_to_unlock(state, unlocked)
            if code is None:
                return None
            if await self.servers.unlock_epilogue(guild_id, code, game_id):
                break
            unlocked = [*unlocked, code]  # taken meanwhile: each turn leaves one code fewer
        log.info(
            "server %s: game %s unlocked epilogue %s (%s)",
            guild_id,
            game_id,
            code,
            variant_of(code),
        )
        return code

    async def finished_seats(self, game_id: int) -> tuple[int, list[Seat]] | None:
        """The server and seats of a finished game, for "Play again" after a restart."""
        try:
            record = await self.games.get_game(game_id)
        except GameNotFound:
            return None
        if record.status != GameStatus.FINISHED:
            return None
        seats = [Seat(s.seat, s.display_name, s.user_id, s.ai_kind) for s in record.seats]
        return record.guild_id, seats

    # Records -------------------------------------------------------------------------

    async def user_stats(self, guild_id: int, user_id: int) -> UserStats:
        return await self.stats.user_stats(user_id, guild_id=guild_id)

    async def leaderboard(self, guild_id: int) -> list[LeaderboardEntry]:
        return await self.stats.leaderboard(guild_id)
