"""Merged edits leave a message as the two edits in a row would have."""

from __future__ import annotations

import io
import json
from typing import Any

import discord

from bot.discord_http.merge import arguments, body_of, merged


def multipart(payload: dict[str, Any], *names: str) -> dict[str, Any]:
    files = [discord.File(io.BytesIO(b"png"), filename=name) for name in names]
    return arguments(payload, files)


def test_the_later_fields_win_and_the_others_stay() -> None:
    older = {"json": {"content": "1 vote", "embeds": [{"title": "board"}]}}
    newer = {"json": {"content": "2 votes"}}
    assert merged(older, newer) == {"json": {"content": "2 votes", "embeds": [{"title": "board"}]}}


def test_a_newer_edit_naming_its_attachments_replaces_the_older_files() -> None:
    older = multipart({"attachments": [{"id": 0, "filename": "a.png"}]}, "a.png")
    newer = multipart({"attachments": [{"id": 0, "filename": "b.png"}]}, "b.png")
    result = merged(older, newer)
    assert result is not None
    assert [f.filename for f in result["files"]] == ["b.png"]
    body = body_of(result)
    assert body is not None
    assert body.payload["attachments"] == [{"id": 0, "filename": "b.png"}]


def test_an_edit_without_attachments_keeps_the_older_edits_picture() -> None:
    older = multipart({"embeds": [{"t": 1}], "attachments": [{"id": 0}]}, "board.png")
    newer = {"json": {"content": "lines"}}
    result = merged(older, newer)
    assert result is not None
    form = {part["name"]: part for part in result["form"]}
    assert json.loads(form["payload_json"]["value"]) == {
        "embeds": [{"t": 1}],
        "attachments": [{"id": 0}],
        "content": "lines",
    }
    assert form["files[0]"]["filename"] == "board.png"


def test_removing_the_attachments_drops_the_files() -> None:
    older = multipart({"attachments": [{"id": 0}]}, "board.png")
    assert merged(older, {"json": {"attachments": []}}) == {"json": {"attachments": []}}


def test_requests_with_other_arguments_are_not_merged() -> None:
    assert merged({"json": {"a": 1}}, {"json": {"a": 2}, "reason": "audit"}) is None
    assert merged({"json": {"a": 1}}, {}) is None
    assert body_of({"form": [{"name": "files[0]", "value": b""}]}) is None
