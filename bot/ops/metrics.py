"""The numbers operators watch, in Prometheus' exposition (`/metrics`, see `bot.ops.health`).

Counters and histograms live here, at module level, so that any layer can
count without being handed an object: the store times its writes, the
delivery code counts its backlog and failures, the HTTP trace counts
Discord's 429s. Values that exist only while the bot runs (games running by
shard, gateway latency) are read at scrape time from the running bot by
`BotCollector`, so they can never go stale.

For the delivery code: `DELIVERY_BACKLOG.set(n)` (or `.inc()`/`.dec()`) when
the queue of edits and messages changes, `delivery_failed(kind)` when one is
given up or fails.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from prometheus_client import Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    import aiohttp

ACTIONS_STORED = Counter("lockdown_actions_stored", "Game actions stored in the database.")
STORE_SECONDS = Histogram(
    "lockdown_store_seconds",
    "Time to store one game action (the whole transaction), in seconds.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
STORE_FAILURES = Counter(
    "lockdown_store_failures", "Game actions that could not be stored (undone)."
)
VERSION_CONFLICTS = Counter(
    "lockdown_version_conflicts",
    "Actions refused because another writer stored the game's version first.",
)
DELIVERY_BACKLOG = Gauge(
    "lockdown_delivery_backlog", "Messages and edits waiting to be sent to Discord."
)
DELIVERY_FAILURES = Counter(
    "lockdown_delivery_failures",
    "Messages or edits that Discord refused or that were given up, by kind.",
    ["kind"],
)
DISCORD_429 = Counter(
    "lockdown_discord_rate_limited",
    "HTTP 429 answers from Discord, by scope (user, global, shared).",
    ["scope"],
)
DISCORD_REQUESTS = Counter(
    "lockdown_discord_requests", "HTTP requests to Discord, by status class.", ["status"]
)
RESUME_SECONDS = Gauge(
    "lockdown_resume_seconds", "How long the last start-up took to load its games, in seconds."
)


def delivery_failed(kind: str) -> None:
    """One message or edit refused by Discord or given up (`kind`: what it was)."""
    DELIVERY_FAILURES.labels(kind=kind).inc()


@contextmanager
def timed_store() -> Iterator[None]:
    """Time one action's store, and count it stored if the block does not raise (the
    caller counts why it failed: a conflict or a fault)."""
    start = time.perf_counter()
    try:
        yield
    finally:
        STORE_SECONDS.observe(time.perf_counter() - start)
    ACTIONS_STORED.inc()


def http_trace() -> aiohttp.TraceConfig:
    """An aiohttp trace for discord.py's HTTP session (`http_trace=`): counts every answer
    by status class and every 429 by its scope, whichever route got it.

    aiohttp is imported here, not above: the store counts its writes through
    this module, and the terminal tools that store games need no HTTP client."""
    import aiohttp

    trace = aiohttp.TraceConfig()

    async def on_end(_session: Any, _context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        status = params.response.status
        DISCORD_REQUESTS.labels(status=f"{status // 100}xx").inc()
        if status == 429:
            scope = params.response.headers.get("X-RateLimit-Scope", "user")
            DISCORD_429.labels(scope=scope).inc()

    trace.on_request_end.append(on_end)
    return trace


class BotCollector(Collector):
    """Scrape-time values of one running bot: games by shard and gateway latency.

    `games_by_shard` and `latencies` are callables of the bot, read at every
    scrape; nothing needs to be kept up to date in between.
    """

    def __init__(
        self,
        games_by_shard: Callable[[], dict[int, int]],
        latencies: Callable[[], Iterable[tuple[int, float]]],
    ) -> None:
        self._games = games_by_shard
        self._latencies = latencies

    def collect(self) -> Iterator[GaugeMetricFamily]:
        games = GaugeMetricFamily(
            "lockdown_games_running", "Games this process runs, by shard.", labels=["shard"]
        )
        for shard, count in sorted(self._games().items()):
            games.add_metric([str(shard)], count)
        yield games
        latency = GaugeMetricFamily(
            "lockdown_gateway_latency_seconds",
            "Time between a gateway heartbeat and its acknowledgement, by shard.",
            labels=["shard"],
        )
        for shard, seconds in self._latencies():
            if seconds == seconds and seconds != float("inf"):  # nan before the first beat
                latency.add_metric([str(shard)], seconds)
        yield latency
