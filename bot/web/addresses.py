"""A game page's address: the game's id signed with the operators' secret.

`WEB_SECRET` signs each id with HMAC-SHA-256 cut to 128 bits, so an address
cannot be guessed or walked (game 12's tells nothing of game 13's), and no
column or migration is needed: the bot that posts the link and every
`lockdown-web` copy derive the same address from the same setting. The token
is 32 URL-safe characters, 8 bytes of id then 16 of signature.

`game_of` never answers early: a malformed token and a forged one both read as
game 0, which does not exist, so the page costs the same lookup either way.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re

ID_BYTES = 8
MAC_BYTES = 16
TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")
# What the signature is for, so the secret signs nothing else the same way.
PURPOSE = b"lockdown game page\x00"
NO_GAME = 0


def _mac(secret: bytes, game_id: int) -> bytes:
    message = PURPOSE + game_id.to_bytes(ID_BYTES, "big")
    return hmac.new(secret, message, hashlib.sha256).digest()[:MAC_BYTES]


def game_token(secret: bytes, game_id: int) -> str:
    """The address token of `game_id` (a positive id)."""
    raw = game_id.to_bytes(ID_BYTES, "big") + _mac(secret, game_id)
    return base64.urlsafe_b64encode(raw).decode("ascii")


def game_of(secret: bytes, token: str) -> int:
    """The game a token was signed for; `NO_GAME` for anything else."""
    if not TOKEN.fullmatch(token):
        return NO_GAME
    try:
        raw = base64.urlsafe_b64decode(token)
    except (binascii.Error, ValueError):
        return NO_GAME
    game_id = int.from_bytes(raw[:ID_BYTES], "big")
    valid = hmac.compare_digest(raw[ID_BYTES:], _mac(secret, game_id))
    return game_id if valid and game_id > 0 else NO_GAME


def page_url(public_url: str, secret: bytes, game_id: int) -> str:
    """The page's full address, for a link in Discord."""
    return f"{public_url}/g/{game_token(secret, game_id)}"
