"""The fake Discord's state: who exists, where, what was said, and the lookups over it.

Both the socket server and the socket-less wiring read and write this same state, so the
test-facing accessors behave identically whichever transport a test uses.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from .protocol import (
    ALL_PERMISSIONS,
    ApiError,
    ChannelType,
    ErrorCode,
    Permission,
)
from .records import (
    ContractViolationRecord,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeUser,
    RequestRecord,
)

Json = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000


class Snowflakes:
    """Real-looking, strictly increasing Discord ids (discord.py reads times out of them)."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(stamp, self._last + 1)
        return self._last


class World:
    def __init__(self, *, token: str, bot_name: str) -> None:
        self._ids = Snowflakes()
        self.token = token
        self.application_id = self.new_id()
        self.bot = FakeUser(id=self.application_id, name=bot_name, bot=True)
        self.users: dict[int, FakeUser] = {self.bot.id: self.bot}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}
        # How long an interaction's token works for its webhook routes (Discord: 15 min).
        self.token_life = 15 * 60.0
        # Synced application commands: None holds the global ones, else per guild id.
        self.commands: dict[int | None, list[Json]] = {}
        # Discord keeps a command's id across syncs as long as its scope, name and type hold.
        self.command_ids: dict[tuple[int | None, str, int], int] = {}
        self.requests: list[RequestRecord] = []
        self.contract_violations: list[ContractViolationRecord] = []
        self.cdn_base = "https://cdn.discordapp.com"
        self.gateway_url = "wss://gateway.discord.gg"

    def new_id(self) -> int:
        return self._ids.next()

    @staticmethod
    def now() -> datetime:
        return datetime.now(UTC)

    def add_user(self, name: str, *, locale: str = "en-US") -> FakeUser:
        user = FakeUser(id=self.new_id(), name=name, locale=locale)
        self.users[user.id] = user
        return user

    def join(self, guild: FakeGuild, user: FakeUser, *, role_ids: list[int] | None = None) -> None:
        guild.memberships[user.id] = FakeMember(
            user=user, role_ids=list(role_ids or []), joined_at=self.now()
        )

    def user(self, user_id: int) -> FakeUser:
        try:
            return self.users[user_id]
        except KeyError:
            raise ApiError(404, ErrorCode.UNKNOWN_USER, "Unknown User") from None

    def guild(self, guild_id: int) -> FakeGuild:
        try:
            return self.guilds[guild_id]
        except KeyError:
            raise ApiError(404, ErrorCode.UNKNOWN_GUILD, "Unknown Guild") from None

    def channel(self, channel_id: int) -> FakeChannel:
        """The channel a request names; a deleted or unknown one is Discord's 404 10003."""
        found = self.channels.get(channel_id)
        if found is None or found.deleted:
            raise ApiError(404, ErrorCode.UNKNOWN_CHANNEL, "Unknown Channel")
        return found

    def message(self, channel_id: int, message_id: int) -> FakeMessage:
        found = self.messages.get(message_id)
        if found is None or found.channel_id != channel_id or found.deleted:
            raise ApiError(404, ErrorCode.UNKNOWN_MESSAGE, "Unknown Message")
        return found

    def interaction_by_token(self, application_id: int, token: str) -> FakeInteraction:
        """The interaction whose token a webhook route names (Discord: 'Unknown Webhook'),
        while the token lives ('Invalid Webhook Token' once it expired)."""
        if application_id == self.application_id:
            found = self._by_token.get(token)
            if found is None:
                self._by_token = {ix.token: ix for ix in self.interactions.values()}
                found = self._by_token.get(token)
            if found is not None:
                if time.monotonic() - found.created_at > self.token_life:
                    raise ApiError(401, ErrorCode.INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
                return found
        raise ApiError(404, ErrorCode.UNKNOWN_WEBHOOK, "Unknown Webhook")

    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        return None if channel.guild_id is None else self.guilds[channel.guild_id]

    def channel_messages(self, channel_id: int) -> list[FakeMessage]:
        return [m for m in self.messages.values() if m.channel_id == channel_id]

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The bot's DM channel with this user, opened on first use as Discord does."""
        for channel in self.channels.values():
            if channel.type is ChannelType.DM and channel.recipient_id == user.id:
                return channel
        channel = FakeChannel(
            id=self.new_id(),
            type=ChannelType.DM,
            name="",
            created_at=self.now(),
            recipient_id=user.id,
        )
        self.channels[channel.id] = channel
        return channel

    def permissions(self, guild: FakeGuild, user_id: int) -> int:
        """Guild-level permissions (no channel overwrites exist in the fake)."""
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        membership = guild.memberships[user_id]
        value = guild.everyone_role.permissions
        for role in guild.roles:
            if role.id in membership.role_ids:
                value |= role.permissions
        return ALL_PERMISSIONS if value & Permission.ADMINISTRATOR else value

    def channel_permissions(self, channel: FakeChannel, user_id: int) -> int:
        """What `user_id` may do in a guild channel or thread: the guild's grant, less what an
        overwrite denies the bot there (a thread follows its parent; Administrator and the
        owner are above overwrites, as on Discord)."""
        guild = self.guild_of(channel)
        if guild is None:
            return 0
        granted = self.permissions(guild, user_id)
        if granted == ALL_PERMISSIONS or user_id != self.bot.id:
            return granted
        parent = self.channel(channel.parent_id) if channel.parent_id else channel
        return granted & ~parent.bot_denied

    def can_see(self, user: FakeUser, channel: FakeChannel) -> bool:
        """Whether a person could type in this channel at all."""
        if channel.deleted:
            return False
        if channel.type is ChannelType.DM:
            return channel.recipient_id == user.id
        guild = self.guild_of(channel)
        if guild is None or user.id not in guild.memberships:
            return False
        if channel.type is ChannelType.PRIVATE_THREAD:
            return user.id in channel.member_ids or bool(
                self.permissions(guild, user.id) & Permission.MANAGE_THREADS
            )
        return True

    def synced_command(self, name: str, guild_id: int | None) -> Json | None:
        """The synced command a user would see under this name: guild ones shadow global ones."""
        scopes: list[int | None] = [guild_id, None] if guild_id is not None else [None]
        for scope in scopes:
            for command in self.commands.get(scope, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command
        return None
