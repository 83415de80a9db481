"""How a process comes to run its shards' games: it takes the shards (waiting for
another process to let them go: a deploy's hand-over), resumes their games, and
only then answers clicks and arms its timers.

On PostgreSQL this runs beside the gateway's connection (`LockdownBot.setup_hook`):
the new process of a deploy receives the shards' clicks while the old one still
runs them, says it stands by, claims those the old one leaves it
(`bot.ops.handover`) and answers them once the games are its own. Until then its
hub accepts nothing (`GameHub.accepting`), so the gateway's `ready` arms no game
night's timer either: it is armed here, once the games are ours. On SQLite (one
process) it runs before the gateway connects.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Protocol

from bot.discord_ui.invitation import invitation_link
from bot.discord_ui.resume import resume_games
from bot.discord_ui.rooms import Rooms
from bot.ops import metrics
from bot.ops.handover import InteractionGate
from bot.ops.logs import set_log_fields
from bot.ops.shards import ShardLocks, ShardSet, parse_ids, watch_locks
from bot.storage.models import Shards
from bot.table.hub import GameHub
from bot.table.persist import StoredGames

log = logging.getLogger(__name__)


class GatewayQuestions(Protocol):
    """What the take-over asks of discord.py's HTTP client: the shard count Discord
    recommends (the documented `GET /gateway/bot`)."""

    async def get_bot_gateway(self) -> tuple[int, str, Any]: ...


class BotTakingOver(Protocol):
    """What the take-over reads and sets of the application's bot (`bot.app`), which
    imports this module: named here, so that the two do not import each other."""

    locks: ShardLocks | None
    gate: InteractionGate
    rooms: Rooms
    stored_games: StoredGames
    hub: GameHub
    shard_count: int  # as discord.py types it: None until `take_shards` learns it
    shard_ids: list[int] | None
    owned: ShardSet | None
    watch: asyncio.Task[None] | None
    resumed: bool
    sync_on_start: bool

    @property
    def application_id(self) -> int | None: ...

    @property
    def http(self) -> GatewayQuestions: ...

    def is_ready(self) -> bool: ...

    def is_closed(self) -> bool: ...

    async def wait_until_ready(self) -> None: ...

    async def sync_command_tree(self) -> None: ...

    async def lose_shards(self) -> None: ...


async def take_over(bot: BotTakingOver) -> None:
    """Take the shards (waiting for them), resume their games, answer from then on."""
    if bot.locks is not None:
        await take_shards(bot, bot.locks)
    started = time.perf_counter()
    await resume_games(bot.rooms.game.threads, bot.rooms.lobby.lobbies, bot.stored_games)
    metrics.RESUME_SECONDS.set(time.perf_counter() - started)
    bot.resumed = True
    bot.hub.accepting = True
    bot.gate.own()
    if bot.is_ready():  # the gateway's `ready` came first, and armed nothing
        await bot.rooms.nights.timer.arm()
    if bot.sync_on_start and (bot.owned is None or 0 in bot.owned.ids):
        await bot.sync_command_tree()
    if bot.application_id is not None:
        # The host's next step, once the bot runs: add it to a server.
        log.info("invite the bot to a server: %s", invitation_link(bot.application_id))


async def take_shards(bot: BotTakingOver, locks: ShardLocks) -> None:
    """Learn the shard count, take this process's shards (waiting for them), and
    make the stored games load and run only their games and lobbies."""
    if bot.shard_count is None:
        bot.shard_count, _url, _limit = await bot.http.get_bot_gateway()
    owned = bot.owned = parse_ids(bot.shard_ids, bot.shard_count)
    # Once the gateway receives the shards, their holder may leave its stop's clicks to us.
    await locks.acquire(owned.ids, count=owned.count, connected=bot.wait_until_ready)
    bot.watch = asyncio.create_task(watch_locks(locks, bot.lose_shards))
    if not owned.everything:
        bot.stored_games.shards = Shards(owned.count, owned.ids)
    if len(owned.ids) == 1:
        set_log_fields(shard_id=owned.ids[0])


def not_ready(bot: BotTakingOver) -> str | None:
    """Why /readyz says no, or None: shards held, games resumed, gateway connected."""
    locks = bot.locks
    if locks is not None and locks.other_count is not None:
        return f"waiting for the processes of SHARD_COUNT {locks.other_count} to stop"
    if locks is not None and locks.waiting is not None:
        standing = "; standing by for its clicks" if locks.standing else ""
        return f"waiting for shard {locks.waiting}, run by another process{standing}"
    if not bot.resumed:
        return "resuming games"
    if not bot.hub.accepting or bot.is_closed():
        return "shutting down"
    if not bot.is_ready():
        return "connecting to Discord"
    return None
