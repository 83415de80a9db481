"""A fake Discord for tests: REST + gateway on loopback, or wired in-process. See README.md."""

from .actions import ImpossibleAction
from .fake import FakeDiscord, InteractionNotAnswered
from .fixtures import fake_discord, start_client
from .protocol import CallbackType, ChannelType, ComponentType, InteractionType, MessageFlag
from .records import (
    FakeAttachment,
    FakeButton,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeRole,
    FakeSelect,
    FakeUser,
    MessageVersion,
    RequestRecord,
)
from .server import FakeDiscordServer, serve
from .wiring import wire

__all__ = [
    "CallbackType",
    "ChannelType",
    "ComponentType",
    "FakeAttachment",
    "FakeButton",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordServer",
    "FakeGuild",
    "FakeInteraction",
    "FakeMessage",
    "FakeRole",
    "FakeSelect",
    "FakeUser",
    "ImpossibleAction",
    "InteractionNotAnswered",
    "InteractionType",
    "MessageFlag",
    "MessageVersion",
    "RequestRecord",
    "fake_discord",
    "serve",
    "start_client",
    "wire",
]
