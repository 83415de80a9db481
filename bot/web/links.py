"""The bot's side of the pages: the links its reveal and `/lockdown history` give.

The bot does not serve pages; it signs each finished game's address with the
same `WEB_SECRET` as `lockdown-web`, under `WEB_PUBLIC_URL`. Without both, no
link is given anywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from bot.settings import Settings
from bot.storage.database import Database
from bot.storage.page_shares import PageShares
from bot.storage.web_pages import WebPages
from bot.table.game_pages import GamePages
from bot.web.addresses import page_url


def page_links(settings: Settings) -> Callable[[int], str] | None:
    """Each game's page address, if the operators set the pages up."""
    if settings.web_public_url is None or settings.web_secret is None:
        return None
    secret = settings.web_secret.get_secret_value().encode("utf-8")
    return partial(page_url, settings.web_public_url, secret)


def game_pages(settings: Settings, database: Database) -> GamePages:
    return GamePages(WebPages(database), PageShares(database), page_links(settings))
