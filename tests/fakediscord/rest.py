"""The REST half of the fake Discord: one route table, transport-free.

`RestApi.handle` takes an `ApiRequest` (already parsed from HTTP by the server, or from
discord.py's call by the wiring) and answers an `ApiReply`. Every call is recorded; a call to
a route the fake does not know answers 404 and is recorded with `routed=False`, so tests can
fail loudly instead of passing on a bot that talks to a route nobody checked.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from .aging import Aging
from .contract import discord_contract
from .messages import next_version
from .payloads import (
    application_payload,
    bot_self_payload,
    channel_payload,
    member_payload,
    message_payload,
    user_payload,
)
from .protocol import (
    INTERACTION_DEADLINE,
    ApiError,
    CallbackType,
    ChannelType,
    ContractViolation,
    ErrorCode,
    InteractionType,
    MessageFlag,
    Permission,
    form_error,
)
from .records import (
    ContractViolationRecord,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    RequestRecord,
    Upload,
)
from .scheduled_events import ScheduledEvents
from .unkind import VIA, FailurePlan, Latency, RateLimits
from .validation import check_modal
from .world import World

Json = dict[str, Any]
Dispatch = Callable[[str, Json], Awaitable[None]]


# How long Discord keeps a message's nonce for `enforce_nonce` ("a few minutes").
NONCE_WINDOW = 180.0


@dataclass
class ApiRequest:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    uploads: list[Upload]
    token: str | None


@dataclass
class ApiReply:
    """What the fake answers; `drop` closes the connection instead, as a network fault would."""

    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    drop: bool = False


Handler = Callable[[ApiRequest, dict[str, str]], Awaitable[ApiReply]]

_PLACEHOLDERS = {
    "user": r"(?P<user>\d+|@me)",
    "message": r"(?P<message>\d+|@original)",
    "token": r"(?P<token>[^/]+)",
}


def _pattern(template: str) -> re.Pattern[str]:
    def group(match: re.Match[str]) -> str:
        name = match.group(1)
        return _PLACEHOLDERS.get(name, rf"(?P<{name}>\d+)")

    return re.compile(re.sub(r"\{(\w+)\}", group, template) + "$")


def ok(body: Any) -> ApiReply:
    return ApiReply(200, body)


NO_CONTENT = ApiReply(204)
SYSTEM_FLAGS = int(MessageFlag.EPHEMERAL | MessageFlag.LOADING)


class RestApi:
    def __init__(self, world: World, dispatch: Dispatch, on_change: Callable[[], None]) -> None:
        self.world = world
        self._dispatch = dispatch
        self._on_change = on_change
        # Discord refuses callbacks later than this many seconds; None lifts the rule.
        self.deadline: float | None = INTERACTION_DEADLINE
        # Guild Scheduled Events: their routes and the test's hands on them.
        self.scheduled = ScheduledEvents(world, dispatch)
        table: list[tuple[str, str, Handler, bool]] = [
            *self.scheduled.routes(),
            ("GET", "/users/@me", self._get_me, True),
            ("GET", "/users/{user_id}", self._get_user, True),
            ("POST", "/users/@me/channels", self._open_dm, True),
            ("GET", "/oauth2/applications/@me", self._get_application, True),
            ("GET", "/gateway", self._get_gateway, False),
            ("GET", "/gateway/bot", self._get_gateway, True),
            ("GET", "/channels/{channel_id}", self._get_channel, True),
            ("PATCH", "/channels/{channel_id}", self._edit_channel, True),
            ("DELETE", "/channels/{channel_id}", self._delete_channel, True),
            ("GET", "/channels/{channel_id}/messages", self._history, True),
            ("POST", "/channels/{channel_id}/messages", self._send, True),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message, True),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit, True),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete, True),
            ("POST", "/channels/{channel_id}/typing", self._typing, True),
            ("POST", "/channels/{channel_id}/threads", self._start_thread, True),
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self._start_thread_from_message,
                True,
            ),
            ("PUT", "/channels/{channel_id}/thread-members/{user}", self._join_thread, True),
            ("DELETE", "/channels/{channel_id}/thread-members/{user}", self._leave_thread, True),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member, True),
            ("GET", "/applications/{app_id}/commands", self._get_commands, True),
            ("PUT", "/applications/{app_id}/commands", self._put_commands, True),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands, True),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands, True),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback, False),
            ("POST", "/webhooks/{app_id}/{token}", self._followup, False),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message}", self._hook_get, False),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message}", self._hook_edit, False),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message}", self._hook_delete, False),
        ]
        self._routes = [(f"{m} {t}", _pattern(t), h, auth) for m, t, h, auth in table]
        self.latency: Latency | None = None
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self.rate_limits = RateLimits()
        self.failures = FailurePlan()
        # Threads that archive when idle, and hour-old messages' edits limited (`aging`).
        self.aging = Aging()
        # Discord's OpenAPI contract, checked on every request body (see contract.py).
        self.contract_check = True
        # What GET /gateway/bot recommends; an AutoShardedClient without a count follows it.
        self.recommended_shards = 1

    @property
    def routes(self) -> list[str]:
        """Every route the fake answers, as "METHOD /template"."""
        return [route for route, _, _, _ in self._routes]

    async def handle(self, request: ApiRequest) -> ApiReply:
        """Answer one request as Discord would, through the unkind options a test turned on.

        In order: half the latency (the way there), the rate limits, an injected failure,
        the token, Discord's contract, the route itself, then the other half of the latency.
        """
        found = self._match(request)
        latency = self.latency.draw() if self.latency is not None else 0.0
        if latency:
            await asyncio.sleep(latency / 2)
        arrived = time.monotonic()
        bot_token = request.token is not None and request.token == self.world.token
        if found is None:
            reply = ApiReply(404, {"code": 0, "message": "404: Not Found"})
            route, channel_id = None, None
        else:
            route, handler, needs_auth, params = found
            channel_id = self._channel_of(params)
            reply = await self._answer(
                request,
                route,
                handler,
                params,
                needs_auth=needs_auth,
                bot_token=bot_token,
                channel_id=channel_id,
            )
        if latency:
            await asyncio.sleep(latency / 2)
        self.world.requests.append(
            RequestRecord(
                method=request.method,
                path=request.path,
                query=request.query,
                body=request.body,
                uploads=request.uploads,
                status=None if reply.drop else reply.status,
                response=reply.body,
                routed=found is not None,
                route=route,
                channel_id=channel_id,
                at=arrived,
                bot_token=bot_token,
            )
        )
        self._on_change()
        return reply

    def _match(self, request: ApiRequest) -> tuple[str, Handler, bool, dict[str, str]] | None:
        for route, pattern, handler, needs_auth in self._routes:
            if not route.startswith(request.method + " "):
                continue
            match = pattern.match(request.path)
            if match is not None:
                return route, handler, needs_auth, match.groupdict()
        return None

    def _channel_of(self, params: dict[str, str]) -> int | None:
        """The channel a request acts in: named in its path, or the interaction's."""
        if "channel_id" in params:
            return int(params["channel_id"])
        if "interaction_id" in params:
            ix = self.world.interactions.get(int(params["interaction_id"]))
            return None if ix is None else ix.channel_id
        if "token" in params:
            for ix in self.world.interactions.values():
                if ix.token == params["token"]:
                    return ix.channel_id
        return None

    async def _answer(
        self,
        request: ApiRequest,
        route: str,
        handler: Handler,
        params: dict[str, str],
        *,
        needs_auth: bool,
        bot_token: bool,
        channel_id: int | None,
    ) -> ApiReply:
        decision = self.rate_limits.decide(
            route, params, bot_token=bot_token, interaction="token" in params
        )
        headers = {"Via": VIA} | (decision.headers if decision is not None else {})
        if decision is not None and decision.limited:
            return ApiReply(429, decision.body(), headers)
        failure = self.failures.take(route, request.path, channel_id)
        if failure is not None:
            if failure.status is None:
                return ApiReply(0, None, headers, drop=True)
            return ApiReply(failure.status, failure.body(), headers)
        if needs_auth and not bot_token:
            return ApiReply(401, {"code": 0, "message": "401: Unauthorized"}, headers)
        try:
            if self.contract_check:
                discord_contract().check(request.method, request.path, request.body)
            reply = await handler(request, params)
        except ContractViolation as violation:
            self.world.contract_violations.append(
                ContractViolationRecord(
                    route=route,
                    path=request.path,
                    field=violation.field,
                    reason=violation.reason,
                    body=request.body,
                )
            )
            return ApiReply(violation.status, violation.body(), headers)
        except ApiError as error:
            return ApiReply(error.status, error.body(), headers)
        reply.headers = headers | reply.headers
        return reply

    # -- users, application, gateway ------------------------------------------------------

    async def _get_me(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        return ok(bot_self_payload(self.world))

    async def _get_user(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        return ok(user_payload(self.world.user(int(params["user_id"]))))

    async def _open_dm(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        user = self.world.user(int(request.body["recipient_id"]))
        return ok(channel_payload(self.world, self.world.dm_channel(user)))

    async def _get_application(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        return ok(application_payload(self.world))

    async def _get_gateway(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return ok(
            {
                "url": self.world.gateway_url,
                "shards": self.recommended_shards,
                "session_start_limit": limit,
            }
        )

    async def _get_member(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        guild = self.world.guild(int(params["guild_id"]))
        user_id = int(params["user_id"])
        if user_id not in guild.memberships:
            raise ApiError(404, ErrorCode.UNKNOWN_MEMBER, "Unknown Member")
        return ok(member_payload(self.world, guild, user_id))

    # -- channels and threads -------------------------------------------------------------

    async def _get_channel(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        return ok(channel_payload(self.world, self.world.channel(int(params["channel_id"]))))

    async def _delete_channel(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        """A thread (or channel) deleted by the bot: gone for everyone, as `delete_channel`.

        Discord wants Manage Threads for a thread (even one the bot started), Manage Channels
        for a channel.
        """
        channel = self.world.channel(int(params["channel_id"]))
        self._require(
            channel,
            Permission.MANAGE_THREADS if channel.is_thread else Permission.MANAGE_CHANNELS,
        )
        payload = channel_payload(self.world, channel)
        channel.deleted = True
        await self._dispatch("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", payload)
        return ok(payload)

    async def _edit_channel(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        channel = self.world.channel(int(params["channel_id"]))
        body: Json = request.body or {}
        self.aging.check_duration(body.get("auto_archive_duration"))
        await self.age(channel)
        for key in ("name", "topic", "archived", "locked", "invitable", "auto_archive_duration"):
            if key in body and body[key] is not None:
                setattr(channel, key, body[key])
        if body.get("archived") is False or body.get("auto_archive_duration") is not None:
            self.aging.touch(channel)  # Discord counts both as the thread's activity
        payload = channel_payload(self.world, channel)
        await self._dispatch("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", payload)
        return ok(payload)

    async def _typing(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        self._require(self.world.channel(int(params["channel_id"])))
        return NO_CONTENT

    async def _start_thread(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        parent = self._thread_parent(int(params["channel_id"]))
        kind = ChannelType(request.body.get("type") or ChannelType.PRIVATE_THREAD)
        if kind not in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD):
            raise form_error("type", f"Cannot start a thread of type {int(kind)} here.")
        public = kind is ChannelType.PUBLIC_THREAD
        self._require(
            parent,
            Permission.CREATE_PUBLIC_THREADS if public else Permission.CREATE_PRIVATE_THREADS,
        )
        return await self._new_thread(parent, self.world.new_id(), kind, request.body)

    async def _start_thread_from_message(
        self, request: ApiRequest, params: dict[str, str]
    ) -> ApiReply:
        parent = self._thread_parent(int(params["channel_id"]))
        self._require(parent, Permission.CREATE_PUBLIC_THREADS)
        message = self.world.message(parent.id, int(params["message_id"]))
        if message.id in self.world.channels:
            raise ApiError(
                400,
                ErrorCode.THREAD_ALREADY_CREATED,
                "A thread has already been created for this message",
            )
        return await self._new_thread(parent, message.id, ChannelType.PUBLIC_THREAD, request.body)

    def _require(self, channel: FakeChannel, *needed: Permission) -> None:
        """Refuse like Discord when the bot may not act in this channel: 50001 when it cannot
        see it, 50013 when it lacks one of `needed`. DMs have no permissions to check."""
        if channel.guild_id is None:
            return
        have = self.world.channel_permissions(channel, self.world.bot.id)
        if not have & Permission.VIEW_CHANNEL:
            raise ApiError(403, ErrorCode.MISSING_ACCESS, "Missing Access")
        if any(not have & permission for permission in needed):
            raise ApiError(403, ErrorCode.MISSING_PERMISSIONS, "Missing Permissions")

    def _thread_parent(self, channel_id: int) -> FakeChannel:
        parent = self.world.channel(channel_id)
        if parent.type is not ChannelType.TEXT:
            raise form_error("channel_id", "Threads can only be started in text channels.")
        return parent

    async def _new_thread(
        self, parent: FakeChannel, thread_id: int, kind: ChannelType, body: Json
    ) -> ApiReply:
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            raise form_error("name", "Must be between 1 and 100 in length.")
        self.aging.check_duration(body.get("auto_archive_duration"))
        thread = FakeChannel(
            id=thread_id,
            type=kind,
            name=name,
            created_at=self.world.now(),
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.world.bot.id,
            invitable=body.get("invitable", True),
            auto_archive_duration=body.get("auto_archive_duration") or 1440,
            member_ids={self.world.bot.id},
        )
        self.world.channels[thread.id] = thread
        payload = channel_payload(self.world, thread)
        await self._dispatch("THREAD_CREATE", payload | {"newly_created": True})
        return ApiReply(201, payload)

    async def _join_thread(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        thread, user_id = self._thread_and_member(params)
        await self.age(thread)
        self.aging.check_join(thread)
        thread.member_ids.add(user_id)
        return NO_CONTENT

    async def _leave_thread(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        thread, user_id = self._thread_and_member(params)
        thread.member_ids.discard(user_id)
        return NO_CONTENT

    def _thread_and_member(self, params: dict[str, str]) -> tuple[FakeChannel, int]:
        thread = self.world.channel(int(params["channel_id"]))
        if not thread.is_thread:
            raise form_error("channel_id", "Not a thread.")
        user_id = self.world.bot.id if params["user"] == "@me" else int(params["user"])
        guild = self.world.guild_of(thread)
        if guild is None or user_id not in guild.memberships:
            raise ApiError(404, ErrorCode.UNKNOWN_MEMBER, "Unknown Member")
        return thread, user_id

    # -- channel messages -----------------------------------------------------------------

    async def _history(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        channel = self.world.channel(int(params["channel_id"]))
        self._require(channel, Permission.READ_MESSAGE_HISTORY)
        limit = min(int(request.query.get("limit", 50)), 100)
        before = int(request.query.get("before", 0)) or None
        after = int(request.query.get("after", 0))
        found = [
            m
            for m in self.world.channel_messages(channel.id)
            if not m.deleted
            and not m.ephemeral
            and m.id > after
            and (before is None or m.id < before)
        ]
        newest_first = sorted(found, key=lambda m: m.id, reverse=True)[:limit]
        return ok([message_payload(self.world, m) for m in newest_first])

    async def _send(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        channel = self.world.channel(int(params["channel_id"]))
        if channel.type is ChannelType.DM:
            recipient = self.world.user(channel.recipient_id or 0)
            if not recipient.accepts_dms:
                raise ApiError(
                    403, ErrorCode.CANNOT_SEND_TO_USER, "Cannot send messages to this user"
                )
        send = (
            Permission.SEND_MESSAGES_IN_THREADS if channel.is_thread else Permission.SEND_MESSAGES
        )
        self._require(channel, send, *([Permission.ATTACH_FILES] if request.uploads else []))
        await self.age(channel)
        self.aging.check_send(channel)
        body: Json = request.body or {}
        nonce = body.get("nonce") if body.get("enforce_nonce") else None
        if nonce is not None:
            # Discord: the same author's message with this nonce, sent within a few minutes,
            # comes back instead of a second one (a retried request is not shown twice).
            seen = self._nonces.get((channel.id, str(nonce)))
            if seen is not None and time.monotonic() - seen[1] < NONCE_WINDOW:
                return ok(message_payload(self.world, self.world.message(channel.id, seen[0])))
        message = self._create(channel, body, request.uploads)
        if nonce is not None:
            self._nonces[(channel.id, str(nonce))] = (message.id, time.monotonic())
        await self._announce("MESSAGE_CREATE", message)
        return ok(message_payload(self.world, message))

    async def _get_message(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        self._require(self.world.channel(int(params["channel_id"])))
        message = self.world.message(int(params["channel_id"]), int(params["message_id"]))
        return ok(message_payload(self.world, message))

    async def _edit(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        channel = self.world.channel(int(params["channel_id"]))
        self._require(channel, *([Permission.ATTACH_FILES] if request.uploads else []))
        message = self.world.message(int(params["channel_id"]), int(params["message_id"]))
        if message.author_id != self.world.bot.id:
            raise ApiError(
                403,
                ErrorCode.CANNOT_EDIT_OTHERS_MESSAGE,
                "Cannot edit a message authored by another user",
            )
        await self._check_edit(message)
        self._revise(message, request.body or {}, request.uploads)
        await self._announce("MESSAGE_UPDATE", message)
        return ok(message_payload(self.world, message))

    async def _delete(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        self._require(self.world.channel(int(params["channel_id"])))
        message = self.world.message(int(params["channel_id"]), int(params["message_id"]))
        await self._remove(message)
        return NO_CONTENT

    def _create(
        self,
        channel: FakeChannel,
        body: Json,
        uploads: list[Upload],
        *,
        interaction: FakeInteraction | None = None,
        ephemeral: bool = False,
        loading: bool = False,
    ) -> FakeMessage:
        system_flags = (MessageFlag.EPHEMERAL if ephemeral else 0) | (
            MessageFlag.LOADING if loading else 0
        )
        version = next_version(
            body,
            uploads,
            previous=None,
            system_flags=int(system_flags),
            new_id=self.world.new_id,
            at=self.world.now(),
            check=not loading,
        )
        message = FakeMessage(
            id=self.world.new_id(),
            channel_id=channel.id,
            author_id=self.world.bot.id,
            versions=[version],
            guild_id=channel.guild_id,
            visible_to=interaction.user.id if interaction and ephemeral else None,
            interaction=interaction,
            webhook_id=self.world.application_id if interaction else None,
            nonce=None if body.get("nonce") is None else str(body["nonce"]),
        )
        self.world.messages[message.id] = message
        return message

    def _revise(self, message: FakeMessage, body: Json, uploads: list[Upload]) -> None:
        """Apply an edit; a deferred placeholder stops 'thinking' once edited."""
        system_flags = message.flags & SYSTEM_FLAGS & ~MessageFlag.LOADING
        message.versions.append(
            next_version(
                body,
                uploads,
                previous=message.current,
                system_flags=system_flags,
                new_id=self.world.new_id,
                at=self.world.now(),
            )
        )

    async def _remove(self, message: FakeMessage) -> None:
        message.deleted = True
        if not message.ephemeral:
            event: Json = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                event["guild_id"] = str(message.guild_id)
            await self._dispatch("MESSAGE_DELETE", event)

    async def age(self, channel: FakeChannel) -> None:
        """Time's work on `channel` before a request touches it: an idle thread archives,
        and Discord tells the bot (THREAD_UPDATE)."""
        if self.aging.archive_if_idle(channel):
            await self._dispatch("THREAD_UPDATE", channel_payload(self.world, channel))

    async def _check_edit(self, message: FakeMessage) -> None:
        channel = self.world.channel(message.channel_id)
        await self.age(channel)
        self.aging.check_edit(channel, message, self.world.now())

    async def _announce(self, event: str, message: FakeMessage) -> None:
        """The gateway echo of a visible message; ephemeral ones have none, as on Discord."""
        if message.ephemeral:
            return
        payload = message_payload(self.world, message)
        if message.guild_id is not None:
            guild = self.world.guilds[message.guild_id]
            payload["member"] = member_payload(
                self.world, guild, message.author_id, with_user=False
            )
        await self._dispatch(event, payload)

    # -- application commands -------------------------------------------------------------

    def _scope(self, params: dict[str, str]) -> int | None:
        if int(params["app_id"]) != self.world.application_id:
            raise ApiError(403, ErrorCode.UNAUTHORIZED, "Unauthorized")
        if "guild_id" not in params:
            return None
        return self.world.guild(int(params["guild_id"])).id

    async def _get_commands(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        return ok(self.world.commands.get(self._scope(params), []))

    async def _put_commands(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        scope = self._scope(params)
        synced = []
        for number, command in enumerate(request.body or []):
            kind = int(command.get("type", 1))
            if not command.get("name") or (kind == 1 and not command.get("description")):
                raise form_error(f"{number}", "A command needs a name and a description.")
            key = (scope, command["name"], kind)
            command_id = self.world.command_ids.setdefault(key, self.world.new_id())
            entry = dict(command) | {
                "id": str(command_id),
                "application_id": str(self.world.application_id),
                "version": str(self.world.new_id()),
                "type": kind,
            }
            if scope is not None:
                entry["guild_id"] = str(scope)
            synced.append(entry)
        self.world.commands[scope] = synced
        return ok(synced)

    # -- interactions ---------------------------------------------------------------------

    async def _callback(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        ix = self.world.interactions.get(int(params["interaction_id"]))
        if ix is None or ix.token != params["token"]:
            raise ApiError(404, ErrorCode.UNKNOWN_INTERACTION, "Unknown interaction")
        age = time.monotonic() - ix.created_at
        if self.deadline is not None and age > self.deadline:
            ix.late_callbacks.append(age)
            raise ApiError(404, ErrorCode.UNKNOWN_INTERACTION, "Unknown interaction")
        if ix.answered:
            ix.second_answers += 1
            raise ApiError(
                400, ErrorCode.ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
            )
        body: Json = request.body or {}
        kind = CallbackType(body.get("type", 0))
        data: Json = body.get("data") or {}
        self._check_callback(ix, kind)
        channel = self.world.channel(ix.channel_id)
        ephemeral = bool(int(data.get("flags") or 0) & MessageFlag.EPHEMERAL)
        if kind is CallbackType.CHANNEL_MESSAGE:
            ix.original = self._create(
                channel, data, request.uploads, interaction=ix, ephemeral=ephemeral
            )
            await self._announce("MESSAGE_CREATE", ix.original)
        elif kind is CallbackType.DEFERRED_CHANNEL_MESSAGE:
            ix.original = self._create(
                channel, {}, [], interaction=ix, ephemeral=ephemeral, loading=True
            )
            await self._announce("MESSAGE_CREATE", ix.original)
        elif kind is CallbackType.DEFERRED_UPDATE_MESSAGE:
            ix.original = ix.message
        elif kind is CallbackType.UPDATE_MESSAGE and ix.message is not None:
            await self._check_edit(ix.message)
            self._revise(ix.message, data, request.uploads)
            ix.original = ix.message
            await self._announce("MESSAGE_UPDATE", ix.message)
        elif kind is CallbackType.MODAL:
            check_modal(data)
            ix.modal = data
        ix.response_type = kind
        ix.response_data = data
        ix.answered_at = time.monotonic()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return NO_CONTENT
        return ok(self._callback_response(ix))

    @staticmethod
    def _check_callback(ix: FakeInteraction, kind: CallbackType) -> None:
        """Discord only accepts some callback types for each kind of interaction."""
        on_message = ix.message is not None
        allowed = {
            CallbackType.CHANNEL_MESSAGE: ix.type is not InteractionType.AUTOCOMPLETE,
            CallbackType.DEFERRED_CHANNEL_MESSAGE: ix.type is not InteractionType.AUTOCOMPLETE,
            CallbackType.DEFERRED_UPDATE_MESSAGE: on_message,
            CallbackType.UPDATE_MESSAGE: on_message,
            CallbackType.AUTOCOMPLETE_RESULT: ix.type is InteractionType.AUTOCOMPLETE,
            CallbackType.MODAL: ix.type
            in (InteractionType.APPLICATION_COMMAND, InteractionType.MESSAGE_COMPONENT),
        }
        if not allowed.get(kind, False):
            raise form_error("type", f"Callback type {kind.name} is invalid for {ix.type.name}.")

    def _callback_response(self, ix: FakeInteraction) -> Json:
        """The `with_response=1` body discord.py builds its InteractionCallbackResponse from."""
        original = ix.original
        kind = ix.response_type or CallbackType.PONG
        response: Json = {
            "interaction": {
                "id": str(ix.id),
                "type": int(ix.type),
                "response_message_id": None if original is None else str(original.id),
                "response_message_loading": kind is CallbackType.DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": ix.ephemeral,
            }
        }
        if original is not None and kind is not CallbackType.DEFERRED_UPDATE_MESSAGE:
            response["resource"] = {
                "type": int(kind),
                "message": message_payload(self.world, original),
            }
        return response

    async def _followup(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        ix = self.world.interaction_by_token(int(params["app_id"]), params["token"])
        if ix.response_type not in (
            CallbackType.CHANNEL_MESSAGE,
            CallbackType.DEFERRED_CHANNEL_MESSAGE,
            CallbackType.DEFERRED_UPDATE_MESSAGE,
            CallbackType.UPDATE_MESSAGE,
        ):
            raise ApiError(404, ErrorCode.UNKNOWN_WEBHOOK, "Unknown Webhook")
        body: Json = request.body or {}
        original = ix.original
        if original is not None and original.loading:
            # The first follow-up after a 'thinking' defer replaces the placeholder.
            self._revise(original, body, request.uploads)
            message = original
            await self._announce("MESSAGE_UPDATE", message)
        else:
            ephemeral = bool(int(body.get("flags") or 0) & MessageFlag.EPHEMERAL)
            channel = self.world.channel(ix.channel_id)
            message = self._create(
                channel, body, request.uploads, interaction=ix, ephemeral=ephemeral
            )
            ix.followups.append(message)
            await self._announce("MESSAGE_CREATE", message)
        if request.query.get("wait") in ("0", "false", "False", None):
            return NO_CONTENT
        return ok(message_payload(self.world, message))

    def _hook_message(self, params: dict[str, str]) -> FakeMessage:
        """The message a webhook route names: `@original` or one the interaction token sent."""
        ix = self.world.interaction_by_token(int(params["app_id"]), params["token"])
        wanted = params["message"]
        if wanted == "@original":
            message = ix.original
        else:
            sent = [m for m in (ix.original, *ix.followups) if m is not None]
            message = next((m for m in sent if str(m.id) == wanted), None)
        if message is None or message.deleted:
            raise ApiError(404, ErrorCode.UNKNOWN_MESSAGE, "Unknown Message")
        return message

    async def _hook_get(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        return ok(message_payload(self.world, self._hook_message(params)))

    async def _hook_edit(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        message = self._hook_message(params)
        if not (message.loading and message.interaction is not None):
            await self._check_edit(message)
        self._revise(message, request.body or {}, request.uploads)
        await self._announce("MESSAGE_UPDATE", message)
        return ok(message_payload(self.world, message))

    async def _hook_delete(self, request: ApiRequest, params: dict[str, str]) -> ApiReply:
        await self._remove(self._hook_message(params))
        return NO_CONTENT
