"""What the bot's traffic with Discord costs: requests by route and status, 429s by scope,
time held back by rate limits, and how long each interaction waited for its answer.

Everything is measured from discord.py's own aiohttp session (`http_trace`,
passed as `http_trace=` to the client), so every route is seen, the
interaction callbacks (sent by the webhook adapter on the same session)
included. Routes are templated (`POST /channels/{id}/messages`): ids and
tokens never become label values, so the series stay few and no token is
ever exposed on `/metrics`.

aiohttp is imported inside `http_trace` only: the terminal tools import
`bot.ops` and need no HTTP client.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable, Coroutine
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from bot.ops import metrics

if TYPE_CHECKING:
    import aiohttp

P = ParamSpec("P")
R = TypeVar("R")

_API_PREFIX = re.compile(r"^/api(?:/v\d+)?")
_SNOWFLAKE = re.compile(r"^\d{5,20}$")
# The segment after these (and an id) is a secret: an interaction's or webhook's token.
_TOKEN_AFTER = frozenset({"interactions", "webhooks"})
DISCORD_DEADLINE = 3.0
# An interaction still unanswered after this long is forgotten (and counted unanswered).
_FORGET_AFTER = 60.0

# When each interaction arrived, by id, oldest first (dicts keep insertion order).
_arrived: dict[int, float] = {}
# What this process received and answered, for the line it logs as it stops.
tally = {"received": 0, "answered": 0, "refused": 0}


def route_of(method: str, path: str) -> str:
    """`POST /channels/{id}/messages`: the method and the path with ids and tokens replaced."""
    parts = _API_PREFIX.sub("", path.split("?", 1)[0]).strip("/").split("/")
    out: list[str] = []
    for index, part in enumerate(parts):
        if _SNOWFLAKE.match(part):
            out.append("{id}")
        elif index >= 2 and parts[index - 2] in _TOKEN_AFTER and out[-1] == "{id}":
            out.append("{token}")
        else:
            out.append(part)
    return f"{method.upper()} /{'/'.join(out)}"


def interaction_arrived(interaction_id: int, now: float | None = None) -> None:
    """Start an interaction's clock (called as the gateway event is parsed)."""
    now = time.monotonic() if now is None else now
    _arrived[interaction_id] = now
    tally["received"] += 1
    for old, at in list(_arrived.items()):
        if now - at < _FORGET_AFTER:
            break
        del _arrived[old]
        metrics.INTERACTIONS_UNANSWERED.inc()


def interaction_answered(interaction_id: int, now: float | None = None) -> None:
    """Stop its clock: the answer's delay goes in the histogram."""
    at = _arrived.pop(interaction_id, None)
    if at is None:
        return
    tally["answered"] += 1
    waited = (time.monotonic() if now is None else now) - at
    metrics.INTERACTION_ANSWER.observe(waited)
    if waited > DISCORD_DEADLINE:
        metrics.INTERACTIONS_UNANSWERED.inc()


def interaction_refused() -> None:
    """An interaction answered with a refusal because this process is stopping."""
    metrics.INTERACTIONS_REFUSED.inc()
    tally["refused"] += 1


async def answered_in_flight(within: float = DISCORD_DEADLINE) -> int:
    """Wait (at most `within` seconds) until every interaction received less than 3 seconds
    ago is answered: a stop closes the HTTP session only after this, or the answers of
    the clicks that arrived just before it would be lost. Returns how many were not."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        now = time.monotonic()
        if not any(now - at < DISCORD_DEADLINE for at in _arrived.values()):
            break
        await asyncio.sleep(0.01)
    return interactions_left_waiting()


def tally_line(unanswered: int) -> str:
    """What this process did with the interactions it received, for its stop's log line."""
    return (
        f"{tally['received']} interactions received, {tally['answered']} answered, "
        f"{tally['refused']} refused as stopping, {unanswered} left unanswered"
    )


def interactions_left_waiting() -> int:
    """At a stop: count the interactions this process never answered, and forget them."""
    count = len(_arrived)
    metrics.INTERACTIONS_UNANSWERED.inc(count)
    _arrived.clear()
    return count


_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")

# The time the current request call spent on the wire, for `timed_request`.
_on_wire: ContextVar[list[float] | None] = ContextVar("on_wire", default=None)


def http_trace() -> aiohttp.TraceConfig:
    """An aiohttp trace for discord.py's HTTP session: every answer counted by route and
    status, every 429 by scope, every interaction callback timed from the interaction's
    arrival. The gateway's websocket upgrade (101) is a connection, not a request."""
    import aiohttp

    trace = aiohttp.TraceConfig()

    async def on_start(_session: Any, context: Any, _params: Any) -> None:
        context.started = time.monotonic()

    async def on_end(_session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        status = params.response.status
        wire = _on_wire.get()
        if wire is not None and hasattr(context, "started"):
            wire[0] += time.monotonic() - context.started
        if status == 101:
            metrics.GATEWAY_CONNECTS.inc()
            return
        path = params.url.path
        metrics.DISCORD_REQUESTS.labels(route=route_of(params.method, path), status=status).inc()
        if status == 429:
            scope = params.response.headers.get("X-RateLimit-Scope", "user")
            metrics.DISCORD_429.labels(scope=scope).inc()
        callback = _CALLBACK.search(path)
        if callback is not None and status < 300:
            interaction_answered(int(callback.group(1)))

    trace.on_request_start.append(on_start)
    trace.on_request_end.append(on_end)
    return trace


def timed_request(request: Callable[P, Awaitable[R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """discord.py's `HTTPClient.request`, counting the time a call spends off the wire
    (waiting on a rate-limit bucket, a 429's retry-after, the global limit) as waited."""

    async def timed(*args: P.args, **kwargs: P.kwargs) -> R:
        wire = [0.0]
        token = _on_wire.set(wire)
        started = time.monotonic()
        try:
            return await request(*args, **kwargs)
        finally:
            _on_wire.reset(token)
            waited = time.monotonic() - started - wire[0]
            # Building the request and reading its JSON take well under this.
            if waited > 0.01:
                metrics.RATE_LIMIT_WAIT.inc(waited)

    return timed
