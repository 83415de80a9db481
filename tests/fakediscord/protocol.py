"""Numbers of the Discord protocol that the fake speaks, named once so the rest reads as prose.

Only what the fake needs is here; values are those of API v10 and gateway v10.
"""

from __future__ import annotations

from enum import IntEnum, IntFlag

API_PREFIX = "/api/v10"

# Discord refuses an interaction callback that arrives later than this after the interaction.
INTERACTION_DEADLINE = 3.0

# The CDN limit Discord reports to bots for interaction attachments (25 MiB).
ATTACHMENT_SIZE_LIMIT = 25 * 1024 * 1024

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Op(IntEnum):
    """Gateway opcodes."""

    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE = 3
    RESUME = 6
    REQUEST_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11


class ChannelType(IntEnum):
    TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


class InteractionType(IntEnum):
    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType(IntEnum):
    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


class ComponentType(IntEnum):
    ACTION_ROW = 1
    BUTTON = 2
    STRING_SELECT = 3
    TEXT_INPUT = 4
    USER_SELECT = 5
    ROLE_SELECT = 6
    MENTIONABLE_SELECT = 7
    CHANNEL_SELECT = 8
    SECTION = 9
    TEXT_DISPLAY = 10
    CONTAINER = 17
    LABEL = 18


SELECT_TYPES = frozenset(
    {
        ComponentType.STRING_SELECT,
        ComponentType.USER_SELECT,
        ComponentType.ROLE_SELECT,
        ComponentType.MENTIONABLE_SELECT,
        ComponentType.CHANNEL_SELECT,
    }
)


class OptionType(IntEnum):
    SUB_COMMAND = 1
    SUB_COMMAND_GROUP = 2
    STRING = 3
    INTEGER = 4
    BOOLEAN = 5
    USER = 6
    CHANNEL = 7
    ROLE = 8
    MENTIONABLE = 9
    NUMBER = 10
    ATTACHMENT = 11


class Permission(IntFlag):
    CREATE_INSTANT_INVITE = 1 << 0
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    USE_EXTERNAL_EMOJIS = 1 << 18
    CHANGE_NICKNAME = 1 << 26
    MANAGE_GUILD = 1 << 5
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_EVENTS = 1 << 33
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38


ALL_PERMISSIONS = (1 << 51) - 1

# What @everyone may do on a freshly created server, close enough to Discord's default.
EVERYONE_PERMISSIONS = int(
    Permission.CREATE_INSTANT_INVITE
    | Permission.ADD_REACTIONS
    | Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.USE_EXTERNAL_EMOJIS
    | Permission.CHANGE_NICKNAME
    | Permission.USE_APPLICATION_COMMANDS
    | Permission.CREATE_PUBLIC_THREADS
    | Permission.CREATE_PRIVATE_THREADS
    | Permission.SEND_MESSAGES_IN_THREADS
)

# The bot's managed role: what a game master invited with sensible scopes would be granted.
BOT_PERMISSIONS = int(Permission.MANAGE_MESSAGES | Permission.MANAGE_THREADS)


class Intent(IntFlag):
    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    GUILD_SCHEDULED_EVENTS = 1 << 16


class MessageFlag(IntFlag):
    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15


# Flags a bot may set itself when sending or editing; the others are Discord's to manage.
BOT_SETTABLE_FLAGS = int(
    MessageFlag.SUPPRESS_EMBEDS | MessageFlag.SUPPRESS_NOTIFICATIONS | MessageFlag.IS_COMPONENTS_V2
)


class MessageType(IntEnum):
    DEFAULT = 0
    CHAT_INPUT_COMMAND = 20


class ErrorCode(IntEnum):
    UNKNOWN_CHANNEL = 10003
    UNKNOWN_GUILD = 10004
    UNKNOWN_MEMBER = 10007
    UNKNOWN_MESSAGE = 10008
    UNKNOWN_USER = 10013
    UNKNOWN_WEBHOOK = 10015
    UNKNOWN_INTERACTION = 10062
    UNAUTHORIZED = 40001
    MISSING_ACCESS = 50001
    ALREADY_ACKNOWLEDGED = 40060
    CANNOT_EDIT_OTHERS_MESSAGE = 50005
    EMPTY_MESSAGE = 50006
    CANNOT_SEND_TO_USER = 50007
    MISSING_PERMISSIONS = 50013
    INVALID_WEBHOOK_TOKEN = 50027
    INVALID_FORM_BODY = 50035
    THREAD_ALREADY_CREATED = 160004


class ApiError(Exception):
    """A Discord error reply: raised by the fake's REST handlers, turned into JSON by the router."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, object] | None = None
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, object]:
        body: dict[str, object] = {"code": self.code, "message": self.message}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def form_error(path: str, message: str) -> ApiError:
    """Discord's 'Invalid Form Body', with the error nested under the offending field's path.

    `path` is dotted like Discord's own ("embeds.0.description"); discord.py flattens it back
    into the exception text, so a failing test names the field.
    """
    node: dict[str, object] = {"_errors": [{"code": "INVALID", "message": message}]}
    for part in reversed(path.split(".")):
        node = {part: node}
    return ApiError(400, ErrorCode.INVALID_FORM_BODY, "Invalid Form Body", node)


class ContractViolation(ApiError):
    """A request Discord would refuse for its shape: the bot broke the API's contract.

    The router records every one in `fake.contract_violations`, and the `fake_discord`
    fixture fails the test that sent it, even if the bot swallowed the 400.
    `field` is the dotted path of the offending value ("embeds.0.fields.3.value").
    """

    def __init__(self, field: str, reason: str, code: int = ErrorCode.INVALID_FORM_BODY) -> None:
        if code == ErrorCode.INVALID_FORM_BODY:
            shaped = form_error(field, reason)
            super().__init__(shaped.status, shaped.code, shaped.message, shaped.errors)
        else:
            super().__init__(400, code, reason)
        self.field = field
        self.reason = reason


def contract_error(path: str, message: str) -> ContractViolation:
    """`form_error`, marked as a breach of Discord's documented contract."""
    return ContractViolation(path, message)
