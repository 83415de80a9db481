"""Discord's per-route buckets, learned from the `X-RateLimit-*` headers of the answers.

A route (its method and path template) belongs to a bucket that Discord names
by a hash; the bucket counts per major parameter (channel, guild, webhook), so
`hash:major` is one counter: sends and edits of messages in one thread share
one. A route is learned from its first answer; until then its requests go one
at a time, and also count against every bucket already known for the same
major parameter, because the new route may turn out to share one of them
(it is how a first edit after a burst of sends would meet a 429).

Every estimate leans to the safe side. A bucket's end is the answer's
`Reset-After` counted from when the answer arrived, later than Discord's own
end; a refilled bucket holds its limit less the requests still on their way,
which may land in the new window; an answer's `Remaining` is reduced by the
requests sent after it that Discord may already have counted.

Pure: the time is passed in; no asyncio, no clock of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

# A learned bucket that lost track of its window (an answer without headers) waits this
# long before it trusts its limit again.
UNKNOWN_RESET = 1.0


@dataclass(frozen=True, slots=True)
class RateHeaders:
    """What an answer says of its bucket."""

    limit: int
    remaining: int
    reset_after: float
    bucket: str | None

    @classmethod
    def parse(cls, headers: Mapping[str, str]) -> RateHeaders | None:
        """The rate-limit headers of an answer, or None if it carries none."""
        lowered = {key.lower(): value for key, value in headers.items()}
        try:
            return cls(
                limit=int(lowered["x-ratelimit-limit"]),
                remaining=int(lowered["x-ratelimit-remaining"]),
                reset_after=float(lowered["x-ratelimit-reset-after"]),
                bucket=lowered.get("x-ratelimit-bucket"),
            )
        except (KeyError, ValueError):
            return None


@dataclass(slots=True)
class Bucket:
    """One counter: how many requests may still go before `reset_at`."""

    limit: int = 1
    remaining: int = 1
    reset_at: float | None = None
    in_flight: int = 0
    learned: bool = False
    period: float = 0.0  # the longest window Discord told of
    window_end: float | None = None  # the earliest end told of the window last heard of

    def has_space(self, now: float) -> bool:
        if self.reset_at is not None and now >= self.reset_at:
            # The window is over; what is still on its way may count in the next one.
            self.remaining = max(0, self.limit - self.in_flight)
            self.reset_at = None
        if self.remaining <= 0 and self.reset_at is None and self.in_flight == 0:
            # Emptied by an unlearned route's requests counted here too (`Buckets.take`),
            # with none of its own on its way: no answer will ever say when it frees up,
            # so it waits as for a lost window instead of for good.
            self.reset_at = now + UNKNOWN_RESET
        return self.remaining > 0

    def take(self) -> None:
        self.remaining -= 1
        self.in_flight += 1

    def answered(self, now: float, headers: RateHeaders | None) -> None:
        """One of this bucket's requests came back, with or without its headers."""
        self.in_flight -= 1
        if headers is None:
            if not self.learned:
                # A route without limits: one request at a time, no more.
                self.remaining = max(self.remaining, self.limit - self.in_flight)
            elif self.reset_at is None and self.remaining <= 0:
                self.reset_at = now + UNKNOWN_RESET
            return
        self.learn(now, headers)

    def learn(self, now: float, headers: RateHeaders) -> None:
        """Take in what an answer says, never trusting it for more room than it proves.

        Answers come back in any order. One from a window that ends more than half
        a period after the window this bucket knows is a new window (a window's
        answers end within their return delays of each other, and the next window
        cannot end sooner than a period later); one that ends within that margin
        is the same window, and may only lower the room left.
        """
        self.learned = True
        self.limit = headers.limit
        if headers.reset_after <= 0:
            return  # that window is already over: it says nothing of the next one
        ends = now + headers.reset_after
        self.period = max(self.period, headers.reset_after)
        estimate = max(0, headers.remaining - self.in_flight)
        margin = self.period / 2
        if self.window_end is None or ends > self.window_end + margin:
            self.window_end = ends
            self.remaining = min(estimate, self.limit - self.in_flight)
            self.reset_at = ends
        elif ends >= self.window_end - margin:
            self.window_end = min(self.window_end, ends)
            self.remaining = min(self.remaining, estimate)
            self.reset_at = ends if self.reset_at is None else max(self.reset_at, ends)
        # else: a late answer from a window already replaced; it says nothing new.


class Buckets:
    """Every bucket of one token, found by route and major parameter."""

    def __init__(self) -> None:
        self._hashes: dict[str, str] = {}  # route key -> Discord's bucket hash
        self._limits: dict[str, int] = {}  # bucket hash -> its limit (the same per major)
        self._states: dict[str, Bucket] = {}
        self._known: dict[str, set[str]] = {}  # major -> keys of its learned buckets

    def key(self, route_key: str, major: str) -> str:
        found = self._hashes.get(route_key)
        return f"{found}:{major}" if found else f"{route_key}:{major}"

    def state(self, key: str) -> Bucket:
        bucket = self._states.get(key)
        if bucket is None:
            limit = self._limits.get(key.rpartition(":")[0])
            bucket = Bucket(limit, limit) if limit else Bucket()
            self._states[key] = bucket
        return bucket

    def _siblings(self, route_key: str, major: str) -> list[Bucket]:
        """The buckets an unlearned route might share: those learned for its major."""
        if route_key in self._hashes:
            return []
        return [self._states[key] for key in self._known.get(major, ())]

    def has_space(self, route_key: str, major: str, now: float) -> bool:
        return not self._blocking(route_key, major, now)

    def free_at(self, route_key: str, major: str, now: float) -> float | None:
        """When a blocked route may have room again (None: when an answer comes back)."""
        ends = [b.reset_at for b in self._blocking(route_key, major, now) if b.reset_at is not None]
        return min(ends) if ends else None

    def _blocking(self, route_key: str, major: str, now: float) -> list[Bucket]:
        """The buckets that hold a request of this route back at `now`."""
        own = self.state(self.key(route_key, major))
        return [b for b in (own, *self._siblings(route_key, major)) if not b.has_space(now)]

    def take(self, route_key: str, major: str) -> str:
        """Count one request going out; the key of the bucket it is counted in."""
        key = self.key(route_key, major)
        self.state(key).take()
        for bucket in self._siblings(route_key, major):
            bucket.remaining -= 1
        return key

    def answered(
        self, key: str, route_key: str, major: str, headers: RateHeaders | None, now: float
    ) -> None:
        """A request counted in `key` came back; learn its route's bucket from `headers`."""
        sent = self._states[key]
        if headers is None or headers.bucket is None:
            sent.answered(now, headers)
            return
        sent.in_flight -= 1
        self._hashes[route_key] = headers.bucket
        self._limits[headers.bucket] = headers.limit
        target_key = f"{headers.bucket}:{major}"
        target = self.state(target_key)
        self._known.setdefault(major, set()).add(target_key)
        target.learn(now, headers)
        if target is not sent and sent.in_flight == 0 and not sent.learned:
            del self._states[key]  # the stand-in of a route now learned

    def forget_idle(self, now: float) -> None:
        """Drop the buckets whose window is over and that nothing uses (old threads)."""
        idle = [
            key
            for key, bucket in self._states.items()
            if bucket.in_flight == 0 and bucket.reset_at is not None and now >= bucket.reset_at
        ]
        for key in idle:
            del self._states[key]
            major = key.rpartition(":")[2]
            known = self._known.get(major)
            if known is not None:
                known.discard(key)
                if not known:
                    del self._known[major]
