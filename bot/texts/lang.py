"""Which language a reader gets: the server's choice first, else their own Discord locale."""

from __future__ import annotations

from bot.texts.catalog import FALLBACK, LANGUAGES
from bot.texts.pseudo import PSEUDO


def locale_language(locale: str | None) -> str | None:
    """The catalog language of a Discord locale (`fr`, `es-ES` and `es-419` -> `es`), None
    when we do not speak it: the language part alone picks the catalog, so a new catalog
    folder is all a new language needs. `en-XA`, which no Discord client sends, is the
    pseudo-locale of the tests."""
    if not locale:
        return None
    if locale.strip() == PSEUDO:
        return PSEUDO
    code = locale.strip().lower().split("-")[0]
    return code if code in LANGUAGES else None


def choose_lang(server_lang: str | None, user_locale: str | None) -> str:
    """The catalog language for one reader.

    A server that set a language we speak gets it everywhere (its channel log
    must read the same for everybody). Otherwise a Discord locale in a language
    we speak (`fr`, `es-419`, any regional form) reads that language, anything
    else English. Plain strings in, so this is tested without discord.
    """
    if server_lang in LANGUAGES or server_lang == PSEUDO:
        return server_lang
    return locale_language(user_locale) or FALLBACK


# What the command line's `--lang` takes: every catalog language, and the pseudo-locale
# to look for text the catalogs miss.
TERMINAL_LANGUAGES = (*LANGUAGES, PSEUDO)
