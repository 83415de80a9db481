"""Which language a reader gets: the server's choice first, else their own Discord locale."""

from __future__ import annotations

from bot.texts.catalog import FALLBACK, LANGUAGES
from bot.texts.pseudo import PSEUDO


def locale_language(locale: str | None) -> str | None:
    """The catalog language of a Discord locale (`fr`, `fr-CA` -> `fr`), None when we do not
    speak it. Every language of `LANGUAGES` is chosen this way, so adding one needs no
    code here. `en-XA`, which no Discord client sends, is the pseudo-locale of the tests."""
    if not locale:
        return None
    if locale.strip() == PSEUDO:
        return PSEUDO
    code = locale.strip().lower().split("-")[0]
    return code if code in LANGUAGES else None


def choose_lang(server_lang: str | None, user_locale: str | None) -> str:
    """The catalog language for one reader.

    A server that set a language we speak gets it everywhere (its channel log
    must read the same for everybody). Otherwise a Discord locale we speak (`fr`,
    or a regional form such as `fr-CA`) reads in its language, anything else
    English. Plain strings in, so this is tested without discord.
    """
    if server_lang in LANGUAGES or server_lang == PSEUDO:
        return server_lang
    return locale_language(user_locale) or FALLBACK


# What the command line's `--lang` takes: every catalog language, and the pseudo-locale
# to look for text the catalogs miss.
TERMINAL_LANGUAGES = (*LANGUAGES, PSEUDO)
