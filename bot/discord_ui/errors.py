"""What goes wrong, and who is told: the one error handler of the Discord layer.

A command or a click that raises something we did not expect is answered
here (`failed`, `command_failed`): the traceback goes to the log, the person
reads a short neutral text that names nothing of the game. An action is
stored before it counts, so a failure leaves the game as it was.

A failed Discord request of a delivery means: wait and retry, or tell someone.
Discord's 429s never reach this module: discord.py waits them out itself. A
5xx, a dropped connection or a time-out is the weather: retried with backoff,
and the delivery cursor covers a restart. A 403 (50001 Missing Access, 50013
Missing Permissions) or a 404 of a deleted thread (10003) will not pass by
waiting: someone must be told what is missing, in words they can act on.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp
import discord

log = logging.getLogger(__name__)

MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
UNKNOWN_CHANNEL = 10003

# The permissions a game needs in its channel and thread, with their catalog keys.
GAME_PERMISSIONS = (
    ("view_channel", "permission.view_channel"),
    ("send_messages", "permission.send_messages"),
    ("create_public_threads", "permission.create_public_threads"),
    ("send_messages_in_threads", "permission.send_messages_in_threads"),
    ("embed_links", "permission.embed_links"),
    ("attach_files", "permission.attach_files"),
    ("read_message_history", "permission.read_message_history"),
)
# What game nights need besides (`/lockdown schedule`): server-wide, optional otherwise.
MANAGE_EVENTS = "permission.manage_events"
# A practice game (`/lockdown practice`) is played in a private thread, not a public one.
PRACTICE_PERMISSIONS = tuple(
    ("create_private_threads", "permission.create_private_threads")
    if name == "create_public_threads"
    else (name, key)
    for name, key in GAME_PERMISSIONS
)

RETRYABLE: tuple[type[BaseException], ...] = (
    discord.DiscordServerError,
    aiohttp.ClientError,
    OSError,
    asyncio.TimeoutError,
)
# What an optional message (a DM, the replay GIF) may meet; it is logged, never retried.
SEND_FAILURES: tuple[type[BaseException], ...] = (discord.HTTPException, *RETRYABLE)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A request Discord will keep refusing until someone changes something."""

    thread_gone: bool
    code: int


def refusal(exc: BaseException) -> Refusal | None:
    """The refusal behind `exc`, or None if waiting may help (or it is not Discord's)."""
    if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL:
        return Refusal(thread_gone=True, code=exc.code)
    if isinstance(exc, discord.Forbidden) and exc.code in (MISSING_ACCESS, MISSING_PERMISSIONS):
        return Refusal(thread_gone=False, code=exc.code)
    return None


def missing_permissions(
    granted: discord.Permissions, wanted: tuple[tuple[str, str], ...] = GAME_PERMISSIONS
) -> list[str]:
    """The catalog keys of the `wanted` permissions (a game's by default) that `granted`
    lacks, in a fixed order."""
    return [key for name, key in wanted if not getattr(granted, name)]


class Teller(Protocol):
    """How the service answers a person privately (`service.GameService.tell`)."""

    async def tell(
        self, interaction: discord.Interaction[Any], key: str, **params: object
    ) -> None: ...


async def failed(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """A command, a button or a menu raised: logged whole, told in a neutral sentence.

    Every answer goes through the service the bot keeps as `client.service`.
    """
    log.error("interaction %s failed", interaction.id, exc_info=error)
    service: Teller = interaction.client.service
    try:
        await service.tell(interaction, "error.try_again")
    except (discord.HTTPException, discord.ClientException):
        log.warning("interaction %s: could not say that it failed", interaction.id)


async def command_failed(
    interaction: discord.Interaction[Any], error: discord.app_commands.AppCommandError
) -> None:
    """The command tree's error handler: a slash command that raised, told like a click."""
    cause: BaseException = error
    if isinstance(error, discord.app_commands.CommandInvokeError):
        cause = error.original
    await failed(interaction, cause)
