"""What each person receives from the bot, request by request, in a form two worlds
can compare byte for byte.

A person receives everything public (the channel and the game's thread: every send,
edit and deletion, their pictures and alt texts), their own DMs, and the answers to
their own clicks (callbacks and the follow-ups and edits made with the click's token),
which are public when the message they make or change is. Reads (GET) reach nobody.
Discord's ids differ between two runs (they carry the time), so each stream names the
ids it meets by their order of appearance: two worlds that show the same things in the
same order give equal streams.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord import FakeDiscord
from tests.fakediscord.protocol import ChannelType
from tests.fakediscord.records import FakeInteraction, RequestRecord

EPHEMERAL = 64
LONG_NUMBER = re.compile(r"\d{15,20}")
TOKEN = re.compile(r"ix-\d+-[0-9a-f]+")
HOOK = re.compile(r"^/(?:interactions/\d+|webhooks/\d+)/(ix-\d+-[0-9a-f]+)")


@dataclass(frozen=True)
class Seen:
    """One request as a person saw it: the move it followed and what it carried; for an
    edit of a channel's message, also the message as it stood once the move was over."""

    tick: int
    what: str
    after: str = field(default="", compare=False)


def _entry(record: RequestRecord) -> str:
    body = json.dumps(record.body, sort_keys=True, ensure_ascii=False, default=str)
    files = [f"{u.index}:{u.filename}:{hashlib.sha256(u.data).hexdigest()}" for u in record.uploads]
    path = TOKEN.sub("<token>", record.path)
    return f"{record.method} {path} {record.status} {body} {files}"


EDITED = re.compile(r"^/channels/(\d+)/messages/(\d+)$")


def _message_after(fake: FakeDiscord, record: RequestRecord) -> str:
    """What an edited channel message shows once the move is over: its words, embeds,
    components and pictures (their bytes' hash and alt text)."""
    match = EDITED.match(record.path)
    if record.method != "PATCH" or match is None:
        return ""
    for message in fake.messages(int(match.group(1))):
        if message.id == int(match.group(2)):
            now = message.current
            pictures = [
                (a.filename, hashlib.sha256(a.data).hexdigest(), a.description)
                for a in now.attachments
            ]
            shown = [now.content, now.embeds, now.components, pictures, now.flags]
            return json.dumps(shown, sort_keys=True, ensure_ascii=False, default=str)
    return ""


def _flags(value: Any) -> int:
    if isinstance(value, dict):
        data = value.get("data") if "type" in value and "data" in value else value
        if isinstance(data, dict):
            return int(data.get("flags") or 0)
    return 0


class Audience:
    """Who sees each request: everyone (None) or one user id."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def _interaction(self, token: str) -> FakeInteraction | None:
        for ix in reversed(self.fake.interactions):
            if ix.token == token:
                return ix
        return None

    def of(self, record: RequestRecord) -> int | bool | None:
        """None: public; an id: that user alone; False: nobody (a read)."""
        if record.method == "GET":
            return False
        hook = HOOK.match(record.path)
        if hook is not None:
            ix = self._interaction(hook.group(1))
            if ix is None:
                return None
            return ix.user.id if self._private(record, ix) else None
        if record.path == "/users/@me/channels":
            return int((record.body or {}).get("recipient_id", 0))
        if record.channel_id is not None:
            try:
                channel = self.fake.channel(record.channel_id)
            except KeyError:
                return None
            if channel.type == ChannelType.DM:
                return channel.recipient_id
        return None

    @staticmethod
    def _private(record: RequestRecord, ix: FakeInteraction) -> bool:
        if record.path.endswith("/callback"):
            kind = int((record.body or {}).get("type", 0))
            if kind in (6, 7):  # an update of the message clicked
                return ix.message is None or ix.message.visible_to is not None
            if kind in (4, 5):
                return bool(_flags(record.body) & EPHEMERAL)
            return True  # a modal, an autocomplete: the person's own
        if record.path.endswith("/@original"):
            return ix.original is None or ix.original.visible_to is not None
        response = record.response if isinstance(record.response, dict) else {}
        return bool(int(response.get("flags") or 0) & EPHEMERAL) or bool(
            _flags(record.body) & EPHEMERAL
        )


class Streams:
    """Each person's stream, built tick by tick from the fake's requests."""

    def __init__(self, fake: FakeDiscord, people: list[int]) -> None:
        self.fake = fake
        self.audience = Audience(fake)
        self.people = people
        self.seen: dict[int, list[Seen]] = {p: [] for p in people}
        self._names: dict[int, dict[str, str]] = {p: {} for p in people}
        self._after_names: dict[int, dict[str, str]] = {p: {} for p in people}
        self._read = 0

    def take(self, tick: int) -> None:
        """Hand the requests made since the last call to the people who saw them."""
        records = self.fake.requests[self._read :]
        self._read += len(records)
        for record in records:
            who = self.audience.of(record)
            if who is False:
                continue
            entry = _entry(record)
            after = _message_after(self.fake, record)
            for person in self.people:
                if who is None or who == person:
                    named = self._named(self._names[person], entry)
                    shown = self._named(self._after_names[person], after)
                    self.seen[person].append(Seen(tick, named, shown))

    @staticmethod
    def _named(names: dict[str, str], text: str) -> str:

        def name(match: re.Match[str]) -> str:
            return names.setdefault(match.group(0), f"#{len(names)}")

        return LONG_NUMBER.sub(name, text)
