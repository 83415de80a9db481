"""What the fake Discord knows, as plain dataclasses a test can read and assert on.

Everything the bot did through the API ends up here: messages with every version they went
through, the interactions people started and how the bot answered them, the requests themselves.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .protocol import (
    INTERACTION_DEADLINE,
    PNG_SIGNATURE,
    SELECT_TYPES,
    CallbackType,
    ChannelType,
    ComponentType,
    InteractionType,
    MessageFlag,
)

Json = dict[str, Any]


@dataclass
class FakeUser:
    """A Discord account. `accepts_dms=False` makes the bot's DMs fail like a closed inbox."""

    id: int
    name: str
    locale: str = "en-US"
    bot: bool = False
    accepts_dms: bool = True

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False


@dataclass
class FakeMember:
    """A user's membership of one guild."""

    user: FakeUser
    role_ids: list[int]
    joined_at: datetime
    nick: str | None = None


@dataclass
class FakeChannel:
    """A text channel, a thread, or a DM channel (type tells which)."""

    id: int
    type: ChannelType
    name: str
    created_at: datetime
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient_id: int | None = None
    topic: str | None = None
    position: int = 0
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    # Monotonic time of the thread's last activity (`aging`): a message, an unarchive.
    active_at: float = field(default_factory=time.monotonic)
    member_ids: set[int] = field(default_factory=set)
    # Permissions a member overwrite denies the bot here (threads follow their parent).
    bot_denied: int = 0
    # Deleted by someone (`fake.delete_channel`): Discord then answers 404 10003 for it.
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass
class FakeGuild:
    id: int
    name: str
    locale: str
    owner_id: int
    everyone_role: FakeRole
    moderator_role: FakeRole
    bot_role: FakeRole
    created_at: datetime
    channels: list[FakeChannel] = field(default_factory=list)
    memberships: dict[int, FakeMember] = field(default_factory=dict)

    @property
    def roles(self) -> list[FakeRole]:
        return [self.everyone_role, self.moderator_role, self.bot_role]

    @property
    def owner(self) -> FakeUser:
        return self.memberships[self.owner_id].user

    @property
    def members(self) -> list[FakeUser]:
        """The human members, in the order they joined (the owner first)."""
        return [m.user for m in self.memberships.values() if not m.user.bot]

    @property
    def moderators(self) -> list[FakeUser]:
        return [m.user for m in self.memberships.values() if self.moderator_role.id in m.role_ids]

    def channel(self, name: str) -> FakeChannel:
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise KeyError(f"no channel #{name} in {self.name}")

    def member(self, name: str) -> FakeUser:
        for user in self.members:
            if user.name == name:
                return user
        raise KeyError(f"no member {name} in {self.name}")


@dataclass(frozen=True)
class Upload:
    """One file part of a multipart request, before Discord turns it into an attachment."""

    index: int
    filename: str
    data: bytes


@dataclass(frozen=True)
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def is_png(self) -> bool:
        return self.data.startswith(PNG_SIGNATURE)


@dataclass(frozen=True)
class MessageVersion:
    """What a message looked like between two edits."""

    content: str
    embeds: list[Json]
    components: list[Json]
    attachments: list[FakeAttachment]
    flags: int
    at: datetime


@dataclass(frozen=True)
class SelectOption:
    value: str
    label: str
    default: bool = False


@dataclass(frozen=True)
class FakeButton:
    custom_id: str | None
    label: str | None
    style: int
    disabled: bool
    url: str | None = None
    emoji: str | None = None


@dataclass(frozen=True)
class FakeSelect:
    custom_id: str
    type: ComponentType
    options: list[SelectOption]
    placeholder: str | None
    min_values: int
    max_values: int
    disabled: bool


def walk_components(components: list[Json]) -> Iterator[Json]:
    """Every component, depth first, through rows, sections, containers and labels."""
    for component in components:
        yield component
        yield from walk_components(component.get("components", []))
        for key in ("component", "accessory"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


@dataclass(eq=False)
class FakeMessage:
    """A message and its edit history; `versions[-1]` is what people see now."""

    id: int
    channel_id: int
    author_id: int
    versions: list[MessageVersion]
    guild_id: int | None = None
    visible_to: int | None = None
    interaction: FakeInteraction | None = field(default=None, repr=False)
    webhook_id: int | None = None
    deleted: bool = False
    # The nonce the sender gave (Discord echoes it on MESSAGE_CREATE): it tells which
    # messages one send of the bot was split into.
    nonce: str | None = None

    @property
    def current(self) -> MessageVersion:
        return self.versions[-1]

    @property
    def content(self) -> str:
        return self.current.content

    @property
    def embeds(self) -> list[Json]:
        return self.current.embeds

    @property
    def components(self) -> list[Json]:
        return self.current.components

    @property
    def attachments(self) -> list[FakeAttachment]:
        return self.current.attachments

    @property
    def flags(self) -> int:
        return self.current.flags

    @property
    def ephemeral(self) -> bool:
        return self.visible_to is not None

    @property
    def loading(self) -> bool:
        """Still the 'Bot is thinking…' placeholder of a deferred interaction."""
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def edited(self) -> bool:
        return len(self.versions) > 1

    @property
    def text(self) -> str:
        """All words a reader sees: content, embed texts and v2 text displays, one per line."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for embed_field in embed.get("fields", []):
                parts += [embed_field.get("name", ""), embed_field.get("value", "")]
            parts.append(embed.get("footer", {}).get("text", ""))
        for component in walk_components(self.components):
            if component.get("type") == ComponentType.TEXT_DISPLAY:
                parts.append(component.get("content", ""))
        return "\n".join(part for part in parts if part)

    @property
    def buttons(self) -> list[FakeButton]:
        return [
            FakeButton(
                custom_id=c.get("custom_id"),
                label=c.get("label"),
                style=c.get("style", 1),
                disabled=c.get("disabled", False),
                url=c.get("url"),
                emoji=(c.get("emoji") or {}).get("name"),
            )
            for c in walk_components(self.components)
            if c.get("type") == ComponentType.BUTTON
        ]

    @property
    def selects(self) -> list[FakeSelect]:
        return [
            FakeSelect(
                custom_id=c["custom_id"],
                type=ComponentType(c["type"]),
                options=[
                    SelectOption(o["value"], o["label"], o.get("default", False))
                    for o in c.get("options", [])
                ],
                placeholder=c.get("placeholder"),
                min_values=c.get("min_values", 1),
                max_values=c.get("max_values", 1),
                disabled=c.get("disabled", False),
            )
            for c in walk_components(self.components)
            if c.get("type") in SELECT_TYPES
        ]

    def button(self, *, custom_id: str | None = None, label: str | None = None) -> FakeButton:
        """The one button with this custom_id or label (KeyError otherwise)."""
        for candidate in self.buttons:
            if custom_id is not None and candidate.custom_id == custom_id:
                return candidate
            if label is not None and candidate.label == label:
                return candidate
        raise KeyError(f"no button {custom_id or label!r} on message {self.id}: {self.buttons}")

    def component(self, custom_id: str) -> Json:
        """The raw component payload with this custom_id (KeyError otherwise)."""
        for component in walk_components(self.components):
            if component.get("custom_id") == custom_id:
                return component
        raise KeyError(f"no component {custom_id!r} on message {self.id}")


@dataclass(eq=False)
class FakeInteraction:
    """One thing a person did in Discord, and how the bot answered it.

    Times are event-loop seconds. `late_callbacks` holds the ages of answers Discord refused
    because they came after the 3-second deadline.
    """

    id: int
    token: str
    type: InteractionType
    user: FakeUser
    channel_id: int
    guild_id: int | None
    payload: Json = field(repr=False)
    created_at: float
    name: str | None = None
    custom_id: str | None = None
    message: FakeMessage | None = field(default=None, repr=False)
    response_type: CallbackType | None = None
    response_data: Json | None = field(default=None, repr=False)
    answered_at: float | None = None
    original: FakeMessage | None = field(default=None, repr=False)
    followups: list[FakeMessage] = field(default_factory=list, repr=False)
    modal: Json | None = field(default=None, repr=False)
    late_callbacks: list[float] = field(default_factory=list)
    # The gateway sessions the interaction was written to (`FakeDiscord.sessions`).
    delivered_to: list[int] = field(default_factory=list)
    # Answers Discord refused because the interaction was answered already (40060).
    second_answers: int = 0

    @property
    def answered(self) -> bool:
        return self.response_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds between the interaction and the bot's callback."""
        return None if self.answered_at is None else self.answered_at - self.created_at

    @property
    def answered_in_time(self) -> bool:
        """Whether the bot answered within Discord's 3 seconds."""
        return self.latency is not None and self.latency <= INTERACTION_DEADLINE

    @property
    def deferred(self) -> bool:
        return self.response_type in (
            CallbackType.DEFERRED_CHANNEL_MESSAGE,
            CallbackType.DEFERRED_UPDATE_MESSAGE,
        )

    @property
    def ephemeral(self) -> bool:
        """Whether the bot's response message is only visible to the user."""
        return self.original is not None and self.original.visible_to == self.user.id


@dataclass
class RequestRecord:
    """One REST call the bot made, with what the fake answered.

    `route` is the fake's route template ("PATCH /channels/{channel_id}/messages/{message_id}",
    None for an unknown route); `at` is loop time (`time.monotonic`) when it arrived;
    `bot_token` tells whether it was made with the bot's token (interaction callbacks and
    interaction-token webhooks are not). `status` is None for a dropped connection.
    """

    method: str
    path: str
    query: dict[str, str]
    body: Any
    uploads: list[Upload]
    status: int | None
    response: Any
    routed: bool = True
    route: str | None = None
    channel_id: int | None = None
    at: float = 0.0
    bot_token: bool = False


@dataclass(frozen=True)
class InjectedFailure:
    """A failure a test planned with `fake.fail`, as it struck one request."""

    at: float
    route: str
    path: str
    channel_id: int | None
    status: int | None  # None: the connection was dropped without an answer
    code: int | None


@dataclass(frozen=True)
class ContractViolationRecord:
    """A request Discord would have refused for its shape, and why."""

    route: str
    path: str
    field: str
    reason: str
    body: Any
