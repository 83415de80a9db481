"""Every answer to an interaction, and the watch that answers it first: within Discord's
3 seconds, whatever its handler waits for (the store, the request budget, a busy process).

Each interaction of ours goes through one of two public doors of discord.py before
its handler runs: the command tree's `interaction_check` (`AnsweringTree`, the bot's
`tree_cls`) and the one callback of the persistent components
(`components.clicked`); a click no component handles any more goes through
`components.inactive`. Each door first asks whether this process answers the
interaction at all (`admitted`: during a deploy's overlap two processes receive it,
and the tree's `gate`, `bot.ops.handover`, decides), then calls `arrived`, which
labels the rest of the
handler's task in the log (interaction, user, feature, guild, shard, game), starts
the clock of `lockdown_interaction_answer_seconds` and starts a watch that defers the
interaction if it is still unanswered `DEFER_AFTER` seconds after the click.

Handlers answer with `send`, `update` and `defer` only, never through
`interaction.response` (`tests/discord_ui/test_reply_only.py` keeps it so). They
and the watch answer under one lock per interaction (kept in `interaction.extras`,
which discord.py leaves to us), so the watch never defers while an answer is on
its way. Once the interaction is answered or deferred, `send` becomes a follow-up
and `update` an edit of the original response (the message clicked, for a deferred
update): no handler has to know whether it was late. A quick handler answers in one
request; only a slow one costs the deferral.

The watch defers a component as an update (nothing shows, the message clicked is
kept for the edit) and a slash command as a private "thinking" (every command of
this bot answers privately, so the placeholder never makes a public answer private,
nor a private one public). A click answered by updating the message clicked lends
its token to that message's next edits (`AnsweringTree.carry`,
`bot.discord_http.carriers`): the board's progress goes outside the global limit.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.ops.discord_http import interaction_arrived
from bot.ops.logs import set_log_fields
from bot.texts import choose_lang, t

log = logging.getLogger(__name__)

# The one deferral delay, counted from the click, not from its arrival: a click that
# reached a busy bot late is deferred at once. Short: a quiet store answers within
# milliseconds (one answer, no deferral), and a busy one must not cost the person a
# wait (100 games on SQLite, waiting 1 s: half of the action clicks were answered after
# 1.2 s); early enough that the deferral, itself a request, reaches Discord within its
# 3 seconds on a loaded machine.
DEFER_AFTER = 0.3

# Told of each click answered by updating the message clicked (`RequestBudget.carry_edits`).
Carry = Callable[[discord.Interaction[Any]], None]


class Gate(Protocol):
    """Which interactions this process answers (`bot.ops.handover.InteractionGate`)."""

    async def admit(self, interaction_id: int) -> bool:
        """Whether this process answers the interaction (it may wait to know)."""
        ...

    async def owned(self) -> bool:
        """Returns once this process runs the games its interactions name (True), or
        stops before it does (False)."""
        ...


# Every custom id of ours names its game (or lobby, the game to be) third: `ld:h:41`.
_GAME_IN_CUSTOM_ID = re.compile(r"ld:[a-z]:(\d+)")
# The interaction's own entries in `interaction.extras`.
_LOCK = "reply.lock"
_CARRY = "reply.carry"
_WATCHED = (
    discord.InteractionType.application_command,
    discord.InteractionType.component,
    discord.InteractionType.modal_submit,
)
_UPDATES = (
    discord.InteractionResponseType.deferred_message_update,
    discord.InteractionResponseType.message_update,
)
# Keeps the watches alive until they end (the loop holds tasks only weakly).
_watches: set[asyncio.Task[None]] = set()
# The tasks handling an interaction here now (`handlers_finished`).
_handling: set[asyncio.Task[Any]] = set()


class AnsweringTree(app_commands.CommandTree[Any]):
    """The bot's command tree (`tree_cls`): every slash command is admitted and arrives
    (`admitted`) in its public `interaction_check`, before its handler runs. `carry` is
    told of the clicks whose tokens may carry edits, and `gate` decides which
    interactions this process answers; the persistent components read both here too."""

    carry: Carry | None = None
    gate: Gate | None = None

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        command = interaction.command
        return await admitted(
            interaction, command.qualified_name if command is not None else "command"
        )


async def admitted(interaction: discord.Interaction[Any], feature: str) -> bool:
    """Whether this process answers `interaction`; if so it has `arrived`, and its
    handler may run. Nothing of it is answered (nor watched) before the gate says so:
    another process may be the one to answer. A deploy's new process may win it
    before its games are its own: its watch defers it meanwhile, and its handler
    runs once they are."""
    tree = getattr(interaction.client, "tree", None)
    gate = tree.gate if isinstance(tree, AnsweringTree) else None
    if gate is not None and not await gate.admit(interaction.id):
        return False
    arrived(interaction, feature)
    if gate is not None and not await gate.owned():
        # Stopped while it stood by: nobody else will answer what this process won.
        await _tell_to_retry(interaction)
        return False
    return True


async def _tell_to_retry(interaction: discord.Interaction[Any]) -> None:
    """The person is told, privately and in their language, to try again in a moment:
    the process that won their click stops before it could handle it."""
    locale = interaction.locale.value if interaction.locale is not None else None
    text = t(choose_lang(None, locale), "error.shutting_down")
    try:
        await send(interaction, text, ephemeral=True)
    except discord.HTTPException as exc:
        log.info("interaction %s: could not be told to retry (%s)", interaction.id, exc.status)


def arrived(interaction: discord.Interaction[Any], feature: str) -> None:
    """`interaction` reached its handler, whose task this is: its log fields set for the
    rest of the task (and the tasks it starts), its answer timed, and its watch started.
    """
    interaction_arrived(interaction.id)
    guild = interaction.guild
    found = _GAME_IN_CUSTOM_ID.match(custom_id(interaction))
    set_log_fields(
        interaction_id=interaction.id,
        user_id=interaction.user.id,
        feature=feature,
        guild_id=interaction.guild_id,
        shard_id=guild.shard_id if guild is not None else 0,
        game_id=int(found.group(1)) if found else None,
    )
    tree = getattr(interaction.client, "tree", None)
    if isinstance(tree, AnsweringTree) and tree.carry is not None:
        interaction.extras[_CARRY] = tree.carry
    if interaction.type in _WATCHED:
        watch = asyncio.get_running_loop().create_task(_defer_when_late(interaction))
        _watches.add(watch)
        watch.add_done_callback(_watches.discard)
    handler = asyncio.current_task()
    if handler is not None:
        _handling.add(handler)
        handler.add_done_callback(_handling.discard)


async def handlers_finished(within: float) -> int:
    """Wait (at most `within` seconds) until every interaction's handler running here has
    finished: a stop closes the HTTP session only after this. An interaction counts as
    answered as soon as its first answer (or the watch's deferral) is back, while its
    handler may still be sending its real answer, or reading the reply to it; closing
    the session under it loses that answer. Returns how many were still running."""
    running = [task for task in _handling if task is not asyncio.current_task()]
    if not running:
        return 0
    _done, still = await asyncio.wait(running, timeout=within)
    return len(still)


def custom_id(interaction: discord.Interaction[Any]) -> str:
    """The id of the component clicked; empty for a command."""
    data: Any = interaction.data or {}
    return str(data.get("custom_id", ""))


async def send(
    interaction: discord.Interaction[Any], content: str | None = None, **kwargs: Any
) -> discord.InteractionCallbackResponse[Any] | discord.WebhookMessage:
    """A new message answering `interaction` (`ephemeral=True`: only its reader sees it):
    the answer itself, or, once answered or deferred, a follow-up, returned as the
    message to edit later (never the original response, which may be the board)."""
    async with _lock(interaction):
        if not interaction.response.is_done():
            return await interaction.response.send_message(content, **kwargs)
    kwargs.pop("delete_after", None)
    text = content if content is not None else discord.utils.MISSING
    return await interaction.followup.send(text, wait=True, **kwargs)


async def update(interaction: discord.Interaction[Any], **kwargs: Any) -> None:
    """The message clicked, redrawn: the answer itself, or, once deferred, an edit of
    the interaction's original response (the message clicked, for a deferred update)."""
    async with _lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.edit_message(**kwargs)
            _lend_token(interaction)
            return
    kwargs.pop("delete_after", None)
    kwargs.pop("suppress_embeds", None)
    await interaction.edit_original_response(**kwargs)


async def defer(interaction: discord.Interaction[Any], *, thinking: bool = False) -> None:
    """Answered later: as an update of the message clicked (nothing shows), or
    `thinking`, with a private "thinking" that the next `send` replaces. Nothing if
    the interaction is answered or deferred already (by its watch, say)."""
    async with _lock(interaction):
        if interaction.response.is_done():
            return
        if thinking:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
            _lend_token(interaction)


def _lock(interaction: discord.Interaction[Any]) -> asyncio.Lock:
    lock: asyncio.Lock = interaction.extras.setdefault(_LOCK, asyncio.Lock())
    return lock


def _lend_token(interaction: discord.Interaction[Any]) -> None:
    """The message clicked is now this interaction's original response: its token may
    carry that message's edits."""
    carry: Carry | None = interaction.extras.get(_CARRY)
    if carry is not None and interaction.response.type in _UPDATES:
        carry(interaction)


async def _defer_when_late(interaction: discord.Interaction[Any]) -> None:
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    await asyncio.sleep(max(0.0, DEFER_AFTER - age))
    try:
        await defer(
            interaction,
            thinking=interaction.type is discord.InteractionType.application_command,
        )
    except discord.HTTPException as exc:
        # Too late already, or the handler's own answer won: the handler is told by
        # its own request, and `errors.failed` speaks to the person.
        log.info("interaction %s: not deferred (%s)", interaction.id, exc.status)
