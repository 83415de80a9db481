"""Two edits of one message that wait together are sent as one: the later fields win.

A PATCH is a partial update: Discord changes the fields the body names and
keeps the others. So an edit that waits for the budget can absorb the next
edit of the same message by laying the newer body over the older one, and
what Discord shows afterwards is exactly what the two requests in a row would
have left. Files follow the `attachments` field: the newer edit's files when
it names the attachments (it replaces them all), else the older edit's files,
still referenced by the older `attachments` kept in the merged body.

The request arguments are those discord.py's `HTTPClient.request` takes for a
message: `json=` a dict, or `form=` a multipart list whose `payload_json`
part is the body, with `files=` the `discord.File`s it uploads.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# The only request arguments a merge knows how to combine; anything else (an audit-log
# reason, query parameters) keeps the requests apart.
MERGEABLE = frozenset({"json", "form", "files"})


@dataclass(frozen=True)
class Body:
    """A request's JSON body and the files it uploads, in their `files[n]` order."""

    payload: dict[str, Any]
    files: tuple[Any, ...]


def body_of(kwargs: Mapping[str, Any]) -> Body | None:
    """The body of a request's arguments, or None if they cannot be merged."""
    if not kwargs or not set(kwargs) <= MERGEABLE:
        return None
    if "json" in kwargs:
        payload = kwargs["json"]
        return Body(dict(payload), ()) if isinstance(payload, dict) else None
    for part in kwargs.get("form") or ():
        if part.get("name") == "payload_json":
            return Body(json.loads(part["value"]), tuple(kwargs.get("files") or ()))
    return None


def merged(older: Mapping[str, Any], newer: Mapping[str, Any]) -> dict[str, Any] | None:
    """One request's arguments doing what `older` then `newer` would; None if impossible."""
    first, second = body_of(older), body_of(newer)
    if first is None or second is None:
        return None
    payload = {**first.payload, **second.payload}
    files = second.files if "attachments" in second.payload else first.files
    return arguments(payload, files)


def arguments(payload: dict[str, Any], files: Sequence[Any]) -> dict[str, Any]:
    """`HTTPClient.request` arguments for a body, built as discord.py builds them."""
    if not files:
        return {"json": payload}
    form: list[dict[str, Any]] = [
        {"name": "payload_json", "value": json.dumps(payload, separators=(",", ":"))}
    ]
    form += [
        {
            "name": f"files[{index}]",
            "value": file.fp,
            "filename": file.filename,
            "content_type": "application/octet-stream",
        }
        for index, file in enumerate(files)
    ]
    return {"form": form, "files": list(files)}
