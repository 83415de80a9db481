"""The catalog checker (`python -m bot.texts.check`) fails on each kind of problem a
translator can make, planted in a copy of the catalogs, and passes on the shipped ones."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from bot.texts.catalog import DATA_DIR, LANGUAGES
from bot.texts.check import check, main

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "i18n"


@pytest.fixture
def catalogs(tmp_path: Path) -> Path:
    """A copy of the shipped catalogs, English and French, to plant problems in."""
    for lang in LANGUAGES:
        shutil.copytree(Path(str(DATA_DIR / lang)), tmp_path / lang)
    return tmp_path


def edit(catalogs: Path, lang: str, feature: str, **changes: str | None) -> None:
    """Set (or, with None, delete) keys of one feature file; `__` in a name stands for `.`."""
    path = catalogs / lang / f"{feature}.json"
    texts = json.loads(path.read_text("utf-8"))
    for name, text in changes.items():
        key = name.replace("__", ".")
        if text is None:
            del texts[key]
        else:
            texts[key] = text
    path.write_text(json.dumps(texts, ensure_ascii=False), "utf-8")


def test_the_shipped_catalogs_pass(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{lang}: no problems" for lang in sorted(LANGUAGES)
    ]


def test_a_missing_key_fails(catalogs: Path) -> None:
    edit(catalogs, "fr", "lobby", lobby__started=None)
    assert check(catalogs)["fr"] == ["lacks 'lobby.started'"]
    assert main([str(catalogs)]) == 1


def test_an_extra_key_fails(catalogs: Path) -> None:
    edit(catalogs, "fr", "lobby", lobby__gone="Partie")
    assert check(catalogs)["fr"] == ["has 'lobby.gone', which English lacks"]


def test_a_wrong_placeholder_fails(catalogs: Path) -> None:
    edit(catalogs, "fr", "board", board__waiting_for="On attend\u00a0: {noms}.")
    assert check(catalogs)["fr"] == [
        "'board.waiting_for': placeholders ['noms'], English has ['names']"
    ]
    assert main([str(catalogs)]) == 1


def test_a_plural_form_the_language_needs_and_lacks_fails(catalogs: Path) -> None:
    """French's CLDR rules have `many` (a million): a count without it is reported."""
    edit(catalogs, "fr", "words", count__card_many=None)
    assert check(catalogs)["fr"] == ["count.card lacks plural forms: many"]


def test_a_plural_form_the_language_does_not_have_fails(catalogs: Path) -> None:
    edit(catalogs, "fr", "words", count__card_few="{count} cartes")
    assert check(catalogs)["fr"] == [
        "'count.card_few': fr has no plural form 'few' (it has many, one, other)"
    ]


def test_a_text_over_its_discord_limit_fails(catalogs: Path) -> None:
    edit(catalogs, "fr", "game", action__done="Terminé" * 12)
    edit(catalogs, "en", "commands", command__new__name="New Game")
    assert check(catalogs) == {
        "en": ["'command.new.name': 'New Game' is no Discord name (1-32, lowercase)"],
        "fr": ["'action.done' is 84 characters, over the 80 of a button label"],
        "de": [],
        "es": [],
    }


def test_a_new_language_folder_is_checked_and_asked_to_be_registered(catalogs: Path) -> None:
    shutil.copytree(catalogs / "fr", catalogs / "pl")
    report = check(catalogs)["pl"]
    assert "not in LANGUAGES (bot/texts/catalog.py): add 'pl' there" in report
    # Polish counts in one, few, many and other; French's forms do not fit it.
    assert "count.card lacks plural forms: few" in report


def test_the_plural_layout_script_converts_a_folder_once(tmp_path: Path) -> None:
    """`tools/i18n/plurals_to_i18next.py` renames a catalog of the old layout, and
    a second run changes nothing (it converts catalogs written before the layout changed)."""
    spec = importlib.util.spec_from_file_location("plurals", TOOLS / "plurals_to_i18next.py")
    assert spec is not None
    assert spec.loader is not None
    plurals = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plurals)
    old = {
        "list.and": "{head} y {last}",
        "count.free_spot.one": "{count} sitio",
        "count.free_spot.many": "{count} de sitios",
    }
    path = tmp_path / "es" / "words.json"
    path.parent.mkdir()
    path.write_text(json.dumps(old, ensure_ascii=False, indent=2) + "\n", "utf-8")
    assert plurals.convert(tmp_path) == 2
    converted = path.read_text("utf-8")
    assert list(json.loads(converted)) == [
        "list.and",
        "count.free_spot_one",
        "count.free_spot_many",
    ]
    assert plurals.convert(tmp_path) == 0
    assert path.read_text("utf-8") == converted
