"""The metrics Discord punishes us on, and the example alerts and dashboard that read them."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from prometheus_client import REGISTRY, CollectorRegistry
from prometheus_client.registry import Collector

from bot.ops import discord_http, metrics
from bot.ops.database_timing import kind_of, time_statements
from bot.ops.delivery_lag import DeliveryClock
from bot.storage.database import Database

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
SUFFIXES = {
    "counter": ("_total",),
    "histogram": ("_bucket", "_count", "_sum"),
    "info": ("_info",),
}


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels or None) or 0.0


def exposed_names(*collectors: Collector) -> set[str]:
    """Every series name Prometheus can see, labelled families with no child yet included."""
    registry = CollectorRegistry()
    for collector in collectors:
        registry.register(collector)
    names = set()
    for family in [*REGISTRY.collect(), *registry.collect()]:
        names.add(family.name)
        names.update(family.name + suffix for suffix in SUFFIXES.get(family.type, ()))
    return names


@pytest.mark.parametrize("path", ["prometheus/alerts.yml", "grafana/lockdown-bot.json"])
def test_every_metric_the_alerts_and_dashboard_name_exists(path: str) -> None:
    text = (DEPLOY / path).read_text()
    if path.endswith(".json"):
        json.loads(text)
    named = set(re.findall(r"\blockdown_[a-z0-9_]+", text))
    assert len(named) >= 8, named
    exposed = exposed_names(metrics.BotCollector(dict, list, dict))
    assert named - exposed == set()


def test_the_answer_histogram_has_discords_three_second_edge() -> None:
    assert 3.0 in metrics.INTERACTION_ANSWER._upper_bounds


@pytest.mark.parametrize(
    ("method", "path", "route"),
    [
        (
            "post",
            "/api/v10/channels/1180000000000000001/messages",
            "POST /channels/{id}/messages",
        ),
        (
            "POST",
            "/api/v10/interactions/1180000000000000001/aW50ZXJhY3Rpb246c2VjcmV0/callback",
            "POST /interactions/{id}/{token}/callback",
        ),
        (
            "PATCH",
            "/api/v10/webhooks/1180000000000000002/c2VjcmV0/messages/@original?wait=true",
            "PATCH /webhooks/{id}/{token}/messages/@original",
        ),
        ("GET", "/api/v10/gateway/bot", "GET /gateway/bot"),
    ],
)
def test_routes_are_templated_without_ids_or_tokens(method: str, path: str, route: str) -> None:
    assert discord_http.route_of(method, path) == route


async def test_requests_by_route_and_status_429s_by_scope_answers_timed() -> None:
    """One aiohttp session with the trace, against a small server: the routes are
    counted by exact status, a 429 by its scope, an interaction's callback times it."""

    async def limited(request: web.Request) -> web.Response:
        scope = request.query.get("scope", "user")
        return web.json_response(
            {"retry_after": 0.1, "global": False}, status=429, headers={"X-RateLimit-Scope": scope}
        )

    async def fine(_request: web.Request) -> web.Response:
        return web.json_response({})

    app = web.Application()
    app.router.add_get("/api/v10/channels/{id}/limited", limited)
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", fine)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}/api/v10"
    limited_route = {"route": "GET /channels/{id}/limited", "status": "429"}
    callback_route = {"route": "POST /interactions/{id}/{token}/callback", "status": "200"}
    before = {
        "user": sample("lockdown_discord_rate_limited_total", scope="user"),
        "shared": sample("lockdown_discord_rate_limited_total", scope="shared"),
        "limited": sample("lockdown_discord_requests_total", **limited_route),
        "callback": sample("lockdown_discord_requests_total", **callback_route),
        "answered": sample("lockdown_interaction_answer_seconds_count"),
        "slow": sample("lockdown_interaction_answer_seconds_bucket", le="0.1"),
    }
    discord_http.interaction_arrived(1180000000000000077)
    await asyncio.sleep(0.12)
    try:
        async with aiohttp.ClientSession(trace_configs=[discord_http.http_trace()]) as session:
            for path in ("/channels/11800000000000001/limited", "/channels/1/limited?scope=shared"):
                async with session.get(base + path) as response:
                    await response.read()
            callback = "/interactions/1180000000000000077/dG9rZW4/callback"
            async with session.post(base + callback) as response:
                await response.read()
    finally:
        await runner.cleanup()
    assert sample("lockdown_discord_rate_limited_total", scope="user") == before["user"] + 1
    assert sample("lockdown_discord_rate_limited_total", scope="shared") == before["shared"] + 1
    # `/channels/1/`: 1 is too short for a snowflake, so it is its own route.
    assert sample("lockdown_discord_requests_total", **limited_route) == before["limited"] + 1
    assert sample("lockdown_discord_requests_total", **callback_route) == before["callback"] + 1
    assert sample("lockdown_interaction_answer_seconds_count") == before["answered"] + 1
    assert sample("lockdown_interaction_answer_seconds_bucket", le="0.1") == before["slow"]
    exposition = "\n".join(str(s) for f in REGISTRY.collect() for s in f.samples)
    assert "dG9rZW4" not in exposition
    assert "1180000000000000077" not in exposition


def test_an_interaction_never_answered_is_counted_once_forgotten() -> None:
    discord_http.interactions_left_waiting()  # what earlier tests left
    before = sample("lockdown_interactions_unanswered_total")
    start = time.monotonic()
    discord_http.interaction_arrived(5_000_000_001, now=start)
    discord_http.interaction_arrived(5_000_000_002, now=start + 100)  # 100 s later
    assert sample("lockdown_interactions_unanswered_total") == before + 1
    discord_http.interaction_answered(5_000_000_002, now=start + 104)  # over 3 s: late
    assert sample("lockdown_interactions_unanswered_total") == before + 2
    discord_http.interaction_arrived(5_000_000_003)
    assert discord_http.interactions_left_waiting() == 1
    assert sample("lockdown_interactions_unanswered_total") == before + 3


async def test_time_held_back_by_a_rate_limit_is_counted_time_on_the_wire_is_not() -> None:
    async def request(held: float) -> str:
        await asyncio.sleep(held)  # what discord.py's bucket would make it wait
        return "sent"

    timed = discord_http.timed_request(request)
    before = sample("lockdown_discord_rate_limit_wait_seconds_total")
    assert await timed(0.2) == "sent"
    waited = sample("lockdown_discord_rate_limit_wait_seconds_total") - before
    assert 0.19 <= waited < 0.5
    assert await timed(0.0) == "sent"
    assert sample("lockdown_discord_rate_limit_wait_seconds_total") - before == waited


@pytest.mark.parametrize(
    ("statement", "kind"),
    [
        ("SELECT 1", "select"),
        ("  insert INTO actions VALUES (1)", "insert"),
        ("UPDATE games SET version = 2", "update"),
        ("DELETE FROM lobbies", "delete"),
        ("WITH x AS (SELECT 1) SELECT * FROM x", "select"),
        ("SELECT pg_advisory_lock(1)", "select"),
        ("BEGIN", "other"),
        ("", "other"),
    ],
)
def test_statements_are_sorted_by_kind(statement: str, kind: str) -> None:
    assert kind_of(statement) == kind


async def test_every_statement_of_the_engine_is_timed_by_kind(tmp_path: Path) -> None:
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'timed.db'}")
    time_statements(database.engine)
    try:
        await database.migrate()
        before = sample("lockdown_database_seconds_count", kind="select")
        async with database.read() as conn:
            await conn.exec_driver_sql("SELECT count(*) FROM games")
        assert sample("lockdown_database_seconds_count", kind="select") == before + 1
    finally:
        await database.close()


def test_the_delivery_lag_is_that_of_the_oldest_line_shown() -> None:
    clock = DeliveryClock()
    count = sample("lockdown_delivery_lag_seconds_count")
    clock.stored(3, now=10.0)
    clock.stored(5, now=11.0)
    clock.stored(5, now=12.0)  # the same log: no new moment
    assert clock.shown(2, now=13.0) is None, "nothing stored is shown yet"
    assert clock.shown(5, now=13.5) == 3.5
    assert clock.shown(5, now=20.0) is None
    clock.track(8, 5)
    assert sample("lockdown_delivery_lag_seconds_count") == count + 1


def test_the_request_budgets_totals_are_read_at_each_scrape() -> None:
    figures = {
        "sent": 3.0,
        "merged": 2.0,
        "carried": 5.0,
        "carry_failed": 1.0,
        "waited_seconds": 0.5,
        "waiting": 4.0,
    }
    registry = CollectorRegistry()
    registry.register(metrics.BotCollector(dict, list, dict, lambda: figures))
    assert registry.get_sample_value("lockdown_request_budget_carried_total") == 5.0
    assert registry.get_sample_value("lockdown_request_budget_merged_total") == 2.0
    assert registry.get_sample_value("lockdown_request_budget_waiting") == 4.0
    figures["carried"] = 6.0
    assert registry.get_sample_value("lockdown_request_budget_carried_total") == 6.0
