"""bot/ops/health.py and metrics.py: what an operator's probes and Prometheus read."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
from prometheus_client import CollectorRegistry
from prometheus_client.parser import text_string_to_metric_families

from bot.ops import metrics
from bot.ops.health import OpsServer
from bot.settings import StartupError


class Bot:
    """What the endpoint reads from the bot: why it is not ready, its games, its latency."""

    def __init__(self) -> None:
        self.reason: str | None = "waiting for shard 1, run by another process"
        self.games = {0: 3, 1: 2}
        self.latency = [(0, 0.042), (1, float("nan"))]


@pytest.fixture
async def served() -> AsyncIterator[tuple[Bot, str, CollectorRegistry]]:
    bot = Bot()
    registry = CollectorRegistry()
    registry.register(metrics.BotCollector(lambda: bot.games, lambda: bot.latency))
    server = OpsServer("127.0.0.1", 0, lambda: bot.reason, registry)
    await server.start()
    host, port = server.address
    try:
        yield bot, f"http://{host}:{port}", registry
    finally:
        await server.close()


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def test_healthz_answers_while_the_process_lives(
    served: tuple[Bot, str, CollectorRegistry],
) -> None:
    _bot, base, _ = served
    assert await get(f"{base}/healthz") == (200, "alive\n")


async def test_readyz_says_why_not_until_the_bot_is_ready(
    served: tuple[Bot, str, CollectorRegistry],
) -> None:
    bot, base, _ = served
    status, body = await get(f"{base}/readyz")
    assert status == 503
    assert "waiting for shard 1" in body
    bot.reason = None
    assert await get(f"{base}/readyz") == (200, "ready\n")


async def test_metrics_show_games_by_shard_and_gateway_latency(
    served: tuple[Bot, str, CollectorRegistry],
) -> None:
    _bot, base, _ = served
    status, body = await get(f"{base}/metrics")
    assert status == 200
    families = {f.name: f for f in text_string_to_metric_families(body)}
    games = {s.labels["shard"]: s.value for s in families["lockdown_games_running"].samples}
    assert games == {"0": 3.0, "1": 2.0}
    latency = families["lockdown_gateway_latency_seconds"].samples
    assert [(s.labels["shard"], s.value) for s in latency] == [("0", 0.042)], "nan is left out"


def sample(name: str, **labels: str) -> float:
    from prometheus_client import REGISTRY

    value = REGISTRY.get_sample_value(name, labels or None)
    return value or 0.0


def test_a_stored_action_is_counted_and_timed() -> None:
    stored, timed = sample("lockdown_actions_stored_total"), sample("lockdown_store_seconds_count")
    with metrics.timed_store():
        pass
    with pytest.raises(OSError, match="disk full"), metrics.timed_store():
        raise OSError("disk full")
    assert sample("lockdown_actions_stored_total") == stored + 1, "only the one that was stored"
    assert sample("lockdown_store_seconds_count") == timed + 2, "both were timed"


def test_delivery_failures_are_counted_by_kind() -> None:
    before = sample("lockdown_delivery_failures_total", kind="board_edit")
    metrics.delivery_failed("board_edit")
    assert sample("lockdown_delivery_failures_total", kind="board_edit") == before + 1


async def test_a_port_in_use_is_one_sentence_naming_ops_port(
    served: tuple[Bot, str, CollectorRegistry],
) -> None:
    _bot, base, _ = served
    port = int(base.rsplit(":", 1)[1])
    second = OpsServer("127.0.0.1", port, lambda: None)
    with pytest.raises(StartupError, match=f"OPS_PORT: cannot listen on 127.0.0.1:{port}"):
        await second.start()
    await second.close()
