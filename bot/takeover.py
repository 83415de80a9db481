"""How a process comes to run its shards' games: it takes the shards (waiting for
another process to let them go: a deploy's hand-over), resumes their games, and
only then answers clicks and runs its listeners.

On PostgreSQL this runs beside the gateway's connection (`LockdownBot.setup_hook`):
the new process of a deploy receives the shards' clicks while the old one still
runs them, holds them (`bot.ops.handover`), says it stands by, and answers them
once the games are its own. On SQLite (one process) it runs before the gateway
connects.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from bot.discord_ui.resume import resume_games
from bot.ops import metrics
from bot.ops.logs import set_log_fields
from bot.ops.shards import ShardLocks, parse_ids, watch_locks
from bot.storage.models import Shards

if TYPE_CHECKING:
    from bot.app import LockdownBot

log = logging.getLogger(__name__)


async def take_over(bot: LockdownBot) -> None:
    """Take the shards (waiting for them), resume their games, answer from then on."""
    if bot.locks is not None:
        await take_shards(bot, bot.locks)
    started = time.perf_counter()
    await resume_games(bot.service, bot.rooms.lobby.lobbies, bot.keeper)
    metrics.RESUME_SECONDS.set(time.perf_counter() - started)
    bot.resumed = True
    bot.gate.own()
    if bot.held_ready:  # the gateway was ready first: its listeners run now
        bot.dispatch("ready")
    if bot.sync_on_start and (bot.owned is None or 0 in bot.owned.ids):
        await bot.sync_command_tree()


async def take_shards(bot: LockdownBot, locks: ShardLocks) -> None:
    """Learn the shard count, take this process's shards (waiting for them), and
    make the keeper load and run only their games and lobbies."""
    if bot.shard_count is None:
        bot.shard_count, _url, _limit = await bot.http.get_bot_gateway()
    owned = bot.owned = parse_ids(bot.shard_ids, bot.shard_count)
    # Once the gateway receives the shards, their holder may leave its stop's clicks to us.
    await locks.acquire(owned.ids, count=owned.count, connected=bot.wait_until_ready)
    bot.watch = asyncio.create_task(watch_locks(locks, bot.lose_shards))
    if not owned.everything:
        bot.keeper.shards = Shards(owned.count, owned.ids)
    if len(owned.ids) == 1:
        set_log_fields(shard_id=owned.ids[0])


def not_ready(bot: LockdownBot) -> str | None:
    """Why /readyz says no, or None: shards held, games resumed, gateway connected."""
    locks = bot.locks
    if locks is not None and locks.other_count is not None:
        return f"waiting for the processes of SHARD_COUNT {locks.other_count} to stop"
    if locks is not None and locks.waiting is not None:
        standing = "; standing by, its clicks held" if locks.standing else ""
        return f"waiting for shard {locks.waiting}, run by another process{standing}"
    if not bot.hub.accepting or bot.is_closed():
        return "shutting down"
    if not bot.resumed:
        return "resuming games"
    if not bot.is_ready():
        return "connecting to Discord"
    return None
