"""The request budget's bookkeeping: who waits, in what order, and who may go now.

`Budget` is pure (the time is passed in) so its decisions are tested with a
made-up clock; `bot.discord_http.client` drives it on the event loop.

- The global limit: a request counts from the moment it leaves until one
  second after its answer came back, and at most `per_second` count at once.
  Discord counted it at some moment in between, wherever the network's delays
  or a busy event loop put it; so any second Discord looks at holds only
  requests that all counted here at its end: never more than `per_second`.
- Each request waits for its bucket (`bot.discord_http.buckets`). Waiting
  requests go in order of priority, then of arrival; a request whose bucket
  is empty never holds back one whose bucket has room.
- Two edits of one message are never on their way together (the network could
  swap them): the second waits for the first to come back.
- An edit that waits absorbs the next edit of the same message
  (`bot.discord_http.merge`): it keeps its place in the line, takes the more
  urgent of the two priorities, and both callers get the one answer. Only
  the latest version of a message is sent; nothing else is ever dropped.
- An edit of a message someone clicked (`bot.discord_http.carriers`) goes with
  that click's token, at once: it takes no room in the global window nor in
  the channel's bucket, and waits only for the edit of the same message on its
  way. Should the token fail, the edit goes back in the line with the bot's.
"""

from __future__ import annotations

import bisect
import itertools
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from bot.discord_http.buckets import Buckets, RateHeaders
from bot.discord_http.carriers import Carrier, Carriers
from bot.discord_http.merge import body_of, merged
from bot.discord_http.priority import Priority

# How often idle buckets (threads of games long over) are forgotten.
FORGET_EVERY = 60.0

# The route a carried edit is made on, as the counts name it.
CARRIED_ROUTE = "PATCH /webhooks/{application_id}/{interaction_token}/messages/@original"


@dataclass(eq=False, slots=True)
class Ticket:
    """One request to make: a caller's, or several callers' edits merged into one."""

    seq: int
    priority: Priority
    method: str
    route_key: str
    major: str
    url: str
    kwargs: dict[str, Any]
    submitted_at: float
    route: Any = None  # what the sender needs to make the request (a discord.py Route)
    # The message an edit changes, when a click's token could carry it (`carriers`).
    message_id: int | None = None
    carrier: Carrier | None = None  # the token carrying it, once sent that way
    uncarried: bool = False  # a carrier failed it: it goes with the bot token
    callers: int = 1
    bucket_key: str | None = None
    sent_at: float | None = None
    headers: RateHeaders | None = None

    @property
    def order(self) -> tuple[int, int]:
        return (self.priority, self.seq)


class GlobalWindow:
    """At most `per_second` requests counting at once; each counts from the moment it
    leaves until `window` seconds after its answer."""

    def __init__(self, per_second: int, window: float = 1.0) -> None:
        self.per_second = per_second
        self.window = window
        self._flying = 0
        self._answered: deque[float] = deque()  # when each answered request stops counting

    def has_space(self, now: float) -> bool:
        while self._answered and self._answered[0] <= now:
            self._answered.popleft()
        return self._flying + len(self._answered) < self.per_second

    def take(self) -> None:
        self._flying += 1

    def release(self, now: float) -> None:
        self._flying -= 1
        self._answered.append(now + self.window)

    def free_at(self) -> float | None:
        """When a request stops counting (None: only when an answer comes back)."""
        return self._answered[0] if self._answered else None


@dataclass
class Counts:
    """What the budget did, for metrics and the load bench."""

    submitted: int = 0
    sent: int = 0  # with the bot token
    merged: int = 0
    carried: int = 0  # edits made with a click's token instead (`carriers`)
    carry_failed: int = 0  # of those, sent again with the bot token
    waited: float = 0.0  # total seconds requests spent waiting for the budget
    longest_wait: float = 0.0
    by_route: dict[str, int] = field(default_factory=dict)


class Budget:
    """The waiting line of one bot token's requests in one process."""

    def __init__(self, per_second: int, window: float = 1.0) -> None:
        self.buckets = Buckets()
        self.global_window = GlobalWindow(per_second, window)
        self.counts = Counts()
        self.carriers = Carriers()
        self._waiting: list[Ticket] = []  # sorted by `Ticket.order`
        self._edits: dict[str, Ticket] = {}  # url -> the waiting edit that absorbs the next
        self._editing: set[str] = set()  # urls with an edit on its way
        self._seq = itertools.count()
        self._forgotten_at = 0.0

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def submit(
        self,
        *,
        method: str,
        route_key: str,
        major: str,
        url: str,
        kwargs: dict[str, Any],
        priority: Priority,
        now: float,
        route: Any = None,
        message_id: int | None = None,
    ) -> Ticket:
        """Queue a request; an edit of a message whose edit still waits joins that one.
        `message_id` names the message of an edit that a click's token may carry."""
        self.counts.submitted += 1
        if method == "PATCH":
            older = self._edits.get(url)
            combined = merged(older.kwargs, kwargs) if older is not None else None
            if older is not None and combined is not None:
                older.kwargs = combined
                older.callers += 1
                older.route = route
                self.counts.merged += 1
                if priority < older.priority:
                    self._waiting.remove(older)
                    older.priority = priority
                    bisect.insort(self._waiting, older, key=lambda t: t.order)
                return older
        ticket = Ticket(
            next(self._seq), priority, method, route_key, major, url, kwargs, now, route
        )
        bisect.insort(self._waiting, ticket, key=lambda t: t.order)
        if method == "PATCH" and body_of(kwargs) is not None:
            ticket.message_id = message_id
            self._edits[url] = ticket
        return ticket

    def abandon(self, ticket: Ticket) -> bool:
        """Take back a request nobody waits for any more; False if it already went."""
        if ticket.sent_at is not None or ticket not in self._waiting:
            return False
        self._waiting.remove(ticket)
        if self._edits.get(ticket.url) is ticket:
            del self._edits[ticket.url]
        return True

    def pick(self, now: float) -> tuple[list[Ticket], float | None]:
        """The requests that go now, and when to look again (None: at the next answer).

        Once the global window is full only carried edits still go, so the line is
        read to its end rather than to the first request the window holds back.
        """
        self._forget(now)
        chosen: list[Ticket] = []
        kept: list[Ticket] = []
        blocked: set[str] = set()
        held: set[str] = set()  # messages with an edit kept waiting: the next ones follow it
        wake: float | None = None
        full = False
        for ticket in self._waiting:
            if ticket.method == "PATCH" and (ticket.url in self._editing or ticket.url in held):
                # After the edit on its way, or an older one still waiting (one a carrier
                # gave back): they could land swapped.
                self._keep(ticket, kept, held)
                continue
            carrier = self._carrier(ticket, now)
            if carrier is not None:
                ticket.carrier = carrier
                self._sent(ticket, now)
                chosen.append(ticket)
                continue
            if full or not self.global_window.has_space(now):
                if not full:
                    full = True
                    wake = _earliest(wake, self.global_window.free_at())
                self._keep(ticket, kept, held)
                continue
            key = self.buckets.key(ticket.route_key, ticket.major)
            if key in blocked or not self.buckets.has_space(ticket.route_key, ticket.major, now):
                if key not in blocked:
                    blocked.add(key)
                    wake = _earliest(
                        wake, self.buckets.free_at(ticket.route_key, ticket.major, now)
                    )
                self._keep(ticket, kept, held)
                continue
            ticket.bucket_key = self.buckets.take(ticket.route_key, ticket.major)
            self.global_window.take()
            self._sent(ticket, now)
            chosen.append(ticket)
        self._waiting = kept
        return chosen, wake

    @staticmethod
    def _keep(ticket: Ticket, kept: list[Ticket], held: set[str]) -> None:
        """`ticket` waits on; a later edit of its message may not overtake it."""
        kept.append(ticket)
        if ticket.method == "PATCH":
            held.add(ticket.url)

    def _carrier(self, ticket: Ticket, now: float) -> Carrier | None:
        if ticket.message_id is None or ticket.uncarried:
            return None
        return self.carriers.get(ticket.message_id, now)

    def _sent(self, ticket: Ticket, now: float) -> None:
        ticket.sent_at = now
        if self._edits.get(ticket.url) is ticket:
            del self._edits[ticket.url]
        if ticket.method == "PATCH":
            self._editing.add(ticket.url)
        counts = self.counts
        if ticket.carrier is not None:
            counts.carried += 1
            counts.by_route[CARRIED_ROUTE] = counts.by_route.get(CARRIED_ROUTE, 0) + 1
            return
        waited = now - ticket.submitted_at
        counts.sent += 1
        counts.waited += waited
        counts.longest_wait = max(counts.longest_wait, waited)
        counts.by_route[ticket.route_key] = counts.by_route.get(ticket.route_key, 0) + 1

    def answered(self, ticket: Ticket, now: float) -> None:
        """The request came back (or failed): its bucket learns what the answer said."""
        if ticket.method == "PATCH":
            self._editing.discard(ticket.url)
        if ticket.carrier is not None:
            return  # a click's token: neither the global window nor the bot's buckets
        assert ticket.bucket_key is not None, "only a request that went can come back"
        self.global_window.release(now)
        self.buckets.answered(
            ticket.bucket_key, ticket.route_key, ticket.major, ticket.headers, now
        )

    def uncarry(self, ticket: Ticket) -> None:
        """A carried edit that failed, back in the line to go with the bot token (its
        carrier forgotten): in its old place, so it still goes before a newer edit."""
        assert ticket.carrier is not None
        assert ticket.message_id is not None
        self.carriers.drop(ticket.message_id, ticket.carrier)
        self.counts.carry_failed += 1
        ticket.carrier = None
        ticket.uncarried = True
        ticket.sent_at = None
        bisect.insort(self._waiting, ticket, key=lambda t: t.order)

    def _forget(self, now: float) -> None:
        if now - self._forgotten_at >= FORGET_EVERY:
            self._forgotten_at = now
            self.buckets.forget_idle(now)


def _earliest(current: float | None, candidate: float | None) -> float | None:
    if candidate is None:
        return current
    return candidate if current is None else min(current, candidate)
