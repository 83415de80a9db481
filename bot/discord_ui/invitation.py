"""The link that invites the bot to a server, with exactly the permissions it checks.

A host's first step after creating the application: the scopes `bot` and
`applications.commands`, and the permissions a game (a public thread) and a practice
(a private one) check before they start (`errors.GAME_PERMISSIONS`,
`errors.PRACTICE_PERMISSIONS`). Seeing channels is left to the server, which usually
grants it to everyone; Manage Events is asked only in the second link, for servers
that will plan game nights.
"""

from __future__ import annotations

import base64
import binascii

import discord

from bot.discord_ui.errors import GAME_PERMISSIONS, PRACTICE_PERMISSIONS

AUTHORIZE = "https://discord.com/oauth2/authorize"
SCOPES = "bot+applications.commands"


def needed_permissions(nights: bool = False) -> discord.Permissions:
    """What games and practice games check, with Manage Events when `nights`."""
    names = {name for name, _ in (*GAME_PERMISSIONS, *PRACTICE_PERMISSIONS)} - {"view_channel"}
    permissions = discord.Permissions(**dict.fromkeys(names, True))
    permissions.manage_events = nights
    return permissions


def invitation_link(application_id: int, nights: bool = False) -> str:
    """The OAuth2 link that adds the bot to a server the person manages."""
    permissions = needed_permissions(nights).value
    return f"{AUTHORIZE}?client_id={application_id}&scope={SCOPES}&permissions={permissions}"


def application_id_of(token: str) -> int | None:
    """The application a bot token belongs to, read off the token without asking Discord:
    its first part is the bot user's id in base64, and a bot user's id is its
    application's. None for something that is not shaped like a bot token."""
    first = token.split(".", 1)[0]
    try:
        decoded = base64.b64decode(first + "=" * (-len(first) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None
    text = decoded.decode("ascii", errors="replace")
    return int(text) if text.isdigit() and 15 <= len(text) <= 20 else None
