"""Guild Scheduled Events on the fake Discord: the REST routes and what people do to them.

The routes answer as Discord documents them (`discord_api_spec/`): creating, editing and
deleting an event needs Manage Events in the guild (50013 without it), an unknown event is
404 10070, and every change reaches the bot as GUILD_SCHEDULED_EVENT_CREATE / _UPDATE /
_DELETE. People mark themselves interested (`interested`), and a moderator cancels an
event in Discord's own interface (`cancel`), which the bot hears only by the gateway or by
reading the event again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from .payloads import member_payload, user_payload
from .protocol import ApiError, Permission, form_error
from .records import FakeGuild, FakeUser
from .world import World

Json = dict[str, Any]
Dispatch = Callable[[str, Json], Awaitable[None]]

UNKNOWN_SCHEDULED_EVENT = 10070
# Guild Scheduled Event statuses and entity types (Discord's numbers).
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
STAGE, VOICE, EXTERNAL = 1, 2, 3
EDITABLE = (
    "name",
    "description",
    "scheduled_start_time",
    "scheduled_end_time",
    "privacy_level",
    "entity_type",
    "channel_id",
    "entity_metadata",
    "recurrence_rule",
    "status",
)


@dataclass
class FakeScheduledEvent:
    id: int
    guild_id: int
    creator_id: int
    fields: Json
    interested: list[int] = field(default_factory=list)

    @property
    def status(self) -> int:
        return int(self.fields.get("status", SCHEDULED))


class ScheduledEvents:
    """Every guild's scheduled events, and the routes that reach them."""

    def __init__(self, world: World, dispatch: Dispatch) -> None:
        self.world = world
        self._dispatch = dispatch
        self.events: dict[int, FakeScheduledEvent] = {}

    def routes(self) -> list[tuple[str, str, Any, bool]]:
        base = "/guilds/{guild_id}/scheduled-events"
        one = base + "/{event_id}"
        return [
            ("GET", base, self._list, True),
            ("POST", base, self._create, True),
            ("GET", one, self._get, True),
            ("PATCH", one, self._edit, True),
            ("DELETE", one, self._delete, True),
            ("GET", one + "/users", self._users, True),
        ]

    # -- what people do ----------------------------------------------------------------

    def in_guild(self, guild: FakeGuild) -> list[FakeScheduledEvent]:
        return [e for e in self.events.values() if e.guild_id == guild.id]

    def interested(self, event: FakeScheduledEvent, user: FakeUser) -> None:
        """`user` clicks "Interested" (no gateway event: the bot must ask for the list)."""
        if user.id not in event.interested:
            event.interested.append(user.id)

    async def cancel(self, event: FakeScheduledEvent, *, tell_bot: bool = True) -> None:
        """A moderator cancels the event in Discord; `tell_bot=False` loses the gateway
        event (a reconnect that missed it), so only reading the event again shows it."""
        event.fields["status"] = CANCELED
        if tell_bot:
            await self._dispatch("GUILD_SCHEDULED_EVENT_UPDATE", self.payload(event))

    def payload(self, event: FakeScheduledEvent) -> Json:
        body: Json = {
            "id": str(event.id),
            "guild_id": str(event.guild_id),
            "creator_id": str(event.creator_id),
            "creator": user_payload(self.world.user(event.creator_id)),
            "description": None,
            "channel_id": None,
            "scheduled_end_time": None,
            "entity_id": None,
            "entity_metadata": None,
            "recurrence_rule": None,
            "image": None,
            "user_count": len(event.interested),
            "status": SCHEDULED,
        }
        body.update(event.fields)
        if body.get("channel_id") is not None:
            body["channel_id"] = str(body["channel_id"])
        return body

    # -- routes --------------------------------------------------------------------------

    def _guild(self, params: dict[str, str], *, manage: bool = False) -> FakeGuild:
        guild = self.world.guild(int(params["guild_id"]))
        if manage:
            have = self.world.permissions(guild, self.world.bot.id)
            if not have & (Permission.MANAGE_EVENTS | Permission.ADMINISTRATOR):
                raise ApiError(403, 50013, "Missing Permissions")
        return guild

    def _event(self, params: dict[str, str]) -> FakeScheduledEvent:
        guild = self._guild(params)
        event = self.events.get(int(params["event_id"]))
        if event is None or event.guild_id != guild.id:
            raise ApiError(404, UNKNOWN_SCHEDULED_EVENT, "Unknown Guild Scheduled Event")
        return event

    async def _list(self, request: Any, params: dict[str, str]) -> Any:
        from .rest import ok

        guild = self._guild(params)
        return ok([self.payload(e) for e in self.in_guild(guild)])

    async def _create(self, request: Any, params: dict[str, str]) -> Any:
        from .rest import ok

        guild = self._guild(params, manage=True)
        body: Json = request.body or {}
        kind = body.get("entity_type")
        if kind == EXTERNAL and not (body.get("entity_metadata") or {}).get("location"):
            raise form_error("entity_metadata.location", "This field is required")
        if kind in (STAGE, VOICE) and body.get("channel_id") is None:
            raise form_error("channel_id", "This field is required")
        fields = {k: body[k] for k in EDITABLE if k in body}
        fields["status"] = SCHEDULED
        event = FakeScheduledEvent(self.world.new_id(), guild.id, self.world.bot.id, fields)
        self.events[event.id] = event
        payload = self.payload(event)
        await self._dispatch("GUILD_SCHEDULED_EVENT_CREATE", payload)
        return ok(payload)

    async def _get(self, request: Any, params: dict[str, str]) -> Any:
        from .rest import ok

        return ok(self.payload(self._event(params)))

    async def _edit(self, request: Any, params: dict[str, str]) -> Any:
        from .rest import ok

        self._guild(params, manage=True)
        event = self._event(params)
        body: Json = request.body or {}
        event.fields.update({k: body[k] for k in EDITABLE if k in body})
        payload = self.payload(event)
        await self._dispatch("GUILD_SCHEDULED_EVENT_UPDATE", payload)
        return ok(payload)

    async def _delete(self, request: Any, params: dict[str, str]) -> Any:
        from .rest import NO_CONTENT

        self._guild(params, manage=True)
        event = self._event(params)
        payload = self.payload(event)
        del self.events[event.id]
        await self._dispatch("GUILD_SCHEDULED_EVENT_DELETE", payload)
        return NO_CONTENT

    async def _users(self, request: Any, params: dict[str, str]) -> Any:
        """Who is interested, in the order they clicked, `limit` at most (100 by default)."""
        from .rest import ok

        guild = self._guild(params)
        event = self._event(params)
        limit = int(request.query.get("limit", 100))
        with_member = request.query.get("with_member") in ("true", "True", "1")
        users = []
        for user_id in event.interested[:limit]:
            entry: Json = {
                "guild_scheduled_event_id": str(event.id),
                "user": user_payload(self.world.user(user_id)),
            }
            if with_member and user_id in guild.memberships:
                entry["member"] = member_payload(self.world, guild, user_id, with_user=False)
            users.append(entry)
        return ok(users)
