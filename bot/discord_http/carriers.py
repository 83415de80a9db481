"""Clicks whose tokens can carry a message's edits outside the bot token's global limit.

A click on a message that was answered by updating it (a deferred update, or the
update itself) leaves an interaction token whose original response is that
message; for 15 minutes Discord lets that token edit it
(`PATCH /webhooks/{application_id}/{token}/messages/@original`), and
interaction-token requests are outside the global limit. Every game's board
is clicked many times a turn (My hand again, a Done, a vote), so most edits of
a board (its progress, the turn's new lines, its fold) can go that way and
leave the token's 50 a second to what no click can carry: new messages, edits
of a board nobody clicked yet, DMs.

Pure: the time is passed in (the event loop's clock).
"""

from __future__ import annotations

from dataclasses import dataclass

# Discord keeps an interaction token for 15 minutes; a carrier is given up a minute
# before, so that an edit sent near the end cannot arrive after it.
CARRY_FOR = 14 * 60.0


@dataclass(frozen=True, slots=True)
class Carrier:
    """The token of one click on a message, good until `expires_at`."""

    application_id: int
    token: str
    expires_at: float


class Carriers:
    """The longest-lived carrier of each message that has one."""

    def __init__(self) -> None:
        self._by_message: dict[int, Carrier] = {}
        self._forgotten_at = 0.0

    def __len__(self) -> int:
        return len(self._by_message)

    def keep(self, message_id: int, carrier: Carrier, now: float) -> None:
        """A click on `message_id` answered by an update: its token may carry edits."""
        self._forget(now)
        held = self._by_message.get(message_id)
        if held is None or held.expires_at < carrier.expires_at:
            self._by_message[message_id] = carrier

    def get(self, message_id: int, now: float) -> Carrier | None:
        """The carrier for an edit of `message_id` made now, if a live one is known."""
        carrier = self._by_message.get(message_id)
        if carrier is None:
            return None
        if carrier.expires_at <= now:
            del self._by_message[message_id]
            return None
        return carrier

    def drop(self, message_id: int, carrier: Carrier) -> None:
        """`carrier` failed (the message is gone, or Discord refused the token)."""
        if self._by_message.get(message_id) is carrier:
            del self._by_message[message_id]

    def _forget(self, now: float, every: float = 60.0) -> None:
        """Carriers of messages never edited again go once expired (a minute's sweep)."""
        if now - self._forgotten_at < every:
            return
        self._forgotten_at = now
        self._by_message = {m: c for m, c in self._by_message.items() if c.expires_at > now}
