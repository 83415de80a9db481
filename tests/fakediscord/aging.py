"""What time does on Discord: threads archive after their inactivity period, and edits of
messages older than an hour are limited (error 30046).

Both are documented by Discord and both are met by a slow game, whose steps last hours:
- Threads (Discord's "Threads" topic): a thread archives after `auto_archive_duration`
  minutes (60, 1440, 4320 or 10080) without activity; activity is sending a message,
  unarchiving, or changing the duration. In an archived thread messages cannot be edited
  (error 50083), members cannot join, and application commands cannot be used; sending a
  message unarchives it unless it is locked; deleting a message still works.
- Error 30046, "Maximum number of edits to messages older than 1 hour reached. Try again
  later": Discord does not publish how many such edits it allows, so the fake allows
  `old_edits` per channel per `old_window` (none by default: the conservative reading,
  which a bot must survive anyway).

`speed` is how many of Discord's seconds pass in one real second. It is 1 by default, so
the fast suite (whose games last seconds) never meets either limit; a test that runs the
bot's clock fast sets the same speed here, so that a 24-hour step meets an hour-old board
and an idle thread within seconds of real time.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime

from .protocol import ApiError, form_error
from .records import FakeChannel, FakeMessage

# Discord: the only inactivity periods a thread may have, in minutes.
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
OLD_MESSAGE_AGE = 3600.0
ARCHIVED_THREAD = 50083
OLD_MESSAGE_EDITS = 30046


@dataclass
class Aging:
    """Discord's clock as the fake keeps it, and the limits that come with time."""

    speed: float = 1.0
    old_after: float = OLD_MESSAGE_AGE
    old_edits: int = 0
    old_window: float = OLD_MESSAGE_AGE
    # Monotonic times of each channel's recent edits of old messages.
    _edits: dict[int, deque[float]] = field(default_factory=dict)

    def archive_if_idle(self, channel: FakeChannel) -> bool:
        """Archive a thread idle past its period; True if this call archived it (Discord
        then sends THREAD_UPDATE)."""
        if not channel.is_thread or channel.archived or channel.deleted:
            return False
        idle = (time.monotonic() - channel.active_at) * self.speed
        if idle <= channel.auto_archive_duration * 60:
            return False
        channel.archived = True
        return True

    @staticmethod
    def touch(channel: FakeChannel) -> None:
        """Activity in the thread: its inactivity period starts again."""
        channel.active_at = time.monotonic()

    @staticmethod
    def check_duration(duration: object) -> None:
        if duration is not None and duration not in ARCHIVE_DURATIONS:
            raise form_error(
                "auto_archive_duration", f"Value must be one of {list(ARCHIVE_DURATIONS)}."
            )

    def check_send(self, channel: FakeChannel) -> None:
        """A message sent into an archived thread unarchives it, unless it is locked."""
        if channel.is_thread and channel.archived:
            if channel.locked:
                raise ApiError(400, ARCHIVED_THREAD, "Thread is locked")
            channel.archived = False
        if channel.is_thread:
            self.touch(channel)

    def check_edit(self, channel: FakeChannel, message: FakeMessage, now: datetime) -> None:
        """Refuse an edit as Discord would: in an archived thread (50083), or of a message
        older than an hour past the channel's allowance (30046). Private messages are
        outside both: they live in no thread's history."""
        if message.ephemeral:
            return
        if channel.is_thread and channel.archived:
            raise ApiError(400, ARCHIVED_THREAD, "Thread is archived")
        if channel.guild_id is None:
            return
        age = (now - message.versions[0].at).total_seconds() * self.speed
        if age <= self.old_after:
            return
        recent = self._edits.setdefault(channel.id, deque())
        real_now = time.monotonic()
        while recent and (real_now - recent[0]) * self.speed > self.old_window:
            recent.popleft()
        if len(recent) >= self.old_edits:
            raise ApiError(
                400,
                OLD_MESSAGE_EDITS,
                "Maximum number of edits to messages older than 1 hour reached. Try again later",
            )
        recent.append(real_now)

    @staticmethod
    def check_join(channel: FakeChannel) -> None:
        if channel.archived:
            raise ApiError(400, ARCHIVED_THREAD, "Thread is archived")
