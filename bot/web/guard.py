"""Around every answer of `lockdown-web`: the security headers and a limit per client.

The headers forbid what the pages never need: inline script and style, other
origins, frames, sniffing content types, sending the address on as a referrer.
`noindex` (the default) also says so in `X-Robots-Tag`, so the pictures are not
indexed either.

The limit is a token bucket per client address (the proxy's `X-Forwarded-For`
once uvicorn trusts it, `WEB_FORWARDED_ALLOW_IPS`): a burst of a page's files
passes, a scraper walking addresses gets 429 with `Retry-After`. Buckets of
clients gone quiet are dropped, so the table stays small.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
NOINDEX = (b"x-robots-tag", b"noindex, nofollow")
# How many requests a client may send at once before the per-minute pace applies.
BURST = 60
MAX_CLIENTS = 10_000


class RateLimit:
    """A bucket of `BURST` requests per client, refilled at `per_minute` a minute (0: off)."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_minute / 60
        self.capacity = float(min(BURST, per_minute)) if per_minute else 0.0
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}

    @property
    def on(self) -> bool:
        return self.per_second > 0

    def allow(self, client: str) -> float:
        """0 if `client` may be answered now, else the seconds until it may."""
        now = self.clock()
        tokens, then = self.buckets.get(client, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - then) * self.per_second)
        if len(self.buckets) >= MAX_CLIENTS and client not in self.buckets:
            self._forget(now)
        if tokens < 1:
            self.buckets[client] = (tokens, now)
            return (1 - tokens) / self.per_second
        self.buckets[client] = (tokens - 1, now)
        return 0.0

    def _forget(self, now: float) -> None:
        """Drop the clients whose bucket is full again: they lose nothing by it."""
        refill = self.capacity / self.per_second
        self.buckets = {c: b for c, b in self.buckets.items() if now - b[1] < refill}


def guarded(app: ASGIApp, limit: RateLimit, too_many_body: bytes, noindex: bool) -> ASGIApp:
    """`app` with the headers on every answer and the limit before every request."""
    extra = [*HEADERS, NOINDEX] if noindex else list(HEADERS)

    async def guard(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        client = scope.get("client")
        wait = limit.allow(client[0] if client else "") if limit.on else 0.0
        if wait:
            await with_headers(
                {
                    "type": "http.response.start",
                    "status": 429,
                    "headers": [
                        (b"content-type", b"text/html; charset=utf-8"),
                        (b"retry-after", str(max(1, round(wait))).encode()),
                        (b"content-length", str(len(too_many_body)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": too_many_body})
            return
        await app(scope, receive, with_headers)

    return guard
