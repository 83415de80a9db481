"""Which language a reader gets: the server's choice first, else their own Discord locale."""

from __future__ import annotations

from bot.texts.catalog import FALLBACK, LANGUAGES


def choose_lang(server_lang: str | None, user_locale: str | None) -> str:
    """The catalog language for one reader.

    A server that set a language we speak gets it everywhere (its channel log
    must read the same for everybody). Otherwise a Discord locale in French
    (`fr`, or a regional form such as `fr-CA`) reads French, anything else
    English. Plain strings in, so this is tested without discord.
    """
    if server_lang in LANGUAGES:
        return server_lang
    if user_locale and user_locale.strip().lower().split("-")[0] == "fr":
        return "fr"
    return FALLBACK
