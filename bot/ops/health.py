"""The operators' HTTP endpoint (OPS_PORT): /metrics, /healthz and /readyz.

- /healthz: the process is alive and its event loop answers (a liveness probe
  restarts the process when this stops answering).
- /readyz: 200 once this process holds its shards, has resumed their games
  and every shard is connected to Discord; 503 with the reason before that (a
  new process of a deploy waiting for the old one's shards is not ready).
- /metrics: Prometheus' text exposition of `bot.ops.metrics`.

Served by aiohttp, which discord.py already brings, in the bot's own loop.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from aiohttp import web
from prometheus_client import REGISTRY, CollectorRegistry
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

from bot.settings import StartupError

log = logging.getLogger(__name__)


class OpsServer:
    """The endpoint; `not_ready` says why the bot is not ready, or None when it is."""

    def __init__(
        self,
        host: str,
        port: int,
        not_ready: Callable[[], str | None],
        registry: CollectorRegistry = REGISTRY,
    ) -> None:
        self.host = host
        self.port = port
        self.not_ready = not_ready
        self.registry = registry
        self._runner: web.AppRunner | None = None

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        app.router.add_get("/metrics", self._metrics)
        return app

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            await self._runner.cleanup()
            self._runner = None
            raise StartupError(
                f"OPS_PORT: cannot listen on {self.host}:{self.port} ({exc.strerror or exc}); "
                "stop what uses that port or choose another one"
            ) from exc
        log.info("operators' endpoint on http://%s:%s (/metrics /healthz /readyz)", *self.address)

    @property
    def address(self) -> tuple[str, int]:
        """Where it listens (the real port when OPS_PORT asked for any free one in tests)."""
        if self._runner is not None:
            for address in self._runner.addresses:
                return str(address[0]), int(address[1])
        return self.host, self.port

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _healthz(self, _request: web.Request) -> web.Response:
        return web.Response(text="alive\n")

    async def _readyz(self, _request: web.Request) -> web.Response:
        reason = self.not_ready()
        if reason is None:
            return web.Response(text="ready\n")
        return web.Response(status=503, text=f"not ready: {reason}\n")

    async def _metrics(self, _request: web.Request) -> web.Response:
        body = generate_latest(self.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
