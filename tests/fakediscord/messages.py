"""How Discord turns a send or edit request into the next version of a message.

Follows API v10 semantics: on an edit, absent keys keep their value; an `attachments` array,
when present, is the complete list after the edit (existing ids are kept, small ids point at
the uploaded `files[n]` parts); components get numeric ids like Discord assigns.
"""

from __future__ import annotations

import copy
import mimetypes
from collections.abc import Callable
from datetime import datetime
from typing import Any

from .protocol import BOT_SETTABLE_FLAGS, form_error
from .records import FakeAttachment, MessageVersion, Upload, walk_components
from .validation import check_message

Json = dict[str, Any]


def next_version(
    body: Json,
    uploads: list[Upload],
    *,
    previous: MessageVersion | None,
    system_flags: int,
    new_id: Callable[[], int],
    at: datetime,
    check: bool = True,
) -> MessageVersion:
    """The message as it stands after applying `body` (a send when `previous` is None).

    `system_flags` are the flags Discord manages itself (ephemeral, loading); the bot's own
    settable flags come from the body or carry over from the previous version.
    """
    if "flags" in body and body["flags"] is not None:
        own_flags = int(body["flags"]) & BOT_SETTABLE_FLAGS
    else:
        own_flags = previous.flags & BOT_SETTABLE_FLAGS if previous else 0
    version = MessageVersion(
        content=_pick(body, "content", previous.content if previous else "") or "",
        embeds=_pick(body, "embeds", previous.embeds if previous else []) or [],
        components=_with_ids(_pick(body, "components", previous.components if previous else [])),
        attachments=_attachments(body, uploads, previous, new_id),
        flags=own_flags | system_flags,
        at=at,
    )
    if check:
        check_message(version)
    return version


def _pick(body: Json, key: str, kept: Any) -> Any:
    return copy.deepcopy(body[key]) if key in body else kept


def _with_ids(components: list[Json] | None) -> list[Json]:
    """Give every component a numeric id, as Discord does for those the bot left without."""
    result = copy.deepcopy(components or [])
    used = {c["id"] for c in walk_components(result) if isinstance(c.get("id"), int)}
    next_id = 1
    for component in walk_components(result):
        if not isinstance(component.get("id"), int):
            while next_id in used:
                next_id += 1
            component["id"] = next_id
            used.add(next_id)
    return result


def _attachments(
    body: Json, uploads: list[Upload], previous: MessageVersion | None, new_id: Callable[[], int]
) -> list[FakeAttachment]:
    by_index = {upload.index: upload for upload in uploads}
    kept = previous.attachments if previous else []
    if "attachments" not in body:
        return [*kept, *(_attach(upload, upload.filename, None, new_id) for upload in uploads)]
    result: list[FakeAttachment] = []
    for number, entry in enumerate(body["attachments"] or []):
        wanted = int(entry["id"])
        existing = next((a for a in kept if a.id == wanted), None)
        if existing is not None:
            result.append(existing)
        elif wanted in by_index:
            filename = entry.get("filename") or by_index[wanted].filename
            result.append(_attach(by_index[wanted], filename, entry.get("description"), new_id))
        else:
            raise form_error(f"attachments.{number}.id", f"Unknown attachment or file {wanted}.")
    return result


def _attach(
    upload: Upload, filename: str, description: str | None, new_id: Callable[[], int]
) -> FakeAttachment:
    content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    return FakeAttachment(
        id=new_id(),
        filename=filename,
        data=upload.data,
        content_type=content_type,
        description=description,
    )
