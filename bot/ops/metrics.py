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

from prometheus_client import Counter, Gauge, Histogram, Info
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

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
    "lockdown_discord_requests",
    "HTTP requests to Discord's REST API, by route (ids and tokens templated) and status.",
    ["route", "status"],
)
GATEWAY_CONNECTS = Counter(
    "lockdown_gateway_connects",
    "Gateway websocket connections opened (the HTTP upgrade, not counted as a request).",
)
RATE_LIMIT_WAIT = Counter(
    "lockdown_discord_rate_limit_wait_seconds",
    "Seconds discord.py held requests back before sending them (rate-limit buckets, a "
    "429's retry-after, the global limit): time inside a request call not spent on the wire.",
)
# Discord refuses an interaction's first answer after 3 seconds: 3 is a bucket edge.
INTERACTION_ANSWER = Histogram(
    "lockdown_interaction_answer_seconds",
    "From an interaction's arrival on the gateway to its answer (the callback), in seconds.",
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0),
)
INTERACTIONS_UNANSWERED = Counter(
    "lockdown_interactions_unanswered",
    "Interactions received but not answered within Discord's 3 seconds (counted when "
    "seen late, or when the process stops with them still waiting).",
)
INTERACTIONS_REFUSED = Counter(
    "lockdown_interactions_refused",
    "Actions answered with a refusal because this process is stopping (a deploy).",
)
DELIVERY_LAG = Histogram(
    "lockdown_delivery_lag_seconds",
    "From a stored action to its line shown in the game's thread, in seconds.",
    buckets=(0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0),
)
DATABASE_SECONDS = Histogram(
    "lockdown_database_seconds",
    "Time of one database statement, by kind (select, insert, update, delete, other).",
    ["kind"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
BUILD = Info("lockdown_build", "The running build: its version and, when known, its commit.")
RESUME_SECONDS = Gauge(
    "lockdown_resume_seconds", "How long the last start-up took to load its games, in seconds."
)


def build_info(version: str, commit: str | None) -> None:
    """Say which build runs (`lockdown_build_info`), once at start."""
    BUILD.info({"version": version, "commit": commit or "unknown"})


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


# What the request budget did (`bot.discord_http`), as `BotCollector`'s `budget` names it.
BUDGET_COUNTERS = {
    "sent": "Requests the request budget sent with the bot token.",
    "merged": "Edits merged into a waiting edit of the same message, never sent alone.",
    "carried": "Edits of a clicked message sent with that click's token, not the bot's.",
    "carry_failed": "Carried edits Discord refused (token expired), sent with the bot token.",
    "waited_seconds": "Seconds requests waited in the request budget before they went.",
}


class BotCollector(Collector):
    """Scrape-time values of one running bot: games by shard and by state, gateway
    latency, and what its request budget did.

    `games_by_shard`, `latencies`, `games_by_state` and `budget` are callables of
    the bot, read at every scrape; nothing needs to be kept up to date in between.
    `budget` gives the budget's running totals (`BUDGET_COUNTERS`) and `waiting`.
    """

    def __init__(
        self,
        games_by_shard: Callable[[], dict[int, int]],
        latencies: Callable[[], Iterable[tuple[int, float]]],
        games_by_state: Callable[[], dict[str, int]] = dict,
        budget: Callable[[], dict[str, float]] = dict,
    ) -> None:
        self._games = games_by_shard
        self._latencies = latencies
        self._states = games_by_state
        self._budget = budget

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        games = GaugeMetricFamily(
            "lockdown_games_running", "Games this process runs, by shard.", labels=["shard"]
        )
        for shard, count in sorted(self._games().items()):
            games.add_metric([str(shard)], count)
        yield games
        states = GaugeMetricFamily(
            "lockdown_games",
            "Games and lobbies this process holds, by state (lobby, running, paused).",
            labels=["state"],
        )
        for state, count in sorted(self._states().items()):
            states.add_metric([state], count)
        yield states
        latency = GaugeMetricFamily(
            "lockdown_gateway_latency_seconds",
            "Time between a gateway heartbeat and its acknowledgement, by shard.",
            labels=["shard"],
        )
        for shard, seconds in self._latencies():
            if seconds == seconds and seconds != float("inf"):  # nan before the first beat
                latency.add_metric([str(shard)], seconds)
        yield latency
        figures = self._budget()
        for name, help_text in BUDGET_COUNTERS.items():
            if name in figures:
                yield CounterMetricFamily(
                    f"lockdown_request_budget_{name}", help_text, value=figures[name]
                )
        if "waiting" in figures:
            yield GaugeMetricFamily(
                "lockdown_request_budget_waiting",
                "Requests waiting in the request budget now.",
                value=figures["waiting"],
            )
