"""Every text a Discord reader sees, as the fake Discord holds it, for the pseudo-locale tests."""

from __future__ import annotations

import re
from collections.abc import Iterator

from tests.fakediscord import FakeDiscord
from tests.fakediscord.records import MessageVersion, walk_components

# Where a composed label is cut to Discord's limit (80 or 100 characters).
LABELS = frozenset({"component label", "select option", "select option description"})
# Discord markup that is no word: mentions, channels, emoji, timestamps; and links.
_MARKUP = re.compile(r"<[@#:a-z]?[^<>\s]*>|https?://\S+")


def version_texts(version: MessageVersion) -> Iterator[tuple[str, str]]:
    """(where, text) for each text of one version of a message."""
    yield "content", version.content
    for embed in version.embeds:
        yield "embed title", embed.get("title", "")
        yield "embed description", embed.get("description", "")
        yield "embed author", embed.get("author", {}).get("name", "")
        yield "embed footer", embed.get("footer", {}).get("text", "")
        for field in embed.get("fields", []):
            yield "field name", field.get("name", "")
            yield "field value", field.get("value", "")
    for component in walk_components(version.components):
        for key in ("label", "placeholder", "content"):
            yield f"component {key}", component.get(key) or ""
        for option in component.get("options", []):
            yield "select option", option.get("label", "")
            yield "select option description", option.get("description") or ""
    for attachment in version.attachments:
        yield "alt text", attachment.description or ""


def seen_texts(fake: FakeDiscord) -> Iterator[tuple[str, str]]:
    """Every text the bot showed: every version of every message (ephemeral ones and
    DMs included), modals, and the names of the threads it opened."""
    for message in fake.world.messages.values():
        for version in message.versions:
            for where, text in version_texts(version):
                if text:
                    yield where, _MARKUP.sub(" ", text)
    for interaction in fake.interactions:
        if interaction.modal:
            for component in walk_components([interaction.modal]):
                for key in ("title", "label", "placeholder"):
                    if component.get(key):
                        yield f"modal {key}", component[key]
    for thread in fake.threads():
        yield "thread name", thread.name
