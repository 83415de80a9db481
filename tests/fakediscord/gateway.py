"""One bot's gateway websocket: HELLO, IDENTIFY or RESUME, READY and its guild burst,
heartbeats, events.

Frames go out as JSON text (never compressed): discord.py only inflates binary frames, so
text works whatever `compress` it asked for in the URL.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .payloads import bot_self_payload, member_payload
from .protocol import Op

if TYPE_CHECKING:
    from .fake import FakeDiscord

Json = dict[str, Any]

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41_250
CLOSE_AUTHENTICATION_FAILED = 4004
CLOSE_INVALID_SHARD = 4010
# Discord closes a session that would hold too many guilds (2,500 per shard) with this.
CLOSE_SHARDING_REQUIRED = 4011


@dataclass(frozen=True)
class Resumable:
    """What a closed session leaves behind so its client can RESUME it."""

    sequence: int
    intents: int
    shard: tuple[int, int] | None = None


class GatewaySession:
    """Speaks the gateway protocol to one connected client; attached to the fake once READY."""

    def __init__(
        self, fake: FakeDiscord, socket: web.WebSocketResponse, ended: dict[str, Resumable]
    ) -> None:
        self._fake = fake
        self._socket = socket
        self._ended = ended
        self._sequence = 0
        self._send_lock = asyncio.Lock()
        self._intents = 0
        self._session_id: str | None = None
        # [shard_id, shard_count] from IDENTIFY: only that shard's guilds reach this session.
        self._shard: tuple[int, int] | None = None
        self.finished = asyncio.Event()

    @property
    def intents(self) -> int:
        return self._intents

    async def run(self) -> None:
        """Serve the connection until the client (or the server) closes it."""
        try:
            await self._send({"op": Op.HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
            async for frame in self._socket:
                if frame.type is WSMsgType.TEXT:
                    await self._receive(json.loads(frame.data))
                elif frame.type is WSMsgType.ERROR:
                    break
        finally:
            self._fake.detach(self)
            if self._session_id is not None:
                self._ended[self._session_id] = Resumable(
                    self._sequence, self._intents, self._shard
                )
            self.finished.set()

    async def close(self, code: int) -> None:
        await self._socket.close(code=code)

    def serves(self, guild_id: int | None) -> bool:
        """Discord's routing: a guild's events go to shard `(guild_id >> 22) % shard_count`,
        events outside any guild (DMs) to shard 0."""
        if self._shard is None:
            return True
        shard_id, shard_count = self._shard
        return (0 if guild_id is None else (guild_id >> 22) % shard_count) == shard_id

    async def send_event(self, event: str, data: Json) -> bool:
        guild_id = data.get("id") if event == "GUILD_CREATE" else data.get("guild_id")
        if event not in ("READY", "RESUMED") and not self.serves(
            int(guild_id) if guild_id else None
        ):
            return False
        self._sequence += 1
        return await self._send({"op": Op.DISPATCH, "t": event, "s": self._sequence, "d": data})

    async def _send(self, payload: Json) -> bool:
        if self._socket.closed:
            return False
        async with self._send_lock:
            try:
                await self._socket.send_str(json.dumps(payload))
            except ConnectionError:
                log.debug("gateway client went away while we sent %s", payload.get("t"))
                return False
        return True

    async def _receive(self, message: Json) -> None:
        op, data = message.get("op"), message.get("d") or {}
        if op == Op.HEARTBEAT:
            await self._send({"op": Op.HEARTBEAT_ACK})
        elif op == Op.IDENTIFY:
            await self._identify(data)
        elif op == Op.RESUME:
            await self._resume(data)
        elif op == Op.REQUEST_MEMBERS:
            await self._send_members(data)
        elif op != Op.PRESENCE:  # presence updates need no answer
            log.warning("fake gateway ignores op %s", op)

    async def _identify(self, data: Json) -> None:
        if data.get("token") != self._fake.token:
            await self._socket.close(
                code=CLOSE_AUTHENTICATION_FAILED, message=b"Authentication failed"
            )
            return
        shard = data.get("shard")
        self._shard = (int(shard[0]), int(shard[1])) if shard else None
        if self._shard is not None and not 0 <= self._shard[0] < self._shard[1]:
            await self._socket.close(code=CLOSE_INVALID_SHARD, message=b"Invalid shard")
            return
        guilds = [g for g in self._fake.guild_payloads() if self.serves(int(g["id"]))]
        if len(guilds) > self._fake.max_guilds_per_shard:
            await self._socket.close(code=CLOSE_SHARDING_REQUIRED, message=b"Sharding required")
            return
        self._intents = int(data.get("intents", 0))
        self._session_id = secrets.token_hex(16)
        world = self._fake.world
        await self.send_event(
            "READY",
            {
                "v": 10,
                "user": bot_self_payload(world),
                "application": {"id": str(world.application_id), "flags": 0},
                "guilds": [{"id": g["id"], "unavailable": True} for g in guilds],
                "session_id": self._session_id,
                "resume_gateway_url": world.gateway_url,
                "session_type": "normal",
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "geo_ordered_rtc_regions": [],
                **({"shard": list(self._shard)} if self._shard is not None else {}),
            },
        )
        for guild in guilds:
            await self.send_event("GUILD_CREATE", guild)
        self._fake.attach(self)

    async def _resume(self, data: Json) -> None:
        """Pick up a dropped session where it stopped (events sent meanwhile are not replayed)."""
        ended = self._ended.pop(data.get("session_id", ""), None)
        if data.get("token") != self._fake.token or ended is None:
            await self._send({"op": Op.INVALID_SESSION, "d": False})
            return
        self._session_id = data["session_id"]
        self._sequence, self._intents = ended.sequence, ended.intents
        self._shard = ended.shard
        await self.send_event("RESUMED", {})
        self._fake.attach(self)

    async def _send_members(self, data: Json) -> None:
        world = self._fake.world
        guild = world.guild(int(data["guild_id"]))
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        members = [
            member_payload(world, guild, user_id)
            for user_id, membership in guild.memberships.items()
            if (not wanted or user_id in wanted) and membership.user.name.lower().startswith(query)
        ]
        await self.send_event(
            "GUILD_MEMBERS_CHUNK",
            {
                "guild_id": str(guild.id),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "nonce": data.get("nonce"),
            },
        )
