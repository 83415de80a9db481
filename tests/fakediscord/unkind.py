"""What makes the real Discord unkind, as options a test turns on: latency, rate limits, failures.

All are off by default so the fast suite stays fast. Timing here is the real loop time
(`time.monotonic`), never the bot's scheduler: the fake keeps Discord's pace whatever clock
the bot is told.

Rate limits follow Discord's published behaviour: every response of a limited route carries
`X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket`; a request over its bucket is answered
429 with `Retry-After`, `X-RateLimit-Scope` and a JSON body `{message, retry_after, global}`;
more than 50 requests a second with the bot token gets a global 429 (`X-RateLimit-Global`).
Interaction callbacks and the interaction-token webhooks are outside the global limit, as
Discord documents.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections import deque
from dataclasses import dataclass, field

from .protocol import ErrorCode
from .records import InjectedFailure

# The routes that share the per-channel message bucket: sends and edits.
CHANNEL_MESSAGES = "channel messages"
MESSAGE_ROUTES = {
    "POST /channels/{channel_id}/messages": CHANNEL_MESSAGES,
    "PATCH /channels/{channel_id}/messages/{message_id}": CHANNEL_MESSAGES,
}
# Discord's major parameters: a bucket is per route and per value of these.
MAJOR_PARAMETERS = ("channel_id", "guild_id", "token")
GLOBAL_WINDOW = 1.0
# Discord's edge sends this on every response; discord.py treats a 429 without it as a ban.
VIA = "1.1 google"


@dataclass(frozen=True)
class Limit:
    """`count` requests per `per` seconds."""

    count: int
    per: float


@dataclass
class _Window:
    """One bucket's fixed window, opened by its first request."""

    limit: Limit
    opened: float
    used: int = 0

    def reset_after(self, now: float) -> float:
        return max(0.0, self.opened + self.limit.per - now)


@dataclass(frozen=True)
class RateDecision:
    """What the limiter says of one request: the headers to send, and whether it was refused."""

    headers: dict[str, str]
    retry_after: float | None = None
    is_global: bool = False

    @property
    def limited(self) -> bool:
        return self.retry_after is not None

    def body(self) -> dict[str, object]:
        return {
            "message": "You are being rate limited.",
            "retry_after": round(self.retry_after or 0.0, 3),
            "global": self.is_global,
        }


@dataclass
class RateLimits:
    """Discord's rate limits; `enabled = True` turns them on for a test.

    `routes` maps "METHOD /template" to its `Limit` (sends and edits of messages share one
    bucket per channel, 5 per 5 s); other routes get `default` per route and major parameter.
    `global_per_second` bounds every request made with the bot token.
    """

    enabled: bool = False
    routes: dict[str, Limit] = field(
        default_factory=lambda: {
            "POST /channels/{channel_id}/messages": Limit(5, 5.0),
            "PATCH /channels/{channel_id}/messages/{message_id}": Limit(5, 5.0),
            "DELETE /channels/{channel_id}/messages/{message_id}": Limit(5, 1.0),
        }
    )
    default: Limit = field(default_factory=lambda: Limit(10, 1.0))
    global_per_second: int = 50
    _windows: dict[tuple[str, str], _Window] = field(default_factory=dict, repr=False)
    _global: deque[float] = field(default_factory=deque, repr=False)

    def spend_global(self, count: int) -> None:
        """Count `count` bot-token requests as made just now: a test's burst then starts at
        the global limit however slowly a busy machine lets it reach the fake."""
        now = time.monotonic()
        self._global.extend(now for _ in range(count))

    def decide(
        self, route: str, params: dict[str, str], *, bot_token: bool, interaction: bool
    ) -> RateDecision | None:
        """Count one request and say whether Discord would let it through (None when off).

        `interaction` routes (callbacks, interaction-token webhooks) skip the global limit.
        """
        if not self.enabled:
            return None
        now = time.monotonic()
        if bot_token and not interaction:
            refused = self._global_refusal(now)
            if refused is not None:
                return refused
        bucket = MESSAGE_ROUTES.get(route, route)
        major = ":".join(params.get(p, "") for p in MAJOR_PARAMETERS)
        key = (bucket, major)
        window = self._windows.get(key)
        if window is None or window.reset_after(now) == 0.0:
            window = _Window(self.routes.get(route, self.default), opened=now)
            self._windows[key] = window
        reset_after = window.reset_after(now)
        headers = {
            "X-RateLimit-Limit": str(window.limit.count),
            "X-RateLimit-Remaining": str(max(0, window.limit.count - window.used - 1)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(bucket.encode()).hexdigest()[:32],
        }
        if window.used >= window.limit.count:
            headers["X-RateLimit-Remaining"] = "0"
            headers["Retry-After"] = str(math.ceil(reset_after))
            headers["X-RateLimit-Scope"] = "user"
            return RateDecision(headers, retry_after=reset_after)
        window.used += 1
        if bot_token and not interaction:
            self._global.append(now)
        return RateDecision(headers)

    def _global_refusal(self, now: float) -> RateDecision | None:
        while self._global and self._global[0] <= now - GLOBAL_WINDOW:
            self._global.popleft()
        if len(self._global) < self.global_per_second:
            return None
        retry_after = self._global[0] + GLOBAL_WINDOW - now
        headers = {
            "Retry-After": str(math.ceil(retry_after)),
            "X-RateLimit-Global": "true",
            "X-RateLimit-Scope": "global",
        }
        return RateDecision(headers, retry_after=retry_after, is_global=True)


class Latency:
    """Seconds each request takes: fixed, or drawn from a (min, max) range with a seeded RNG."""

    def __init__(self, seconds: float | tuple[float, float], *, seed: int = 0) -> None:
        low, high = (seconds, seconds) if isinstance(seconds, int | float) else seconds
        if not 0 <= low <= high:
            raise ValueError(f"latency must be 0 <= min <= max, got {seconds!r}")
        self.low, self.high = float(low), float(high)
        self._random = random.Random(seed)

    def draw(self) -> float:
        return self.low if self.low == self.high else self._random.uniform(self.low, self.high)


# What Discord answers for each failure a test can inject: (message, default error code).
FAILURE_BODIES: dict[int, tuple[str, int]] = {
    403: ("Missing Access", ErrorCode.MISSING_ACCESS),
    404: ("Unknown Channel", ErrorCode.UNKNOWN_CHANNEL),
    500: ("500: Internal Server Error", 0),
    502: ("502: Bad Gateway", 0),
    503: ("503: Service Unavailable", 0),
    504: ("504: Gateway Timeout", 0),
}
ERROR_MESSAGES: dict[int, str] = {
    ErrorCode.MISSING_ACCESS: "Missing Access",
    ErrorCode.MISSING_PERMISSIONS: "Missing Permissions",
    ErrorCode.UNKNOWN_CHANNEL: "Unknown Channel",
    ErrorCode.UNKNOWN_MESSAGE: "Unknown Message",
}


@dataclass
class PlannedFailure:
    """`times` requests to `route` (in `channel_id`, if set) fail with `status`, or are dropped."""

    route: str
    status: int | None
    code: int | None
    times: int
    channel_id: int | None = None

    def matches(self, route: str, channel_id: int | None) -> bool:
        return (
            self.times > 0
            and self.route == route
            and (self.channel_id is None or self.channel_id == channel_id)
        )

    def body(self) -> dict[str, object] | None:
        """Discord's JSON error body for this failure (None for a dropped connection)."""
        if self.status is None:
            return None
        message, code = FAILURE_BODIES.get(self.status, (f"{self.status}: Error", 0))
        if self.code is not None:
            code = self.code
            message = ERROR_MESSAGES.get(self.code, message)
        return {"message": message, "code": code}


class FailurePlan:
    """The failures a test asked for, consumed in order, and the record of those that struck."""

    def __init__(self) -> None:
        self.planned: list[PlannedFailure] = []
        self.struck: list[InjectedFailure] = []

    def add(self, failure: PlannedFailure) -> None:
        self.planned.append(failure)

    def take(self, route: str, path: str, channel_id: int | None) -> PlannedFailure | None:
        """The first planned failure for this request, counted down and recorded; or None."""
        for failure in self.planned:
            if failure.matches(route, channel_id):
                failure.times -= 1
                self.struck.append(
                    InjectedFailure(
                        at=time.monotonic(),
                        route=route,
                        path=path,
                        channel_id=channel_id,
                        status=failure.status,
                        code=failure.code,
                    )
                )
                return failure
        return None
