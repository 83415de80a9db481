"""Answers first: every interaction is answered or deferred within Discord's 3 seconds,
whatever its handler waits for (the store, the request budget, a busy process).

One place does it for every slash command, button, menu and modal: as discord.py
hands an interaction to its handler, its `response` becomes an `AnsweredFirst`, and
a watch defers it if the handler has not answered `DEFER_AFTER` seconds after the
click. A handler still answers the way it always did: once the watch has deferred,
its `send_message` becomes a follow-up and its `edit_message` an edit of the message
clicked (both made with the interaction's token, outside the bot token's global
limit), so no handler has to know whether it was late. A quick handler answers in
one request, as before; only a slow one costs the deferral.

A component is deferred as an update (nothing shows, the message clicked is kept for
the edit); a slash command as a private "thinking" (every command of this bot
answers privately, so the placeholder never makes a public answer private, nor a
private one public).

A click answered by updating the message clicked (deferred or not) then lends its
token to that message's next edits (`bot.discord_http.carriers`): the board's
progress and lines go outside the token's global limit.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import discord

log = logging.getLogger(__name__)

# From the click, not from its arrival: a click that reached a busy bot late is deferred
# at once. Later than the game's own deferral of a stored action (`game.play.DEFER_AFTER`),
# which knows better how to defer a click on a panel; early enough that the deferral,
# itself a request, reaches Discord within its 3 seconds on a loaded machine.
DEFER_AFTER = 0.6

# Told of each click answered by updating the message clicked (`RequestBudget.carry_edits`).
Carry = Callable[[discord.Interaction[Any]], None]

# Keeps the watches alive until they end (the loop holds tasks only weakly).
_watches: set[asyncio.Task[None]] = set()


class AnsweredFirst(discord.InteractionResponse[Any]):
    """An interaction's response, shared by its handler and its watch (`watch`).

    Both answer under one lock, so the watch never defers while the handler's answer
    is on its way; once the watch has deferred (`late`), the handler's answer goes
    where a deferred interaction's answer goes.
    """

    __slots__ = ("_carry", "_lock", "late")

    def __init__(self, parent: discord.Interaction[Any], carry: Carry | None = None) -> None:
        super().__init__(parent)
        self._lock = asyncio.Lock()
        self._carry = carry
        self.late = False

    async def defer(self, *args: Any, **kwargs: Any) -> Any:
        async with self._lock:
            if self.late:
                return None  # deferred already, by the watch
            answer = await super().defer(*args, **kwargs)
            self._lend_token()
            return answer

    async def send_message(self, *args: Any, **kwargs: Any) -> Any:
        """The answer; after the watch's deferral, a follow-up (returned, a
        `discord.WebhookMessage`: it is the message to edit later, not the original)."""
        async with self._lock:
            if not self.late:
                return await super().send_message(*args, **kwargs)
        kwargs.pop("delete_after", None)
        content = args[0] if args else kwargs.pop("content", None)
        if content is None:
            content = discord.utils.MISSING
        return await self._parent.followup.send(content, wait=True, **kwargs)

    async def edit_message(self, *args: Any, **kwargs: Any) -> Any:
        """The message clicked, redrawn; after the watch's deferral, through the
        interaction's original response (the message clicked, for a deferred update)."""
        async with self._lock:
            if not self.late:
                answer = await super().edit_message(*args, **kwargs)
                self._lend_token()
                return answer
        kwargs.pop("delete_after", None)
        kwargs.pop("suppress_embeds", None)
        if args:
            kwargs["content"] = args[0]
        return await self._parent.edit_original_response(**kwargs)

    async def defer_if_unanswered(self) -> None:
        """The watch's deferral: nothing if the handler answered already."""
        async with self._lock:
            if self._response_type is not None:
                return
            parent = self._parent
            if parent.type is discord.InteractionType.application_command:
                await super().defer(ephemeral=True, thinking=True)
            elif parent.type in (
                discord.InteractionType.component,
                discord.InteractionType.modal_submit,
            ):
                await super().defer()
                self._lend_token()
            else:
                return  # autocomplete and pings have no deferral
            self.late = True

    def _lend_token(self) -> None:
        """The message clicked is now this interaction's original response: its token
        may carry that message's edits."""
        if self._carry is not None and self._response_type in (
            discord.InteractionResponseType.deferred_message_update,
            discord.InteractionResponseType.message_update,
        ):
            self._carry(self._parent)


def watch(interaction: discord.Interaction[Any], carry: Carry | None = None) -> None:
    """`interaction` is answered first: its response shared with a watch that defers
    it `DEFER_AFTER` seconds after the click if its handler has not answered by then.

    Called as the interaction is dispatched, before its handler runs (its task is
    created, not started), so the handler only ever sees the shared response.
    """
    if interaction.type not in (
        discord.InteractionType.application_command,
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    ):
        return
    response = AnsweredFirst(interaction, carry)
    interaction._cs_response = response  # type: ignore[attr-defined]
    task = asyncio.get_running_loop().create_task(_defer_when_late(interaction, response))
    _watches.add(task)
    task.add_done_callback(_watches.discard)


async def _defer_when_late(interaction: discord.Interaction[Any], response: AnsweredFirst) -> None:
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    await asyncio.sleep(max(0.0, DEFER_AFTER - age))
    try:
        await response.defer_if_unanswered()
    except discord.HTTPException as exc:
        # Too late already, or the handler's own answer won: the handler is told by
        # its own request, and `errors.failed` speaks to the person.
        log.info("interaction %s: not deferred (%s)", interaction.id, exc.status)


def answer_first_everywhere(client: discord.Client, carry: Carry | None = None) -> None:
    """Every interaction `client` receives is watched (`watch`) from its dispatch on;
    `carry` is told of the clicks whose tokens may carry edits.

    discord.py creates the handler's task, then dispatches the `interaction` event in
    the same call; hooking that dispatch runs `watch` before any handler starts.
    """
    state: Any = client._connection
    dispatch = state.dispatch

    def dispatching(event: str, /, *args: Any, **kwargs: Any) -> None:
        if event == "interaction" and args and isinstance(args[0], discord.Interaction):
            watch(args[0], carry)
        dispatch(event, *args, **kwargs)

    state.dispatch = dispatching
