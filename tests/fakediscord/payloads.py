"""The JSON Discord sends about the fake's records, shaped the way discord.py parses it."""

from __future__ import annotations

from typing import Any

from .protocol import ChannelType, InteractionType, MessageType
from .records import FakeAttachment, FakeChannel, FakeGuild, FakeMessage, FakeRole, FakeUser
from .world import World

Json = dict[str, Any]


def user_payload(user: FakeUser) -> Json:
    return {
        "id": str(user.id),
        "username": user.name,
        "global_name": user.name,
        "discriminator": "0",
        "avatar": None,
        "bot": user.bot,
        "public_flags": 0,
    }


def bot_self_payload(world: World) -> Json:
    """GET /users/@me: the bot's own account, with the private fields a ClientUser reads."""
    return {
        **user_payload(world.bot),
        "verified": True,
        "mfa_enabled": False,
        "locale": world.bot.locale,
        "flags": 0,
    }


def application_payload(world: World) -> Json:
    return {
        "id": str(world.application_id),
        "name": world.bot.name,
        "description": "",
        "icon": None,
        "bot_public": False,
        "bot_require_code_grant": False,
        "owner": user_payload(world.bot),
        "verify_key": "0" * 64,
        "flags": 0,
        "team": None,
        "bot": user_payload(world.bot),
    }


def role_payload(role: FakeRole) -> Json:
    return {
        "id": str(role.id),
        "name": role.name,
        "permissions": str(role.permissions),
        "position": role.position,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": role.managed,
        "mentionable": False,
        "flags": 0,
    }


def member_payload(world: World, guild: FakeGuild, user_id: int, *, with_user: bool = True) -> Json:
    membership = guild.memberships[user_id]
    payload: Json = {
        "roles": [str(role_id) for role_id in membership.role_ids],
        "joined_at": membership.joined_at.isoformat(),
        "nick": membership.nick,
        "avatar": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        payload["user"] = user_payload(membership.user)
    return payload


def _bot_overwrites(world: World, channel: FakeChannel) -> list[Json]:
    """The member overwrite that denies the bot what a test took away in this channel."""
    if not channel.bot_denied or channel.is_thread:
        return []
    deny = str(channel.bot_denied)
    return [{"id": str(world.bot.id), "type": 1, "allow": "0", "deny": deny}]


def channel_payload(world: World, channel: FakeChannel) -> Json:
    if channel.type is ChannelType.DM:
        return {
            "id": str(channel.id),
            "type": int(channel.type),
            "last_message_id": None,
            "recipients": [user_payload(world.user(channel.recipient_id or 0))],
        }
    payload: Json = {
        "id": str(channel.id),
        "type": int(channel.type),
        "guild_id": str(channel.guild_id),
        "name": channel.name,
        "position": channel.position,
        "permission_overwrites": _bot_overwrites(world, channel),
        "nsfw": False,
        "parent_id": None if channel.parent_id is None else str(channel.parent_id),
        "topic": channel.topic,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }
    if channel.is_thread:
        payload |= {
            "owner_id": str(channel.owner_id),
            "message_count": len(world.channel_messages(channel.id)),
            "total_message_sent": len(world.channel_messages(channel.id)),
            "member_count": len(channel.member_ids),
            "thread_metadata": {
                "archived": channel.archived,
                "locked": channel.locked,
                "invitable": channel.invitable,
                "auto_archive_duration": channel.auto_archive_duration,
                "archive_timestamp": channel.created_at.isoformat(),
                "create_timestamp": channel.created_at.isoformat(),
            },
        }
    return payload


def guild_payload(world: World, guild: FakeGuild) -> Json:
    """The full GUILD_CREATE body, with member_count equal to the members sent (no chunking)."""
    threads = [
        channel_payload(world, c)
        for c in world.channels.values()
        if c.is_thread and c.guild_id == guild.id and not c.archived
    ]
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "owner_id": str(guild.owner_id),
        "preferred_locale": guild.locale,
        "unavailable": False,
        "large": False,
        "member_count": len(guild.memberships),
        "joined_at": guild.created_at.isoformat(),
        "features": [],
        "emojis": [],
        "stickers": [],
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "system_channel_flags": 0,
        "roles": [role_payload(role) for role in guild.roles],
        "channels": [channel_payload(world, c) for c in guild.channels],
        "threads": threads,
        "members": [member_payload(world, guild, user_id) for user_id in guild.memberships],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def attachment_payload(world: World, message: FakeMessage, attachment: FakeAttachment) -> Json:
    url = f"{world.cdn_base}/attachments/{message.channel_id}/{attachment.id}/{attachment.filename}"
    payload: Json = {
        "id": str(attachment.id),
        "filename": attachment.filename,
        "size": attachment.size,
        "url": url,
        "proxy_url": url,
        "content_type": attachment.content_type,
    }
    if attachment.description is not None:
        payload["description"] = attachment.description
    return payload


def message_payload(world: World, message: FakeMessage) -> Json:
    version = message.current
    payload: Json = {
        "id": str(message.id),
        "channel_id": str(message.channel_id),
        "type": int(MessageType.DEFAULT),
        "author": user_payload(world.user(message.author_id)),
        "content": version.content,
        "embeds": version.embeds,
        "components": version.components,
        "attachments": [attachment_payload(world, message, a) for a in version.attachments],
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "flags": version.flags,
        "timestamp": message.versions[0].at.isoformat(),
        "edited_timestamp": version.at.isoformat() if message.edited else None,
    }
    if message.guild_id is not None:
        payload["guild_id"] = str(message.guild_id)
    if message.webhook_id is not None:
        payload["webhook_id"] = str(message.webhook_id)
        payload["application_id"] = str(world.application_id)
    interaction = message.interaction
    if interaction is not None:
        if interaction.type is InteractionType.APPLICATION_COMMAND:
            payload["type"] = int(MessageType.CHAT_INPUT_COMMAND)
        payload["interaction_metadata"] = {
            "id": str(interaction.id),
            "type": int(interaction.type),
            "user": user_payload(interaction.user),
            "authorizing_integration_owners": authorizing_owners(interaction.guild_id),
        }
        payload["interaction"] = {
            "id": str(interaction.id),
            "type": int(interaction.type),
            "name": interaction.name or "",
            "user": user_payload(interaction.user),
        }
    return payload


def authorizing_owners(guild_id: int | None) -> Json:
    """The guild installation authorised it; in the bot's DMs Discord spells that guild "0"."""
    return {"0": str(guild_id) if guild_id is not None else "0"}
