"""What the bot takes from discord.py beyond its documented API, asserted in one place.

discord.py offers no public way to queue, order or merge a client's REST requests,
nor to send a scheduled event's recurrence, so the request budget
(`bot.discord_http.client`, whose docstring lists its hook) and the game nights'
events (`bot.discord_ui.nights.events`) rest on undocumented names; everything else
answers through the public API (`bot.discord_ui.reply`). The version is pinned in
`pyproject.toml`; an upgrade that renames, moves or reshapes any of these names fails
here, in one obvious test, never in a running bot.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import re
import textwrap
import tomllib
from contextvars import ContextVar
from pathlib import Path

import discord
from discord.ext import commands
from discord.http import HTTPClient, Ratelimit, Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.discord_http.client import MESSAGE_EDIT, HeaderProbe
from tests.syntax import parse

REPO = Path(__file__).resolve().parents[2]
# The private attributes of discord.py's objects that the bot reads or writes.
PRIVATE = {"_buckets", "_HTTPClient__session"}
# The undocumented modules it imports from, with what.
UNDOCUMENTED_IMPORTS = {
    ("discord.http", "Route"),
    ("discord.webhook.async_", "async_context"),
}


def parameters(function: object) -> list[str]:
    return list(inspect.signature(function).parameters)  # type: ignore[arg-type]


def test_the_version_is_pinned_to_the_minor_release_checked_here() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    (pin,) = [d for d in project["project"]["dependencies"] if d.startswith("discord.py")]
    found = re.fullmatch(r"discord\.py>=(\d+)\.(\d+),<(\d+)\.(\d+)", pin)
    assert found is not None, pin
    low_major, low_minor, high_major, high_minor = map(int, found.groups())
    assert (high_major, high_minor) == (low_major, low_minor + 1), "one minor release only"
    assert discord.version_info[:2] == (low_major, low_minor)


def test_the_bot_touches_no_private_name_this_test_does_not_cover() -> None:
    """Every `x._name` (not `self`'s or `cls`'s) and every import from an undocumented
    module of discord.py, in the modules that import discord."""
    private: set[str] = set()
    imported: set[tuple[str, str]] = set()
    for path in (REPO / "bot").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        if not re.search(r"^(import|from) discord\b", source, re.MULTILINE):
            continue
        for node in ast.walk(parse(source)):
            if isinstance(node, ast.Attribute) and re.match(r"_[a-zA-Z]", node.attr):
                owner = node.value
                if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                    private.add(node.attr)
            module = node.module or "" if isinstance(node, ast.ImportFrom) else ""
            if module.startswith("discord.") and module != "discord.ext":
                assert isinstance(node, ast.ImportFrom)
                imported |= {(module, alias.name) for alias in node.names}
    assert private == PRIVATE
    assert imported == UNDOCUMENTED_IMPORTS


def test_the_http_client_has_what_the_budget_replaces_and_reads() -> None:
    assert inspect.iscoroutinefunction(HTTPClient.request)
    assert parameters(HTTPClient.request) == ["self", "route", "files", "form", "kwargs"]
    assert parameters(HTTPClient.get_ratelimit) == ["self", "key"]
    loop = asyncio.new_event_loop()
    try:
        http = HTTPClient(loop)
        assert isinstance(http._buckets, dict)
        assert "_HTTPClient__session" in vars(http)  # filled in by `static_login`
        assert http.proxy is None
        assert http.proxy_auth is None
    finally:
        loop.close()


def test_the_header_probe_offers_all_that_discord_py_asks_of_a_bucket() -> None:
    """`HTTPClient.request` uses what `get_ratelimit` returns as an async context manager
    and reads or calls only these names on it; the probe has each, with its shape."""
    source = textwrap.dedent(inspect.getsource(HTTPClient.request))
    tree = parse(source)
    used = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "ratelimit"
    }
    assert used == {"update", "remaining"}
    assert "async with ratelimit:" in source
    assert "self.get_ratelimit(key)" in source
    assert "self._buckets[" in source  # where a bucket is filed, hence the clearing
    assert parameters(HeaderProbe.update) == parameters(Ratelimit.update)
    assert inspect.signature(Ratelimit.update).parameters["use_clock"].kind.name == "KEYWORD_ONLY"
    assert isinstance(HeaderProbe.remaining, int)
    assert hasattr(HeaderProbe, "__aenter__")
    assert hasattr(HeaderProbe, "__aexit__")


def test_a_route_has_what_the_budget_reads() -> None:
    route = Route(
        "PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=1, message_id=2
    )
    assert route.method == "PATCH"
    assert route.key == MESSAGE_EDIT
    assert route.url.endswith("/channels/1/messages/2")
    assert route.path == "/channels/{channel_id}/messages/{message_id}"
    assert route.major_parameters == "1"
    assert route.webhook_token is None


def test_the_webhook_adapter_edits_an_original_response_as_the_carrier_calls_it() -> None:
    assert isinstance(async_context, ContextVar)
    assert isinstance(async_context.get(), AsyncWebhookAdapter)
    assert parameters(AsyncWebhookAdapter.edit_original_interaction_response) == [
        "self",
        "application_id",
        "token",
        "session",
        "proxy",
        "proxy_auth",
        "payload",
        "multipart",
        "files",
    ]


def test_the_http_client_has_the_scheduled_event_methods_game_nights_call() -> None:
    shapes = {
        "get_scheduled_event": ["self", "guild_id", "guild_scheduled_event_id", "with_user_count"],
        "edit_scheduled_event": [
            "self",
            "guild_id",
            "guild_scheduled_event_id",
            "reason",
            "payload",
        ],
        "get_scheduled_event_users": [
            "self",
            "guild_id",
            "guild_scheduled_event_id",
            "limit",
            "with_member",
            "before",
            "after",
        ],
        "delete_scheduled_event": ["self", "guild_id", "guild_scheduled_event_id", "reason"],
    }
    for name, shape in shapes.items():
        assert parameters(getattr(HTTPClient, name)) == shape, name


def test_the_public_api_the_reply_module_rests_on() -> None:
    """Documented, but recent: the per-interaction store, the answer's type, the tree's
    class and its check."""
    assert "extras" in discord.Interaction.__slots__
    assert isinstance(discord.InteractionResponse.type, property)
    assert "tree_cls" in parameters(commands.Bot.__init__)
    assert parameters(discord.app_commands.CommandTree.interaction_check) == [
        "self",
        "interaction",
    ]
