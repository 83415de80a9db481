"""`FakeDiscord`: the test's side of the fake, read like a person at a keyboard.

A test builds guilds and people, then acts (`slash`, `click`, `select`, `submit_modal`) and
reads what the bot did (`messages`, `ephemerals`, `dms`, `threads`, the interaction records).
The same object serves the socket server (`server.py`) and the socket-less wiring
(`wiring.py`); both attach a `GatewayLink` through which events reach the bot.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from .actions import (
    ImpossibleAction,
    OptionValue,
    command_data,
    component_data,
    interaction_payload,
    modal_submit_data,
)
from .aging import Aging
from .payloads import channel_payload, guild_payload
from .protocol import (
    BOT_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    ChannelType,
    Intent,
    InteractionType,
    Permission,
)
from .records import (
    ContractViolationRecord,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeRole,
    FakeUser,
    InjectedFailure,
    RequestRecord,
)
from .rest import RestApi
from .scheduled_events import ScheduledEvents
from .unkind import FAILURE_BODIES, Latency, PlannedFailure, RateLimits
from .world import World

Json = dict[str, Any]

DEFAULT_TIMEOUT = 5.0
RECHECK = 0.05
MAX_GUILDS_PER_SHARD = 2500


class GatewayLink(Protocol):
    """A bot connection the fake pushes gateway events into."""

    @property
    def intents(self) -> int: ...

    async def send_event(self, event: str, data: Json) -> bool:
        """Send `event` if this session receives it; whether it was written."""
        ...


@dataclass
class Session:
    """One gateway session as the fake saw it: when it joined and left (event-loop
    seconds), so that a test can say which sessions were there for an interaction."""

    number: int
    attached_at: float
    detached_at: float | None = None


class InteractionNotAnswered(AssertionError):
    """The bot did not answer an interaction Discord would have shown as 'failed'."""


def _wanted(intents: int, event: str, data: Json) -> bool:
    """Whether Discord would send this event to a session with these intents."""
    if event.startswith("MESSAGE_"):
        needed = Intent.GUILD_MESSAGES if "guild_id" in data else Intent.DIRECT_MESSAGES
        return bool(intents & needed)
    if event.startswith("GUILD_SCHEDULED_EVENT_"):
        return bool(intents & Intent.GUILD_SCHEDULED_EVENTS)
    if event.startswith(("THREAD_", "CHANNEL_", "GUILD_")):
        return bool(intents & Intent.GUILDS)
    return True


class FakeDiscord:
    """One fake Discord: its world, its REST API, the bots connected to it, and the test API."""

    def __init__(self, *, token: str = "fake-bot-token", bot_name: str = "Lockdown") -> None:
        self.world = World(token=token, bot_name=bot_name)
        self.rest = RestApi(self.world, self.dispatch, self._note_change)
        self._links: list[GatewayLink] = []
        # Every session attached so far, in order, and the attached ones' records.
        self.sessions: list[Session] = []
        self._session_of: dict[int, Session] = {}
        # How an event reaches several sessions of its shard, which Discord does not
        # document (README, "Shards"): "every" session, or "one" of them, in turn.
        self.shared_shard_delivery: Literal["every", "one"] = "every"
        self._turn = 0
        self._change = asyncio.Event()
        self._last_activity = time.monotonic()
        # Discord refuses (4011) a gateway session that would hold more guilds than this.
        self.max_guilds_per_shard = MAX_GUILDS_PER_SHARD

    # -- who is who ---------------------------------------------------------------------

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def bot(self) -> FakeUser:
        return self.world.bot

    @property
    def application_id(self) -> int:
        return self.world.application_id

    @property
    def guilds(self) -> list[FakeGuild]:
        return list(self.world.guilds.values())

    @property
    def interaction_deadline(self) -> float | None:
        """Seconds after which interaction callbacks are refused (3, like Discord; None: never)."""
        return self.rest.deadline

    @interaction_deadline.setter
    def interaction_deadline(self, seconds: float | None) -> None:
        self.rest.deadline = seconds

    @property
    def aging(self) -> Aging:
        """Idle threads archive and hour-old messages' edits are limited (`aging.py`); on at
        Discord's own clock, which a test may run faster (`aging.speed`)."""
        return self.rest.aging

    # -- making Discord as unkind as the real one (all off by default) --------------------

    @property
    def latency(self) -> Latency | None:
        """The delay every REST request takes (None: answered at once)."""
        return self.rest.latency

    def set_latency(self, seconds: float | tuple[float, float] | None, *, seed: int = 0) -> None:
        """Delay every REST request by `seconds`, or by a draw in a (min, max) range.

        Draws come from a random generator seeded with `seed`, so a run can be replayed.
        Half the delay is spent before the fake handles the request, half after.
        """
        self.rest.latency = None if seconds is None else Latency(seconds, seed=seed)

    @property
    def rate_limits(self) -> RateLimits:
        """Discord's rate limits; `fake.rate_limits.enabled = True` turns them on."""
        return self.rest.rate_limits

    def fail(
        self,
        route: str,
        *,
        status: int | None = None,
        code: int | None = None,
        times: int = 1,
        channel: FakeChannel | int | None = None,
        drop: bool = False,
    ) -> None:
        """The next `times` requests to `route` fail: with `status` (and Discord `code`), or
        by a dropped connection (`drop=True`: the socket closes with no answer).

        `route` is "METHOD /template" as the fake names it, e.g.
        "PATCH /channels/{channel_id}/messages/{message_id}" (see `fake.rest.routes`);
        `channel` limits it to requests acting in that channel or thread. A 403 defaults to
        code 50001 (Missing Access), a 404 to 10003 (Unknown Channel). Every failure that
        struck is in `fake.injected_failures`.
        """
        if route not in self.rest.routes:
            raise ValueError(f"the fake has no route {route!r}; known: {self.rest.routes}")
        if drop == (status is not None):
            raise ValueError("give either a status or drop=True")
        if times < 1:
            raise ValueError("a failure strikes at least once")
        channel_id = channel.id if isinstance(channel, FakeChannel) else channel
        if status is not None and code is None:
            code = FAILURE_BODIES.get(status, ("", 0))[1]
        self.rest.failures.add(PlannedFailure(route, status, code, times, channel_id))

    @property
    def injected_failures(self) -> list[InjectedFailure]:
        """The planned failures that struck, in order."""
        return list(self.rest.failures.struck)

    @property
    def recommended_shards(self) -> int:
        """The shard count GET /gateway/bot recommends (1 unless a test sets more)."""
        return self.rest.recommended_shards

    @recommended_shards.setter
    def recommended_shards(self, count: int) -> None:
        if count < 1:
            raise ValueError("Discord recommends at least one shard")
        self.rest.recommended_shards = count

    @property
    def contract_check(self) -> bool:
        """Whether request bodies are checked against Discord's OpenAPI schema (on by default)."""
        return self.rest.contract_check

    @contract_check.setter
    def contract_check(self, on: bool) -> None:
        self.rest.contract_check = on

    def create_guild(
        self,
        name: str = "Lockdown Test Server",
        *,
        members: int | Sequence[str] = 4,
        channels: Sequence[str] = ("general",),
        locale: str = "en-US",
        member_locale: str | None = None,
    ) -> FakeGuild:
        """A server with text channels and people; the first member is the owner.

        `members` is a count (people named player1, player2, ...) or the list of names.
        Every guild has a 'Moderator' role granting Manage Server (see `make_moderator`).
        Build guilds before the bot connects: they reach it in the READY burst.
        """
        if self._links:
            raise RuntimeError("create guilds before the bot connects: they arrive with READY")
        names = (
            [f"player{n}" for n in range(1, members + 1)] if isinstance(members, int) else members
        )
        if not names:
            raise ValueError("a guild needs at least one member, its owner")
        world = self.world
        guild_id = world.new_id()
        people = [world.add_user(n, locale=member_locale or locale) for n in names]
        guild = FakeGuild(
            id=guild_id,
            name=name,
            locale=locale,
            owner_id=people[0].id,
            everyone_role=FakeRole(guild_id, "@everyone", EVERYONE_PERMISSIONS),
            moderator_role=FakeRole(world.new_id(), "Moderator", int(Permission.MANAGE_GUILD), 1),
            bot_role=FakeRole(world.new_id(), self.bot.name, BOT_PERMISSIONS, 2, managed=True),
            created_at=world.now(),
        )
        world.guilds[guild.id] = guild
        for person in people:
            world.join(guild, person)
        world.join(guild, self.bot, role_ids=[guild.bot_role.id])
        for position, channel_name in enumerate(channels):
            channel = FakeChannel(
                id=world.new_id(),
                type=ChannelType.TEXT,
                name=channel_name,
                created_at=world.now(),
                guild_id=guild.id,
                position=position,
            )
            world.channels[channel.id] = channel
            guild.channels.append(channel)
        return guild

    def add_member(
        self, guild: FakeGuild, name: str, *, locale: str = "en-US", moderator: bool = False
    ) -> FakeUser:
        """Someone joins. The bot learns about them from their interactions (no member event)."""
        user = self.world.add_user(name, locale=locale)
        self.world.join(guild, user)
        if moderator:
            self.make_moderator(guild, user)
        return user

    async def deny_bot(self, channel: FakeChannel, permissions: Permission) -> None:
        """A server owner takes `permissions` from the bot in `channel` (and its threads).

        As a member overwrite on Discord: the bot's requests there are refused (403 50001
        without View Channel, 50013 for the rest), interactions there carry the reduced
        `app_permissions`, and a connected bot gets the CHANNEL_UPDATE.
        """
        channel.bot_denied |= int(permissions)
        await self.dispatch("CHANNEL_UPDATE", channel_payload(self.world, channel))

    async def allow_bot(self, channel: FakeChannel, permissions: Permission) -> None:
        """Give back what `deny_bot` took."""
        channel.bot_denied &= ~int(permissions)
        await self.dispatch("CHANNEL_UPDATE", channel_payload(self.world, channel))

    async def delete_channel(self, channel: FakeChannel) -> None:
        """Someone deletes a channel or thread (a channel takes its threads with it).

        The bot gets THREAD_DELETE / CHANNEL_DELETE, and every later request naming it is
        answered 404 10003 (Unknown Channel), as on Discord. Its messages stay readable here.
        """
        doomed = [channel] + [t for t in self.threads(channel) if not t.deleted]
        for gone in reversed(doomed):
            gone.deleted = True
            if gone.is_thread:
                event = {
                    "id": str(gone.id),
                    "guild_id": str(gone.guild_id),
                    "parent_id": str(gone.parent_id),
                    "type": int(gone.type),
                }
                await self.dispatch("THREAD_DELETE", event)
            else:
                await self.dispatch("CHANNEL_DELETE", channel_payload(self.world, gone))

    @property
    def scheduled_events(self) -> ScheduledEvents:
        """The guilds' scheduled events: `.in_guild`, `.interested`, `.cancel`."""
        return self.rest.scheduled

    def set_bot_permission(self, guild: FakeGuild, permission: Permission, on: bool) -> None:
        """A server owner gives the bot's role `permission` or takes it away (guild-wide,
        as Manage Events is). Before the bot connects: it reads roles at GUILD_CREATE."""
        role = guild.bot_role
        role.permissions = (
            role.permissions | int(permission) if on else role.permissions & ~int(permission)
        )

    def make_moderator(self, guild: FakeGuild, user: FakeUser) -> None:
        roles = guild.memberships[user.id].role_ids
        if guild.moderator_role.id not in roles:
            roles.append(guild.moderator_role.id)

    def guild_payloads(self) -> list[Json]:
        """The GUILD_CREATE bodies a session receives after READY, with each guild's
        scheduled events as Discord sends them (a bot restarted meanwhile knows them)."""
        payloads = []
        for guild in self.world.guilds.values():
            payload = guild_payload(self.world, guild)
            events = self.scheduled_events
            payload["guild_scheduled_events"] = [events.payload(e) for e in events.in_guild(guild)]
            payloads.append(payload)
        return payloads

    # -- the bot's connections ----------------------------------------------------------

    def attach(self, link: GatewayLink) -> None:
        self._links.append(link)
        session = Session(len(self.sessions), time.monotonic())
        self.sessions.append(session)
        self._session_of[id(link)] = session
        self._note_change()

    def detach(self, link: GatewayLink) -> None:
        if link in self._links:
            self._links.remove(link)
            self._session_of.pop(id(link)).detached_at = time.monotonic()
        self._note_change()

    @property
    def connected(self) -> bool:
        return bool(self._links)

    @property
    def connections(self) -> int:
        """How many gateway sessions are connected (one per shard of a sharded bot)."""
        return len(self._links)

    async def dispatch(self, event: str, data: Json) -> list[int]:
        """Push a gateway event to every connected bot session that asked for it (every
        session of the event's shard: several may share one); the numbers of the
        sessions it was written to (`sessions`)."""
        written = []
        links = list(self._links)
        if self.shared_shard_delivery == "one" and links:
            self._turn += 1
            start = self._turn % len(links)
            links = links[start:] + links[:start]
        for link in links:
            if _wanted(link.intents, event, data) and await link.send_event(event, data):
                session = self._session_of.get(id(link))
                if session is not None:
                    written.append(session.number)
                if self.shared_shard_delivery == "one":
                    break  # a guild's event is its shard's: the first written is the one
        return written

    # -- acting like a person -----------------------------------------------------------

    async def slash(
        self,
        user: FakeUser,
        command: str,
        *,
        channel: FakeChannel,
        subcommand: str | None = None,
        options: Mapping[str, OptionValue] | None = None,
        wait: bool = True,
        within: float = DEFAULT_TIMEOUT,
    ) -> FakeInteraction:
        """`user` runs `/command subcommand option:value...` in `channel`.

        `subcommand` may name a group and its subcommand ("admin reset"). The command must
        have been synced by the bot; ids, option types and nesting come from that sync.
        With `wait`, returns once the bot answered (raising InteractionNotAnswered if not).
        """
        guild = self.world.guild_of(channel)
        found = self.world.synced_command(command, guild.id if guild else None)
        if found is None:
            raise ImpossibleAction(f"no synced command /{command} where {user.name} is")
        self._check_command_access(found, user, guild)
        path = subcommand.split() if subcommand else []
        data = command_data(self.world, found, path, options or {}, guild)
        return await self._interact(
            InteractionType.APPLICATION_COMMAND,
            user,
            channel,
            data,
            name=" ".join([command, *path]),
            wait=wait,
            within=within,
        )

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        *,
        wait: bool = True,
        within: float = DEFAULT_TIMEOUT,
    ) -> FakeInteraction:
        """`user` clicks the button `custom_id` on `message`."""
        return await self._on_component(user, message, custom_id, None, wait, within)

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        values: Sequence[str | FakeUser],
        *,
        wait: bool = True,
        within: float = DEFAULT_TIMEOUT,
    ) -> FakeInteraction:
        """`user` picks `values` in the select `custom_id` (option values, or people)."""
        return await self._on_component(user, message, custom_id, values, wait, within)

    async def submit_modal(
        self,
        user: FakeUser,
        opened: FakeInteraction,
        values: Mapping[str, str | Sequence[str]],
        *,
        wait: bool = True,
        within: float = DEFAULT_TIMEOUT,
    ) -> FakeInteraction:
        """`user` fills the modal the bot opened in answer to `opened`, and submits it."""
        if opened.modal is None:
            raise ImpossibleAction(f"the bot opened no modal in answer to {opened}")
        if opened.user.id != user.id:
            raise ImpossibleAction(f"the modal was shown to {opened.user.name}, not {user.name}")
        data = modal_submit_data(opened.modal, values)
        return await self._interact(
            InteractionType.MODAL_SUBMIT,
            user,
            self.world.channel(opened.channel_id),
            data,
            message=opened.message,
            custom_id=data["custom_id"],
            wait=wait,
            within=within,
        )

    def _check_command_access(self, command: Json, user: FakeUser, guild: FakeGuild | None) -> None:
        """Discord hides a command from who may not use it; a person cannot run what is hidden."""
        if guild is None:
            contexts = command.get("contexts")
            in_dms = 1 in contexts if contexts is not None else command.get("dm_permission", True)
            if not in_dms:
                raise ImpossibleAction(f"/{command['name']} cannot be used in DMs")
            return
        needed = command.get("default_member_permissions")
        if needed is not None:
            have = self.world.permissions(guild, user.id)
            if int(needed) & have != int(needed):
                raise ImpossibleAction(f"{user.name} lacks the permissions for /{command['name']}")

    async def _on_component(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        values: Sequence[str | FakeUser] | None,
        wait: bool,
        within: float,
    ) -> FakeInteraction:
        if message.deleted:
            raise ImpossibleAction(f"message {message.id} was deleted")
        if message.visible_to not in (None, user.id):
            raise ImpossibleAction(f"{user.name} cannot see the ephemeral message {message.id}")
        channel = self.world.channels[message.channel_id]
        if channel.deleted:
            raise ImpossibleAction(f"the channel of message {message.id} was deleted")
        data = component_data(self.world, message, custom_id, values, self.world.guild_of(channel))
        return await self._interact(
            InteractionType.MESSAGE_COMPONENT,
            user,
            channel,
            data,
            message=message,
            custom_id=custom_id,
            wait=wait,
            within=within,
        )

    async def _interact(
        self,
        kind: InteractionType,
        user: FakeUser,
        channel: FakeChannel,
        data: Json,
        *,
        message: FakeMessage | None = None,
        name: str | None = None,
        custom_id: str | None = None,
        wait: bool,
        within: float,
    ) -> FakeInteraction:
        if not self.world.can_see(user, channel):
            raise ImpossibleAction(f"{user.name} cannot see channel {channel.name or channel.id}")
        if not self._links:
            raise RuntimeError("no bot is connected to the fake Discord")
        await self.rest.age(channel)
        if kind is InteractionType.APPLICATION_COMMAND and channel.archived:
            # Discord: application commands cannot be used in an archived thread.
            raise ImpossibleAction(f"the thread {channel.name} is archived")
        interaction_id = self.world.new_id()
        token = f"ix-{interaction_id}-{secrets.token_hex(8)}"
        payload = interaction_payload(
            self.world,
            interaction_id=interaction_id,
            token=token,
            kind=kind,
            user=user,
            channel=channel,
            data=data,
            message=message,
        )
        interaction = FakeInteraction(
            id=interaction_id,
            token=token,
            type=kind,
            user=user,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            payload=payload,
            created_at=time.monotonic(),
            name=name,
            custom_id=custom_id,
            message=message,
        )
        self.world.interactions[interaction.id] = interaction
        interaction.delivered_to = await self.dispatch("INTERACTION_CREATE", payload)
        if wait and not await self.wait_answered(interaction, within):
            late = interaction.late_callbacks
            raise InteractionNotAnswered(
                f"the bot did not answer {name or custom_id or kind.name} within {within}s"
                + (f"; Discord refused its late answers after {late}s" if late else "")
            )
        return interaction

    # -- waiting ------------------------------------------------------------------------

    def _note_change(self) -> None:
        self._last_activity = time.monotonic()
        self._change.set()
        self._change = asyncio.Event()

    async def wait_until(
        self, condition: Callable[[], bool], within: float = DEFAULT_TIMEOUT
    ) -> bool:
        """Wait (bounded) until `condition()` holds, re-checking after each bot request.

        Also re-checked every `RECHECK` seconds: what the bot does with a gateway event
        (a cache update) changes no request, and would otherwise be seen only at the end.
        """
        deadline = time.monotonic() + within
        while not condition():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            with suppress(TimeoutError):
                await asyncio.wait_for(self._change.wait(), min(remaining, RECHECK))
        return True

    async def wait_answered(
        self, interaction: FakeInteraction, within: float = DEFAULT_TIMEOUT
    ) -> bool:
        """Wait until the bot answered (or Discord refused a late answer); True if answered.

        `interaction.answered_in_time` then tells whether it was within Discord's 3 seconds.
        """
        await self.wait_until(
            lambda: interaction.answered or bool(interaction.late_callbacks), within
        )
        return interaction.answered

    async def settle(self, quiet: float = 0.2, within: float = DEFAULT_TIMEOUT) -> bool:
        """Wait until the bot made no request for `quiet` seconds; False if it never paused."""
        deadline = time.monotonic() + within
        while True:
            idle_for = time.monotonic() - self._last_activity
            if idle_for >= quiet:
                return True
            if time.monotonic() + (quiet - idle_for) > deadline:
                return False
            await asyncio.sleep(quiet - idle_for)

    # -- reading what happened ----------------------------------------------------------

    def channel(self, channel_id: int) -> FakeChannel:
        """A channel or thread by id, deleted ones included (KeyError if it never existed)."""
        return self.world.channels[channel_id]

    def messages(
        self, channel: FakeChannel | int, *, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """What everyone sees in a channel, thread or DM, oldest first (no ephemeral ones)."""
        channel_id = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in self.world.channel_messages(channel_id)
            if not m.ephemeral and (include_deleted or not m.deleted)
        ]

    def last_message(self, channel: FakeChannel | int) -> FakeMessage:
        found = self.messages(channel)
        if not found:
            raise AssertionError(f"no message in channel {channel}")
        return found[-1]

    def ephemerals(self, user: FakeUser) -> list[FakeMessage]:
        """The 'only you can see this' messages `user` got, oldest first."""
        return [
            m for m in self.world.messages.values() if m.visible_to == user.id and not m.deleted
        ]

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        return self.world.dm_channel(user)

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        """The direct messages the bot managed to deliver to `user`, oldest first."""
        return self.messages(self.world.dm_channel(user))

    def threads(self, parent: FakeChannel | None = None) -> list[FakeChannel]:
        return [
            c
            for c in self.world.channels.values()
            if c.is_thread and (parent is None or c.parent_id == parent.id)
        ]

    def thread(self, name: str) -> FakeChannel:
        for candidate in self.threads():
            if candidate.name == name:
                return candidate
        raise KeyError(f"no thread named {name!r}: {[t.name for t in self.threads()]}")

    def commands(self, guild: FakeGuild | None = None) -> list[Json]:
        """The commands the bot synced, globally or for one guild."""
        return self.world.commands.get(guild.id if guild else None, [])

    @property
    def interactions(self) -> list[FakeInteraction]:
        return list(self.world.interactions.values())

    @property
    def requests(self) -> list[RequestRecord]:
        return self.world.requests

    @property
    def unknown_requests(self) -> list[RequestRecord]:
        """Calls to routes the fake does not implement (answered 404)."""
        return [r for r in self.world.requests if not r.routed]

    @property
    def bot_requests(self) -> list[RequestRecord]:
        """REST calls made with the bot's token, in order (`.at`, `.method`, `.route`,
        `.channel_id`, `.status`). Interaction callbacks and follow-ups made with an
        interaction token are not among them: they do not count against the bot's limits."""
        return [r for r in self.world.requests if r.bot_token]

    @property
    def rate_limited(self) -> list[RequestRecord]:
        """The requests Discord answered 429."""
        return [r for r in self.world.requests if r.status == 429]

    @property
    def contract_violations(self) -> list[ContractViolationRecord]:
        """Requests Discord would refuse for their shape (schema or documented limits)."""
        return list(self.world.contract_violations)

    def assert_no_contract_violations(self) -> None:
        found = [f"{v.route} {v.field}: {v.reason}" for v in self.world.contract_violations]
        assert not found, f"the bot broke Discord's API contract: {found}"

    def assert_no_unknown_routes(self) -> None:
        unknown = [f"{r.method} {r.path}" for r in self.unknown_requests]
        assert not unknown, f"the bot called routes the fake Discord does not know: {unknown}"
