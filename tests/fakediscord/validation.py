"""Discord's limits on what a bot may send, so a test fails where the real API would.

Only the limits a game master is likely to hit are checked: text lengths, embed and
component counts, custom_id uniqueness, modal shapes. A breach raises the same
400 'Invalid Form Body' (or 'Cannot send an empty message') Discord answers with.
"""

from __future__ import annotations

from typing import Any

from .protocol import (
    SELECT_TYPES,
    ComponentType,
    ContractViolation,
    ErrorCode,
    MessageFlag,
    contract_error,
)
from .records import MessageVersion, walk_components

Json = dict[str, Any]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
EMBED_LIMITS = {"title": 256, "description": 4096}
MAX_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR = 256
MAX_ROWS = 5
MAX_ROW_ITEMS = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_MODAL_TITLE = 45
MAX_MODAL_COMPONENTS = 5
MAX_TEXT_DISPLAY = 4000
LINK_STYLE = 5
PREMIUM_STYLE = 6


def _too_long(path: str, value: str | None, limit: int) -> None:
    if value is not None and len(value) > limit:
        raise contract_error(path, f"Must be {limit} or fewer in length (got {len(value)}).")


def check_message(version: MessageVersion) -> None:
    if not (version.content or version.embeds or version.components or version.attachments):
        raise ContractViolation("body", "Cannot send an empty message", ErrorCode.EMPTY_MESSAGE)
    _too_long("content", version.content, MAX_CONTENT)
    if version.flags & MessageFlag.IS_COMPONENTS_V2:
        if version.content or version.embeds:
            raise contract_error("content", "Cannot use content or embeds with IS_COMPONENTS_V2.")
    else:
        _check_rows(version.components)
    _check_embeds(version.embeds)
    _check_components(version.components)


def _check_embeds(embeds: list[Json]) -> None:
    if len(embeds) > MAX_EMBEDS:
        raise contract_error("embeds", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for index, embed in enumerate(embeds):
        path = f"embeds.{index}"
        for key, limit in EMBED_LIMITS.items():
            _too_long(f"{path}.{key}", embed.get(key), limit)
            total += len(embed.get(key) or "")
        fields = embed.get("fields", [])
        if len(fields) > MAX_FIELDS:
            raise contract_error(f"{path}.fields", f"Must be {MAX_FIELDS} or fewer in length.")
        for number, field in enumerate(fields):
            for key, limit in (("name", MAX_FIELD_NAME), ("value", MAX_FIELD_VALUE)):
                text = field.get(key)
                if not text:
                    raise contract_error(f"{path}.fields.{number}.{key}", "This field is required")
                _too_long(f"{path}.fields.{number}.{key}", text, limit)
                total += len(text)
        footer = (embed.get("footer") or {}).get("text")
        author = (embed.get("author") or {}).get("name")
        _too_long(f"{path}.footer.text", footer, MAX_FOOTER)
        _too_long(f"{path}.author.name", author, MAX_AUTHOR)
        total += len(footer or "") + len(author or "")
    if total > MAX_EMBED_TOTAL:
        raise contract_error("embeds", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}")


def _check_rows(components: list[Json]) -> None:
    """Without components v2, the top level holds up to 5 action rows of 5 buttons or 1 select."""
    if len(components) > MAX_ROWS:
        raise contract_error("components", f"Must be {MAX_ROWS} or fewer in length.")
    for index, row in enumerate(components):
        if row.get("type") != ComponentType.ACTION_ROW:
            raise contract_error(f"components.{index}", "Top-level components must be action rows.")
        items = row.get("components", [])
        selects = [c for c in items if c.get("type") in SELECT_TYPES]
        if not items or len(items) > MAX_ROW_ITEMS or (selects and len(items) > 1):
            raise contract_error(
                f"components.{index}.components",
                "An action row holds 1 to 5 buttons, or a single select.",
            )


def _check_components(components: list[Json]) -> None:
    seen: set[str] = set()
    for component in walk_components(components):
        kind = component.get("type")
        custom_id = component.get("custom_id")
        if custom_id is not None:
            _too_long("components.custom_id", custom_id, MAX_CUSTOM_ID)
            if custom_id in seen:
                raise contract_error("components.custom_id", f"Duplicate custom_id {custom_id!r}.")
            seen.add(custom_id)
        if kind == ComponentType.BUTTON:
            _too_long("components.label", component.get("label"), MAX_BUTTON_LABEL)
            style = component.get("style")
            if style == LINK_STYLE:
                if custom_id is not None or not component.get("url"):
                    raise contract_error("components", "A link button has a url and no custom_id.")
            elif style != PREMIUM_STYLE and (custom_id is None or component.get("url")):
                raise contract_error("components", "A button needs a custom_id and no url.")
        elif kind in SELECT_TYPES:
            _too_long("components.placeholder", component.get("placeholder"), MAX_PLACEHOLDER)
            options = component.get("options", [])
            if kind == ComponentType.STRING_SELECT and not 1 <= len(options) <= MAX_SELECT_OPTIONS:
                raise contract_error("components.options", "A select holds 1 to 25 options.")
            for option in options:
                _too_long("components.options.label", option.get("label"), MAX_OPTION_TEXT)
                _too_long("components.options.value", option.get("value"), MAX_OPTION_TEXT)
        elif kind == ComponentType.TEXT_DISPLAY:
            _too_long("components.content", component.get("content"), MAX_TEXT_DISPLAY)


def check_modal(data: Json) -> None:
    _too_long("data.title", data.get("title"), MAX_MODAL_TITLE)
    _too_long("data.custom_id", data.get("custom_id"), MAX_CUSTOM_ID)
    if not data.get("title") or not data.get("custom_id"):
        raise contract_error("data", "A modal needs a title and a custom_id.")
    if not 1 <= len(data.get("components", [])) <= MAX_MODAL_COMPONENTS:
        raise contract_error("data.components", "A modal holds 1 to 5 components.")
    _check_components(data["components"])
