"""Choosing a reader's language: the server's setting first, then their Discord locale."""

from __future__ import annotations

import pytest

from bot.cli.simulate_text import environment_lang
from bot.texts import choose_lang


@pytest.mark.parametrize(
    ("server", "locale", "expected"),
    [
        ("fr", "en-US", "fr"),  # the server's choice wins over the reader's locale
        ("en", "fr", "en"),
        ("es", "fr", "es"),
        (None, "fr", "fr"),
        (None, "fr-CA", "fr"),
        (None, "FR", "fr"),
        (None, "es-ES", "es"),  # Spain and Latin America both read the one Spanish
        (None, "es-419", "es"),
        (None, "en-GB", "en"),
        (None, "de", "de"),  # every catalog language, by the locale's language part
        (None, "pt-BR", "en"),
        (None, None, "en"),
        ("", "fr", "fr"),  # an unset (blank) setting counts as no setting
        ("pt", "fr", "fr"),  # a language we do not speak counts as no setting
        ("de", "fr", "de"),
        (None, "", "en"),
        ("pt", "es-419", "es"),
        # The pseudo-locale of the tests: a locale no Discord client sends.
        (None, "en-XA", "en-XA"),
        ("en-XA", "fr", "en-XA"),
    ],
)
def test_choose_lang(server: str | None, locale: str | None, expected: str) -> None:
    assert choose_lang(server, locale) == expected


@pytest.mark.parametrize(
    ("lang_variable", "expected"),
    [("es_MX.UTF-8", "es"), ("es_ES", "es"), ("fr_FR.UTF-8", "fr"), ("C.UTF-8", "en"), ("", "en")],
)
def test_the_terminal_reads_its_locale_the_same_way(
    monkeypatch: pytest.MonkeyPatch, lang_variable: str, expected: str
) -> None:
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", lang_variable)
    assert environment_lang() == expected
