"""Which language a reader gets: the server's choice first, else their own Discord locale."""

from __future__ import annotations

from bot.texts.catalog import FALLBACK, LANGUAGES


def choose_lang(server_lang: str | None, user_locale: str | None) -> str:
    """The catalog language for one reader.

    A server that set a language we speak gets it everywhere (its channel log
    must read the same for everybody). Otherwise a Discord locale whose
    language we speak (`de`, or a regional form such as `fr-CA` or `es-ES`)
    reads that language, anything else English. Plain strings in, so this is
    tested without discord.
    """
    if server_lang in LANGUAGES:
        return server_lang
    code = (user_locale or "").strip().lower().split("-")[0]
    return code if code in LANGUAGES else FALLBACK
