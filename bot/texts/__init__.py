"""Every player-facing text, in each language we speak, from one message catalog.

`t(lang, key, **params)` is what the table, the Discord layer and the
terminal call; `narrate.describe` turns a core event into a line. No discord
here: the terminal table and the tests use the same texts.
"""

from __future__ import annotations

from functools import cache

from bot.texts.catalog import Catalog, CatalogError, MissingText, Translate, plural_form
from bot.texts.lang import choose_lang
from lockdown_core import Ruleset

__all__ = [
    "Catalog",
    "CatalogError",
    "MissingText",
    "Translate",
    "card_help",
    "catalog",
    "choose_lang",
    "plural_form",
    "t",
]


@cache
def catalog() -> Catalog:
    """The catalog of `bot/texts/catalogs`, read and validated on first use, then kept."""
    return Catalog.load()


def t(lang: str, key: str, **params: object) -> str:
    """The text of `key` in `lang` (English if we do not speak it), filled with `params`."""
    return catalog().text(lang, key, **params)


def card_help(lang: str, card: str, rules: Ruleset) -> str:
    """A card's help line, with the numbers this game's ruleset gives it.

    The Keys of the truck are worth `keys_points` each (2 under Spare keys,
    R11), so their help says the game's own number, in the language's plural.
    """
    points = catalog().count(lang, "point", rules.keys_points)
    return t(lang, f"card.{card}.help", points=points)
