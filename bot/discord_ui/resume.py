"""Start-up: every stored game and lobby comes back with its buttons, as it was.

The buttons need nothing: they are DynamicItems, so a click on a board or a
lobby posted before the restart finds its game or lobby by the id in its
custom id. What this module brings back, through the rooms' public methods,
is each table and its presenter (`GameThreads.restore`: state, seats,
deadline, what each AI seat has seen, the same board message, the game's
language, each seat's recent private lines) and each lobby (`Lobbies.restore`:
seats, variants, language, the server's plan). A game that cannot be loaded is
paused, its thread is told in neutral words, and every other game goes on; a
lobby whose row cannot be read is closed and its thread told so, and one that
cannot be rebuilt for another reason is logged and left as it is stored.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import discord

from bot.discord_ui.game.threads import GameThreads
from bot.discord_ui.lobby.lobbies import Lobbies
from bot.ops.logs import log_fields
from bot.table.persist import StoredGames, UnloadableGame
from bot.table.store import Cursor
from bot.texts import t

log = logging.getLogger(__name__)

# How long after its end a game whose reveal never went out is still worth posting.
ENDINGS_KEPT = timedelta(days=2)


@dataclass(slots=True)
class ResumeReport:
    """What a start-up did with each stored game and lobby, for the log and the tests."""

    resumed: list[int] = field(default_factory=list)
    paused: list[int] = field(default_factory=list)
    lobbies: list[int] = field(default_factory=list)
    lobbies_skipped: list[int] = field(default_factory=list)
    endings: list[int] = field(default_factory=list)


async def resume_games(
    threads: GameThreads, lobbies: Lobbies, stored_games: StoredGames
) -> ResumeReport:
    """Load every running game and every lobby into the hub; pause and announce the
    games that cannot be, skip the lobbies that cannot be."""
    service = threads.service
    report = ResumeReport()
    # Lobbies first: a resumed game's grace period starts when its table begins.
    await resume_lobbies(lobbies, stored_games, report)
    loaded = await stored_games.load()
    cursors = await service.cursors([game.record.id for game in loaded.games])
    for game in loaded.games:
        # The game's ids on every line it logs from now on: its timer, AI and delivery
        # tasks start inside this block and keep them.
        with log_fields(game_id=game.record.id, guild_id=game.record.guild_id):
            table = threads.restore(game, cursors.get(game.record.id))
            await table.begin([], game.deadline)
            service.presenters[table.game_id].resume(table)
        report.resumed.append(table.game_id)
    await deliver_endings(threads, stored_games, report)
    for broken in loaded.broken:
        log.error("game %s cannot be resumed and is paused: %s", broken.game_id, broken.reason)
        await stored_games.pause(broken.game_id, broken.reason[:500])
        await _announce(service.client, broken, "notice.game_unloadable")
        report.paused.append(broken.game_id)
    log.info(
        "resumed %d games (paused %d) and %d lobbies (skipped %d)",
        len(report.resumed),
        len(report.paused),
        len(report.lobbies),
        len(report.lobbies_skipped),
    )
    return report


async def resume_lobbies(lobbies: Lobbies, stored_games: StoredGames, report: ResumeReport) -> None:
    """Every stored lobby back in the hub, its old buttons and variant menu working again.

    A lobby whose row cannot be read has been closed by the stored_games: its thread
    is told, in the lobby's language, to open a new one. One whose server
    settings cannot be read (maybe for a moment) is logged and skipped, left
    stored as it is. Either way its buttons answer that the lobby is closed,
    and every other lobby comes back.
    """
    try:
        loaded = await stored_games.load_lobbies()
    except Exception:  # the games must come back even if no lobby can
        log.exception("no lobby could be resumed")
        return
    for broken in loaded.broken:
        log.error("lobby %s cannot be resumed and is closed: %s", broken.game_id, broken.reason)
        await _announce(lobbies.service.client, broken, "notice.lobby_unloadable")
        report.lobbies_skipped.append(broken.game_id)
    for stored in loaded.lobbies:
        try:
            await lobbies.restore(stored.lobby, stored.language)
        except Exception:  # one lobby's failure must spare the others
            log.exception("lobby %s cannot be resumed and is skipped", stored.lobby.lobby_id)
            report.lobbies_skipped.append(stored.lobby.lobby_id)
            continue
        report.lobbies.append(stored.lobby.lobby_id)


async def deliver_endings(
    threads: GameThreads, stored_games: StoredGames, report: ResumeReport
) -> None:
    """Games that ended but whose end never reached their thread: post it now.

    The process stopped (or Discord refused) between a game's last stored
    action and its reveal. The game is rebuilt from its log, off the hub (no
    click or timer reaches it), and its presenter delivers what is missing:
    the last lines, the final board, the campaign's news and Play again.
    """
    service = threads.service
    if service.deliveries is None:
        return
    try:
        since = datetime.now(UTC) - ENDINGS_KEPT
        game_ids = await service.deliveries.unfinished_endings(since)
        cursors = await service.deliveries.cursors(game_ids)
    except Exception:
        log.exception("the games whose end was not posted could not be listed")
        return
    for game_id in game_ids:
        try:
            game = await stored_games.finished_game(game_id)
            table = threads.restore(game, cursors.get(game_id, Cursor()), ended=True)
        except Exception:  # one game's failure must spare the others
            log.exception("game %s: its end cannot be posted", game_id)
            continue
        service.presenters[game_id].resume(table)
        report.endings.append(game_id)


async def _announce(client: discord.Client, broken: UnloadableGame, key: str) -> None:
    """Tell the game's or lobby's thread, in neutral words: the reason stays in the log."""
    if broken.channel_id is None:
        return
    try:
        channel = client.get_channel(broken.channel_id) or await client.fetch_channel(
            broken.channel_id
        )
        if isinstance(channel, discord.abc.Messageable):
            await channel.send(t(broken.language, key))
    except discord.HTTPException:
        log.warning("game %s: could not post %s", broken.game_id, key, exc_info=True)
