"""The request budget on discord.py's HTTP layer: every bot-token request goes through it.

discord.py 2.7 sends every REST request of the bot through
`HTTPClient.request(route, **kwargs)`, which keeps its own buckets
(`HTTPClient.get_ratelimit`) and, once a bucket is empty, holds the request
that emptied it until the bucket resets. It knows nothing of the global limit
until Discord answers 429, and nothing of which request matters more.

`install` takes over at that level, on the client's own `HTTPClient`:

- `HTTPClient.request` is replaced by `RequestBudget.request`, which queues the
  request in the `Budget` (priority, merged edits, buckets, global window)
  and makes it through the original method once the budget lets it go;
- `HTTPClient.get_ratelimit` is replaced by a probe that holds nothing back
  and reads the `X-RateLimit-*` headers of each answer for the budget, so
  discord.py neither waits a second time nor holds a caller after its
  request came back. Its retries (5xx, and a 429 should one still come)
  stay as they are.

Interaction answers never reach this layer: discord.py makes them through
its webhook adapter, outside `HTTPClient.request`, as Discord keeps them
outside the global limit. A request on an interaction or webhook route that
does come here goes straight through. An edit of a message someone clicked
is made through that adapter too, with the click's token
(`bot.discord_http.carriers`, `RequestBudget.carry_edits`), whenever the
budget finds one for it.

The global budget is the process's share of the token's 50 a second
(`bot.discord_http.share`); how the `Budget` keeps it whatever the latency is
told in `bot.discord_http.budget`.

The hook into discord.py. discord.py offers no public way to queue, order or
merge a client's REST requests, so this module, and only this one, rests on
names of discord.py that are not its documented API (the version is pinned in
`pyproject.toml`; `tests/discord_ui/test_discordpy_contract.py` asserts each of
them, so an upgrade that moves one fails that test, never a running bot):

- `HTTPClient.request(route, **kwargs)`, replaced (its original kept as `Send`);
- `HTTPClient.get_ratelimit(key)`, replaced by `HeaderProbe`, which discord.py
  uses as an async context manager with `update(response, use_clock=)` and
  `remaining`; and `HTTPClient._buckets`, the map discord.py files it in, cleared;
- `discord.http.Route`'s `method`, `path`, `url`, `key`, `major_parameters` and
  `webhook_token`;
- for an edit carried by a click's token (`carry_with`): the webhook adapter
  `discord.webhook.async_.async_context` and its
  `edit_original_interaction_response`, on the client's own session
  `HTTPClient._HTTPClient__session` with its `proxy` and `proxy_auth`.

Everything else of the bot answers through discord.py's public API
(`bot.discord_ui.reply`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, Protocol

import discord
from discord.webhook.async_ import async_context

from bot.discord_http.buckets import RateHeaders
from bot.discord_http.budget import Budget, Counts, Ticket
from bot.discord_http.carriers import CARRY_FOR, Carrier
from bot.discord_http.dm_channels import DmChannels, dm_recipient
from bot.discord_http.priority import Priority, chosen_priority
from bot.discord_http.share import requests_per_second

# New messages and threads go first: steps, lines, the end of a game, lobby cards.
URGENT_ROUTES = frozenset(
    {
        "POST /channels/{channel_id}/messages",
        "POST /channels/{channel_id}/threads",
        "POST /channels/{channel_id}/messages/{message_id}/threads",
    }
)

log = logging.getLogger(__name__)

# The edit of a message, which a click's token can carry instead of the bot token.
MESSAGE_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"

# How long a carried edit may take, its retries included, before the bot token sends it
# instead: the same body again, so one that lands late anyway shows the same thing.
CARRY_PATIENCE = 3.0

# The ticket being sent in this task, for the probe to file its answer's headers.
_SENDING: ContextVar[Ticket | None] = ContextVar("sending", default=None)


class Send(Protocol):
    """discord.py's own `HTTPClient.request`, which makes the request for real."""

    async def __call__(self, route: discord.http.Route, **kwargs: Any) -> Any: ...


class Carry(Protocol):
    """Makes an edit with a click's token: the same arguments, another route."""

    async def __call__(self, carrier: Carrier, kwargs: dict[str, Any]) -> Any: ...


def outside_budget(route: discord.http.Route) -> bool:
    """Interaction answers and interaction-token webhooks: not counted by Discord."""
    return route.path.startswith("/interactions/") or route.webhook_token is not None


def default_priority(route: discord.http.Route) -> Priority:
    return Priority.URGENT if route.key in URGENT_ROUTES else Priority.NORMAL


class RequestBudget:
    """One token's requests in one process: queued in a `Budget`, sent when it allows."""

    def __init__(
        self, send: Send, *, per_second: int, window: float = 1.0, carry: Carry | None = None
    ) -> None:
        self._send = send
        self._carry = carry
        self.budget = Budget(per_second, window)
        self.dm_channels = DmChannels()
        self._callers: dict[Ticket, list[asyncio.Future[Any]]] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._sending: set[asyncio.Task[None]] = set()

    @property
    def counts(self) -> Counts:
        """What the budget did so far (requests sent, edits merged, time waited)."""
        return self.budget.counts

    def carry_edits(self, interaction: discord.Interaction[Any]) -> None:
        """`interaction`, a click answered by updating the message clicked, lends its
        token to that message's next edits until it expires (`carriers`)."""
        message = interaction.message
        if (
            self._carry is None
            or interaction.type is not discord.InteractionType.component
            or message is None
            or message.flags.ephemeral
        ):
            return
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        if age >= CARRY_FOR:
            return
        now = asyncio.get_running_loop().time()
        carrier = Carrier(interaction.application_id, interaction.token, now + CARRY_FOR - age)
        self.budget.carriers.keep(message.id, carrier, now)
        self._pump()  # an edit of that message waiting for the budget may go now

    async def request(self, route: discord.http.Route, **kwargs: Any) -> Any:
        """What `HTTPClient.request` answers, once the budget lets the request go."""
        if outside_budget(route):
            return await self._send(route, **kwargs)
        recipient = dm_recipient(route.method, route.path, kwargs)
        if recipient is not None:
            return await self.dm_channels.open(recipient, lambda: self._queued(route, kwargs))
        return await self._queued(route, kwargs)

    async def _queued(self, route: discord.http.Route, kwargs: dict[str, Any]) -> Any:
        loop = asyncio.get_running_loop()
        ticket = self.budget.submit(
            method=route.method,
            route_key=route.key,
            major=route.major_parameters,
            url=route.url,
            kwargs=kwargs,
            priority=chosen_priority() or default_priority(route),
            now=loop.time(),
            route=route,
            message_id=edited_message(route),
        )
        answer: asyncio.Future[Any] = loop.create_future()
        self._callers.setdefault(ticket, []).append(answer)
        self._pump()
        try:
            return await answer
        except asyncio.CancelledError:
            callers = self._callers.get(ticket, [])
            if all(caller.cancelled() for caller in callers) and self.budget.abandon(ticket):
                del self._callers[ticket]
            raise

    def _pump(self) -> None:
        """Send what the budget lets go now; look again when it says."""
        loop = asyncio.get_running_loop()
        chosen, wake = self.budget.pick(loop.time())
        for ticket in chosen:
            task = loop.create_task(self._deliver(ticket))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)
        if wake is None:
            return
        if self._timer is not None:
            if self._timer.when() <= wake:
                return
            self._timer.cancel()
        self._timer = loop.call_at(wake, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self._pump()

    async def _deliver(self, ticket: Ticket) -> None:
        """Make one request for real and hand its answer to every caller it stands for."""
        loop = asyncio.get_running_loop()
        _SENDING.set(ticket)  # this task's own context: the probe finds the ticket here
        try:
            if ticket.carrier is not None:
                data = await self._carried(ticket)
                if data is None:
                    return  # back in the line, for the bot token
            else:
                data = await self._send(ticket.route, **ticket.kwargs)
        except BaseException as exc:  # every caller gets the failure, even a cancellation
            self._finish(ticket, loop.time())
            for caller in self._callers.pop(ticket, []):
                if not caller.done():
                    if isinstance(exc, asyncio.CancelledError):
                        caller.cancel()
                    else:
                        caller.set_exception(exc)
            if isinstance(exc, asyncio.CancelledError):
                raise
            return
        self._finish(ticket, loop.time())
        for caller in self._callers.pop(ticket, []):
            if not caller.done():
                caller.set_result(data)

    async def _carried(self, ticket: Ticket) -> Any:
        """The edit made with a click's token; None if Discord refused it (the token
        expired, the message is gone) or it did not come back within `CARRY_PATIENCE`
        (a 5xx that discord.py's webhook adapter retries for up to 25 s), the edit then
        queued again for the bot token, behind nothing newer of its message."""
        assert self._carry is not None
        assert ticket.carrier is not None
        try:
            return await asyncio.wait_for(
                self._carry(ticket.carrier, ticket.kwargs), CARRY_PATIENCE
            )
        except (discord.HTTPException, TimeoutError) as exc:
            log.info("an edit carried by a click's token failed (%r); the bot sends it", exc)
            loop = asyncio.get_running_loop()
            self.budget.answered(ticket, loop.time())
            self.budget.uncarry(ticket)
            self._pump()
            return None

    def _finish(self, ticket: Ticket, now: float) -> None:
        self.budget.answered(ticket, now)
        self._pump()


class HeaderProbe:
    """Stands where discord.py keeps a bucket: lets every request through at once and
    files each answer's rate-limit headers on the ticket being sent."""

    # Read by discord.py only to word a log line when a 429 comes despite it.
    remaining = 1

    async def __aenter__(self) -> HeaderProbe:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    def update(self, response: Any, *, use_clock: bool = False) -> None:
        ticket = _SENDING.get()
        if ticket is not None:
            ticket.headers = RateHeaders.parse(response.headers)


def edited_message(route: discord.http.Route) -> int | None:
    """The message a request edits, if it is a message edit a click's token can carry."""
    if route.key != MESSAGE_EDIT:
        return None
    return int(route.url.rpartition("/")[2])


def carry_with(http: discord.http.HTTPClient) -> Carry:
    """Edits made as discord.py edits an interaction's original response: its webhook
    adapter, on the client's own connection, without the bot's authorization."""

    async def carry(carrier: Carrier, kwargs: dict[str, Any]) -> Any:
        return await async_context.get().edit_original_interaction_response(
            carrier.application_id,
            carrier.token,
            session=http._HTTPClient__session,  # type: ignore[attr-defined]
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=kwargs.get("json"),
            multipart=kwargs.get("form"),
            files=kwargs.get("files"),
        )

    return carry


def install(
    http: discord.http.HTTPClient,
    *,
    share: float = 1.0,
    carry_edits: bool = True,
    timed: Callable[[Send], Send] | None = None,
) -> RequestBudget:
    """Put the budget on a client's HTTP layer (`client.http`), before it logs in.

    `share` is this process's part of the token's global limit
    (`bot.discord_http.share.process_share`); `carry_edits` lets clicks' tokens
    carry edits of the messages clicked (`carriers`); `timed` wraps the request
    as the bot's callers see it (`bot.ops.discord_http.timed_request` counts the
    time it waited), so `HTTPClient.request` is replaced in this one place.
    """
    budget = RequestBudget(
        http.request,
        per_second=requests_per_second(share),
        carry=carry_with(http) if carry_edits else None,
    )
    probe = HeaderProbe()

    def get_ratelimit(_key: str) -> HeaderProbe:
        # discord.py files each bucket it meets in `_buckets`; the budget keeps its own,
        # so that map would only grow.
        http._buckets.clear()
        return probe

    request: Send = budget.request if timed is None else timed(budget.request)
    http.request = request  # type: ignore[method-assign]
    http.get_ratelimit = get_ratelimit  # type: ignore[method-assign,assignment]
    return budget
