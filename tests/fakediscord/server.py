"""The fake Discord served over HTTP and websocket on 127.0.0.1, for real end-to-end runs.

`serve(fake)` starts the server on a free port and points discord.py at it by patching
`discord.http.Route.BASE` and `DiscordWebSocket.DEFAULT_GATEWAY`, restoring both on exit.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress

import yarl
from aiohttp import BodyPartReader, web
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .fake import FakeDiscord
from .gateway import GatewaySession, Resumable
from .protocol import API_PREFIX
from .records import Upload
from .rest import ApiReply, ApiRequest

UPLOAD_FIELD = re.compile(r"files\[(\d+)\]$")
MAX_REQUEST_BYTES = 64 * 1024 * 1024
SHUTDOWN_TIMEOUT = 2.0
# A close code after which discord.py tries to resume (4000: unknown error).
CLOSE_RECONNECTABLE = 4000
CLOSE_GOING_AWAY = 1001


class FakeDiscordServer:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._sessions: set[GatewaySession] = set()
        self._ended: dict[str, Resumable] = {}

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(client_max_size=MAX_REQUEST_BYTES)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        self._runner = web.AppRunner(
            app, handle_signals=False, access_log=None, shutdown_timeout=SHUTDOWN_TIMEOUT
        )
        await self._runner.setup()
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.bind(("127.0.0.1", 0))
        self.port = listener.getsockname()[1]
        await web.SockSite(self._runner, listener).start()
        self.fake.world.cdn_base = self.base_url
        self.fake.world.gateway_url = self.gateway_url

    async def stop(self) -> None:
        """Close the gateway sockets, then the server (each step bounded)."""
        await self.drop_connections(CLOSE_GOING_AWAY)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def drop_connections(self, code: int = CLOSE_RECONNECTABLE) -> None:
        """Cut every gateway socket, as a Discord outage would; clients reconnect by themselves.

        Returns once the cut sessions have ended (bounded), so `fake.connected` then tells
        whether a client came back.
        """
        for session in list(self._sessions):
            with suppress(TimeoutError):
                await asyncio.wait_for(session.close(code), SHUTDOWN_TIMEOUT)
                await asyncio.wait_for(session.finished.wait(), SHUTDOWN_TIMEOUT)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket_response = web.WebSocketResponse(max_msg_size=0)
        await socket_response.prepare(request)
        session = GatewaySession(self.fake, socket_response, self._ended)
        self._sessions.add(session)
        try:
            await session.run()
        finally:
            self._sessions.discard(session)
        return socket_response

    async def _rest(self, request: web.Request) -> web.Response:
        body, uploads = await _read_body(request)
        authorization = request.headers.get("Authorization", "")
        reply = await self.fake.rest.handle(
            ApiRequest(
                method=request.method,
                path="/" + request.match_info["tail"],
                query=dict(request.query),
                body=body,
                uploads=uploads,
                token=authorization.removeprefix("Bot ") if authorization else None,
            )
        )
        if reply.drop and request.transport is not None:
            # A network fault: the socket closes with no answer (the client sees a disconnect).
            # aiohttp then fails to write the response below, quietly: it was never sent.
            request.transport.close()
        return _http_response(reply)

    async def _cdn(self, request: web.Request) -> web.Response:
        wanted = int(request.match_info["attachment_id"])
        for message in self.fake.world.messages.values():
            for version in message.versions:
                for attachment in version.attachments:
                    if attachment.id == wanted:
                        return web.Response(
                            body=attachment.data, content_type=attachment.content_type
                        )
        raise web.HTTPNotFound()


async def _read_body(request: web.Request) -> tuple[object, list[Upload]]:
    if not request.can_read_body:
        return None, []
    if request.content_type == "application/json":
        return await request.json(), []
    if request.content_type != "multipart/form-data":
        return await request.text(), []
    body: object = None
    uploads: list[Upload] = []
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader):
            continue
        if part.name == "payload_json":
            body = json.loads(await part.text())
        elif part.name and (match := UPLOAD_FIELD.match(part.name)):
            uploads.append(
                Upload(int(match.group(1)), part.filename or "", bytes(await part.read()))
            )
    return body, uploads


def _http_response(reply: ApiReply) -> web.Response:
    if reply.body is None:
        return web.Response(status=reply.status, headers=reply.headers)
    # Exactly "application/json": discord.py compares the header verbatim, a charset breaks it.
    return web.Response(
        status=reply.status,
        body=json.dumps(reply.body).encode(),
        headers=reply.headers | {"Content-Type": "application/json"},
    )


@contextmanager
def discord_pointed_at(server: FakeDiscordServer) -> Iterator[None]:
    """Make every discord.py client in this process talk to `server` instead of Discord."""
    saved_base, saved_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = server.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)
    try:
        yield
    finally:
        Route.BASE = saved_base
        DiscordWebSocket.DEFAULT_GATEWAY = saved_gateway


@asynccontextmanager
async def serve(fake: FakeDiscord) -> AsyncIterator[FakeDiscordServer]:
    """Run the fake on a free loopback port with discord.py pointed at it."""
    server = FakeDiscordServer(fake)
    await server.start()
    try:
        with discord_pointed_at(server):
            yield server
    finally:
        await server.stop()
