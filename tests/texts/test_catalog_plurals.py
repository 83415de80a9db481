"""Plurals and lists come from CLDR (through Babel): a new language needs a catalog, not code."""

from __future__ import annotations

import pytest

from bot.texts import Catalog, CatalogError, catalog, plural_form
from bot.texts.catalog import LANGUAGES, and_list, plural_forms

BASE = {
    "count.card_one": "{count} card",
    "count.card_other": "{count} cards",
    "title": "Lockdown",
}


def with_french(fr: dict[str, str]) -> Catalog:
    """French as given, every other language we speak as English."""
    return Catalog({lang: fr if lang == "fr" else BASE for lang in LANGUAGES})


@pytest.mark.parametrize(
    ("lang", "count", "form"),
    [
        ("en", 0, "other"),
        ("en", 1, "one"),
        ("en", 2, "other"),
        ("fr", 0, "one"),
        ("fr", 1, "one"),
        ("fr", 2, "other"),
        ("fr", 1_000_000, "many"),
        ("de", 0, "other"),
        ("de", 1, "one"),
        ("de", 2, "other"),
        ("es", 0, "other"),
        ("es", 1, "one"),
        ("es", 2, "other"),
        ("es", 1_000_000, "many"),
        # Languages we do not ship: their rules need no code of ours.
        ("pl", 2, "few"),
        ("pl", 5, "many"),
        ("pl", 22, "few"),
        ("ar", 2, "two"),
        ("ja", 1, "other"),
    ],
)
def test_the_form_is_cldrs(lang: str, count: int, form: str) -> None:
    assert plural_form(lang, count) == form


def test_a_form_the_catalog_does_not_write_reads_as_other() -> None:
    """French's `many` (a million) is a CLDR form; a catalog that leaves it out still counts."""
    assert "many" in plural_forms("fr")
    assert with_french(BASE).count("fr", "card", 1_000_000) == "1\u202f000\u202f000 cards"


def test_an_unknown_language_counts_as_english() -> None:
    assert catalog().count("xx", "card", 0) == catalog().count("en", "card", 0) == "0 cards"


def test_a_language_may_hold_the_forms_its_grammar_has() -> None:
    texts = with_french({**BASE, "count.card_many": "{count} de cartes"})
    assert texts.count("fr", "card", 2_000_000) == "2\u202f000\u202f000 de cartes"
    assert texts.count("fr", "card", 3) == "3 cards"


def test_a_form_the_language_does_not_have_is_refused() -> None:
    with pytest.raises(CatalogError, match=r"fr: 'count.card_few' is not a plural form of fr"):
        with_french({**BASE, "count.card_few": "{count} cartes"})


def test_every_language_must_write_other() -> None:
    fr = {key: text for key, text in BASE.items() if key != "count.card_other"}
    with pytest.raises(CatalogError, match=r"fr lacks count.card_other"):
        with_french(fr)


def test_a_plural_key_is_still_checked_for_its_placeholders() -> None:
    with pytest.raises(CatalogError, match="placeholders differ"):
        with_french({**BASE, "count.card_one": "{n} carte"})


def test_a_count_writes_its_number_the_languages_way() -> None:
    """Babel's digits: English groups thousands with a comma, French with a narrow space,
    and French writes a million with its `many` form."""
    assert catalog().count("en", "card", 1_000) == "1,000 cards"
    assert catalog().count("fr", "card", 1_000_000) == "1\u202f000\u202f000 de cartes"


@pytest.mark.parametrize(
    ("lang", "three", "two"),
    [
        ("en", "Ana, Bo, and Cy", "Ana and Bo"),
        ("fr", "Ana, Bo et Cy", "Ana et Bo"),
        # CLDR's patterns, with no catalog text: German and Spanish hold no list words.
        ("de", "Ana, Bo und Cy", "Ana und Bo"),
        ("es", "Ana, Bo y Cy", "Ana y Bo"),
    ],
)
def test_a_list_is_written_the_languages_way(lang: str, three: str, two: str) -> None:
    assert and_list(lang, ["Ana", "Bo", "Cy"]) == three
    assert and_list(lang, ["Ana", "Bo"]) == two
    assert and_list(lang, ["Ana"]) == "Ana"
