"""`lockdown-web`'s application: Starlette routes over the games the bot stored.

Starlette because it is small, typed, maintained (the base of FastAPI), async
like the rest of the bot, so it reads the database with the same SQLAlchemy
async engine; Jinja2 for templates that escape by default; uvicorn to serve it.

Every address without a page gets the same 404, built once: a malformed token,
a forged one, a game that does not exist, one still running, a practice game,
a server that turned its pages off. All of them cost one lookup of the same
query (`WebPages.visible`), so neither the body nor the time tells them apart.
A finished game never changes: its story, pages and pictures are kept (bounded)
and answered with an ETag and Cache-Control. Whether it is still public is read
again once `VISIBLE_SECONDS` have passed since the last read, so a moderator's
"off" takes effect within that time; a 404 is never kept, so every refusal costs
the same query.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Generic, TypeVar

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from bot.settings import Settings
from bot.storage.database import Database
from bot.storage.web_pages import WebPages
from bot.web.addresses import game_of
from bot.web.guard import RateLimit, guarded
from bot.web.pages import Rendered, environment, etag_of, render_notice, render_step
from bot.web.pictures import step_png
from bot.web.story import Story, tell

STATIC = Path(__file__).parent / "static"
# How long a game found public is served without asking the database again.
VISIBLE_SECONDS = 5.0
# A finished game's page may be kept a while by a browser or a proxy; not long, so that
# a server that turns its pages off is not served from caches for days.
CACHE_CONTROL = "public, max-age=300"
STATIC_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}

K = TypeVar("K")
V = TypeVar("V")


class Kept(Generic[K, V]):
    """The latest `size` values made, each made once even when asked for at once."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[K, asyncio.Future[V]] = OrderedDict()

    async def get(self, key: K, make: Callable[[], Awaitable[V]]) -> V:
        future = self.items.get(key)
        if future is not None:
            self.items.move_to_end(key)
        else:
            future = asyncio.get_running_loop().create_future()
            self.items[key] = future
            while len(self.items) > self.size:
                self.items.popitem(last=False)
            try:
                future.set_result(await make())
            except Exception as exc:
                self.items.pop(key, None)
                future.set_exception(exc)
                future.exception()  # retrieved: each waiter raises it on its own
        return await asyncio.shield(future)


class GamePages:
    """The routes' state: the database's reads, the templates and what was made."""

    def __init__(self, settings: Settings, database: Database) -> None:
        if settings.web_secret is None:
            raise ValueError("WEB_SECRET is not set: the pages' addresses cannot be checked")
        self.secret = settings.web_secret.get_secret_value().encode("utf-8")
        self.public_url = settings.web_public_url or ""
        self.noindex = not settings.web_allow_indexing
        self.reads = WebPages(database)
        self.env = environment()
        self.missing = render_notice(self.env, "web.not_found")
        self.too_many = render_notice(self.env, "web.too_many")
        self.stories: Kept[int, Story] = Kept(64)
        # Games found public, and until when (monotonic) that answer is kept.
        self.public_until: OrderedDict[int, float] = OrderedDict()
        self.pages: Kept[tuple[int, int, bool], Rendered] = Kept(4096)
        self.pictures: Kept[tuple[int, int], Rendered] = Kept(512)
        self.static = {
            path.name: (path.read_bytes(), STATIC_TYPES[path.suffix])
            for path in STATIC.iterdir()
            if path.suffix in STATIC_TYPES
        }

    def not_found(self) -> Response:
        return Response(self.missing, status_code=404, media_type="text/html")

    async def story(self, request: Request) -> Story | None:
        """The game the address names, if it has a page now; None for every other case."""
        game_id = game_of(self.secret, str(request.path_params.get("token", "")))
        if self.public_until.get(game_id, 0.0) < time.monotonic():
            if not await self.reads.visible(game_id):
                self.public_until.pop(game_id, None)
                return None
            self.public_until[game_id] = time.monotonic() + VISIBLE_SECONDS
            self.public_until.move_to_end(game_id)
            while len(self.public_until) > self.stories.size * 16:
                self.public_until.popitem(last=False)
        return await self.stories.get(game_id, lambda: self._tell(game_id))

    async def _tell(self, game_id: int) -> Story:
        game = await self.reads.game(game_id)
        return await asyncio.to_thread(tell, game)

    async def page(self, request: Request) -> Response:
        return await self._page(request, cut=False)

    async def cut(self, request: Request) -> Response:
        return await self._page(request, cut=True)

    async def _page(self, request: Request, *, cut: bool) -> Response:
        story = await self.story(request)
        if story is None:
            return self.not_found()
        number = _step(request.query_params.get("step"), story.last)
        if number is None:
            return self.not_found()
        token = str(request.path_params["token"])
        rendered = await self.pages.get(
            (story.game_id, number, cut),
            lambda: asyncio.to_thread(
                render_step,
                self.env,
                story,
                number,
                token=token,
                cut=cut,
                public_url=self.public_url,
                finished_at=story.finished_at,
                noindex=self.noindex,
            ),
        )
        return _cached(request, rendered, "text/html; charset=utf-8")

    async def board(self, request: Request) -> Response:
        story = await self.story(request)
        number = None if story is None else _step(request.path_params.get("step"), story.last)
        if story is None or number is None:
            return self.not_found()
        return await self._picture(request, story, number)

    async def final(self, request: Request) -> Response:
        story = await self.story(request)
        if story is None:
            return self.not_found()
        return await self._picture(request, story, story.last)

    async def _picture(self, request: Request, story: Story, number: int) -> Response:
        async def draw() -> Rendered:
            data = await asyncio.to_thread(step_png, story, number)
            return Rendered(data, etag_of(data))

        rendered = await self.pictures.get((story.game_id, number), draw)
        return _cached(request, rendered, "image/png")

    async def static_file(self, request: Request) -> Response:
        """Only the files read at start-up, by name: no path reaches the disk."""
        found = self.static.get(str(request.path_params.get("name", "")))
        if found is None:
            return self.not_found()
        body, media_type = found
        return _cached(request, Rendered(body, etag_of(body)), media_type)

    async def robots(self, request: Request) -> Response:
        text = "User-agent: *\nAllow: /\n" if not self.noindex else "User-agent: *\nDisallow: /\n"
        return PlainTextResponse(text)

    async def health(self, request: Request) -> Response:
        return PlainTextResponse("ok\n")

    async def anything_else(self, request: Request) -> Response:
        return self.not_found()


def _step(text: object, last: int) -> int | None:
    """A step number within the game, from the address; None for anything else."""
    if text is None:
        return 0
    value = str(text)
    if not value.isdigit() or len(value) > 6:
        return None
    number = int(value)
    return number if number <= last else None


def _cached(request: Request, rendered: Rendered, media_type: str) -> Response:
    headers = {"ETag": rendered.etag, "Cache-Control": CACHE_CONTROL}
    asked = request.headers.get("if-none-match", "")
    if rendered.etag in (tag.strip() for tag in asked.split(",")):
        return Response(status_code=304, headers=headers)
    return Response(rendered.body, media_type=media_type, headers=headers)


def create_app(settings: Settings, database: Database) -> ASGIApp:
    """The application over `database`, which it closes when the server stops."""
    pages = GamePages(settings, database)
    routes = [
        Route("/g/{token}", pages.page),
        Route("/g/{token}/cut", pages.cut),
        Route("/g/{token}/board/{step:int}.png", pages.board),
        Route("/g/{token}/final.png", pages.final),
        Route("/static/{name}", pages.static_file),
        Route("/robots.txt", pages.robots),
        Route("/healthz", pages.health),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await database.close()

    app = Starlette(routes=routes, exception_handlers={404: _missing(pages)}, lifespan=lifespan)
    return guarded(app, RateLimit(settings.web_requests_per_minute), pages.too_many, pages.noindex)


def _missing(pages: GamePages) -> Callable[[Request, Exception], Awaitable[Response]]:
    async def handler(request: Request, exc: Exception) -> Response:
        return pages.not_found()

    return handler
