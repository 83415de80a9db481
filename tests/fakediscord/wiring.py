"""The fake Discord without sockets: discord.py's HTTP layer answered in-process.

`wire(client, fake)` replaces `client.http.request` and the interaction webhook adapter's
`request` with calls into the same `RestApi` the server uses, and delivers gateway events by
calling `client._connection.parsers[...]` directly (what discord.py's gateway does on receipt).
Tests then use the very same `FakeDiscord` API (`slash`, `click`, `messages`...) as e2e ones.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Iterable
from contextlib import ExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any, cast
from unittest import mock
from urllib.parse import parse_qsl, urlsplit

import aiohttp
import discord
from discord.http import Route
from discord.user import ClientUser
from discord.webhook.async_ import async_context

from .fake import FakeDiscord
from .payloads import bot_self_payload
from .protocol import API_PREFIX
from .records import Upload
from .rest import ApiReply, ApiRequest

Json = dict[str, Any]
UPLOAD_FIELD = re.compile(r"files\[(\d+)\]$")


@dataclass
class _Response:
    """What discord.py's HTTPException reads from an aiohttp response."""

    status: int
    reason: str


class WiredLink:
    """Gateway events handed straight to the client's parsers."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client

    @property
    def intents(self) -> int:
        return self._client.intents.value

    async def send_event(self, event: str, data: Json) -> bool:
        parser = self._client._connection.parsers.get(event)
        if parser is not None:
            parser(data)
        return True


def _request(route: Route, body: Any, form: Iterable[Json] | None, params: Any) -> ApiRequest:
    parts = urlsplit(route.url)
    path = parts.path.removeprefix(API_PREFIX)
    query = dict(parse_qsl(parts.query))
    query.update({str(k): str(v) for k, v in (params or {}).items()})
    uploads: list[Upload] = []
    for field in form or []:
        if field["name"] == "payload_json":
            body = json.loads(field["value"])
        elif match := UPLOAD_FIELD.match(field["name"]):
            data = field["value"].read()
            uploads.append(Upload(int(match.group(1)), field.get("filename", ""), bytes(data)))
    # Through JSON, as over the wire: the contract sees lists, not tuples, and string keys.
    body = None if body is None else json.loads(json.dumps(body))
    return ApiRequest(route.method, path, query, body, uploads, token=None)


def _result(reply: ApiReply) -> Any:
    """Return the body like discord.py's HTTP layer does, or raise what it would raise.

    Without discord.py's HTTP loop there is no retry: a 429 or a 5xx raises at once.
    """
    if reply.drop:
        raise aiohttp.ServerDisconnectedError()
    if 200 <= reply.status < 300:
        return "" if reply.body is None else reply.body
    response = cast(Any, _Response(reply.status, "fake"))
    if reply.status == 403:
        raise discord.Forbidden(response, reply.body)
    if reply.status == 404:
        raise discord.NotFound(response, reply.body)
    raise discord.HTTPException(response, reply.body)


@asynccontextmanager
async def wire(
    client: discord.Client,
    fake: FakeDiscord,
    *,
    run_setup_hook: bool = True,
    sync_commands: bool = True,
) -> AsyncIterator[FakeDiscord]:
    """Connect `client` to `fake` in-process, as if it had logged in and received READY.

    Guilds must exist before wiring (the client learns them here). With `run_setup_hook`
    the client's `setup_hook` runs (persistent views, dynamic items); with `sync_commands`
    its command tree is synced, globally and for each fake guild it has commands for.
    The client then counts as ready, but `on_ready` is not dispatched. It is closed on
    exit, as `start_client` closes its client: nothing it started (a bot's timers, its
    database) outlives the test's event loop, whose end would cancel it half-way.
    """

    async def http_request(route: Route, *, files: Any = None, form: Any = None, **kw: Any) -> Any:
        request = _request(route, kw.get("json"), form, kw.get("params"))
        request.token = fake.token
        return _result(await fake.rest.handle(request))

    async def webhook_request(
        route: Route, session: Any = None, *, payload: Any = None, multipart: Any = None, **kw: Any
    ) -> Any:
        return _result(
            await fake.rest.handle(_request(route, payload, multipart, kw.get("params")))
        )

    state = client._connection
    if not isinstance(client.loop, asyncio.AbstractEventLoop):
        await client._async_setup_hook()
    state.user = ClientUser(state=state, data=cast(Any, bot_self_payload(fake.world)))
    state.application_id = fake.application_id
    for guild in fake.guild_payloads():
        state._add_guild_from_data(cast(Any, guild))
    link = WiredLink(client)
    with ExitStack() as patches:
        patches.enter_context(mock.patch.object(client.http, "request", new=http_request))
        patches.enter_context(
            mock.patch.object(async_context.get(), "request", new=webhook_request)
        )
        fake.attach(link)
        try:
            if run_setup_hook:
                await client.setup_hook()
            if sync_commands:
                await _sync_everything(client, fake)
            client._ready.set()  # wait_until_ready() returns; on_ready is not dispatched
            yield fake
        finally:
            try:
                await client.close()
            finally:
                fake.detach(link)


async def _sync_everything(client: discord.Client, fake: FakeDiscord) -> None:
    tree = client._connection._command_tree
    if tree is None:
        return
    await tree.sync()
    for guild in fake.guilds:
        scope = discord.Object(guild.id)
        if tree.get_commands(guild=scope):
            await tree.sync(guild=scope)
