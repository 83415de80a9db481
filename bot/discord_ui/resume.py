"""Start-up: every stored game comes back with its board, its buttons and its deadline.

The buttons need nothing: they are DynamicItems, so a click on a board posted
before the restart finds its game by the id in its custom id. What this
module rebuilds is the table (state, seats, deadline) and the presenter (the
same board message, the game's language). A game that cannot be loaded is
paused, its thread is told in neutral words, and every other game goes on.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import discord

from bot.discord_ui.service import GameService
from bot.table.lobby import Lobby
from bot.table.persist import GameKeeper, ResumableGame, UnloadableGame
from bot.table.table import Table
from bot.texts import t

log = logging.getLogger(__name__)


@dataclass(slots=True)
class ResumeReport:
    resumed: list[int] = field(default_factory=list)
    paused: list[int] = field(default_factory=list)


async def resume_games(service: GameService, keeper: GameKeeper) -> ResumeReport:
    """Load every running game into the hub; pause and announce the ones that cannot be."""
    loaded = await keeper.load()
    report = ResumeReport()
    for game in loaded.games:
        table = rebuild_table(service, game)
        await table.begin([], game.deadline)
        report.resumed.append(table.game_id)
    for broken in loaded.broken:
        log.error("game %s cannot be resumed and is paused: %s", broken.game_id, broken.reason)
        await keeper.pause(broken.game_id, broken.reason[:500])
        await _announce(service.client, broken)
        report.paused.append(broken.game_id)
    log.info("resumed %d games, paused %d", len(report.resumed), len(report.paused))
    return report


def rebuild_table(service: GameService, game: ResumableGame) -> Table:
    """Register a stored game's table and presenter in the hub, as they were."""
    record = game.record
    channel_id = record.thread_id or record.channel_id
    lobby = Lobby(record.id, record.guild_id, channel_id, record.host_user_id, game.seats)
    lobby.variants = list(record.variants)
    service.lobby_langs[record.id] = record.language
    table = service.hub.add_table(record.id, game.state, lobby, service.config)
    table.seed = record.seed
    table.paused = record.status == "paused"
    service.presenters[record.id].board_message_id = record.board_message_id
    return table


async def _announce(client: discord.Client, broken: UnloadableGame) -> None:
    if broken.channel_id is None:
        return
    try:
        channel = client.get_channel(broken.channel_id) or await client.fetch_channel(
            broken.channel_id
        )
        if isinstance(channel, discord.abc.Messageable):
            await channel.send(t(broken.language, "notice.game_unloadable"))
    except discord.HTTPException:
        log.warning("game %s: could not post the pause notice", broken.game_id, exc_info=True)
