"""The Discord bot process: wiring settings, storage, the hub and the cog together."""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any

import discord
from discord.ext import commands

from bot.ai_seats import make_ai
from bot.discord_ui.cog import CatalogTranslator, LockdownCog
from bot.discord_ui.components import DYNAMIC_ITEMS
from bot.discord_ui.moderation import Moderation, attach
from bot.discord_ui.resume import resume_games
from bot.discord_ui.service import GameService
from bot.settings import Settings
from bot.storage.database import Database
from bot.table.hub import GameHub
from bot.table.persist import GameKeeper
from bot.table.scheduler import AsyncioScheduler, Scheduler
from bot.table.server_book import ServerBook
from bot.table.table import TableConfig

log = logging.getLogger(__name__)


class LockdownBot(commands.Bot):
    """A bot that needs no privileged intent: it reads interactions, not messages."""

    def __init__(
        self,
        settings: Settings,
        *,
        scheduler: Scheduler | None = None,
        config: TableConfig | None = None,
        batch_delay: float = 0.4,
        database: Database | None = None,
        **options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, **options)
        self.settings = settings
        self.scheduler = scheduler or AsyncioScheduler()
        self.config = config or TableConfig()
        self.database = database or Database(settings.database_url)
        self.keeper = GameKeeper(self.database)
        self.hub = GameHub(self.scheduler, make_ai, self._presenter_for, keeper=self.keeper)
        self.service = GameService(self, self.hub, self.config, batch_delay=batch_delay)
        self.moderation = Moderation(self.service, ServerBook(self.database))
        self.service.moderation = self.moderation

    def _presenter_for(self, game_id: int, lobby: Any) -> Any:
        return self.service.make_presenter(game_id, lobby)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())
        self.tree.error(self._command_failed)
        await self.add_cog(LockdownCog(self.service))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        attach(self, self.moderation)
        await self.database.migrate()
        await resume_games(self.service, self.keeper)
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def _command_failed(
        self, interaction: discord.Interaction[Any], error: discord.app_commands.AppCommandError
    ) -> None:
        """A slash command raised: told like a failed click (see `GameService.failed`)."""
        cause: BaseException = error
        if isinstance(error, discord.app_commands.CommandInvokeError):
            cause = error.original
        await self.service.failed(interaction, cause)

    async def close(self) -> None:
        for presenter in list(self.service.presenters.values()):
            await presenter.close()
        await super().close()
        await self.database.close()

    async def shutdown(self) -> None:
        """Refuse new games, let the action in flight finish, then close.

        Each table's lock is taken in turn: an action already applying is stored
        before its table stops, and none starts after. The database closes last.
        """
        self.hub.accepting = False
        for table in list(self.hub.tables.values()):
            async with table.lock:
                table.stop()
                table.paused = True
        closer = getattr(self.scheduler, "close", None)
        if closer is not None:
            await closer()
        await self.close()


def run_bot(settings: Settings) -> None:
    """Run until stopped; SIGTERM and Ctrl-C both shut down cleanly."""
    asyncio.run(_serve(settings))


async def _serve(settings: Settings) -> None:
    bot = LockdownBot(settings)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.shutdown()))
    token = settings.discord_token
    assert token is not None
    async with bot:
        await bot.start(token.get_secret_value())
