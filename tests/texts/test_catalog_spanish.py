"""The Spanish catalog: its words are the glossary's, and it writes Spanish as Spanish does.

`bot/texts/catalogs/es/GLOSSARY.md` chooses each game term once; these tests hold
the catalog to it, to the informal `tú` the glossary picks, to the opening `¿`
and `¡`, and to every plural form CLDR gives Spanish.
"""

from __future__ import annotations

import json
import re

import pytest

from bot.texts import catalog, t
from bot.texts.catalog import DATA_DIR, plural_forms

SPANISH = DATA_DIR / "es"
GLOSSARY = (SPANISH / "GLOSSARY.md").read_text("utf-8")
NAMES = {
    "card.walkie_talkie": "Walkie-talkie",
    "card.energy_drink": "Bebida energética",
    "card.gun": "Pistola",
    "card.tin_can": "Lata de conserva",
    "card.baseball_bat": "Bate de béisbol",
    "card.chainsaw": "Motosierra",
    "card.molotov_cocktail": "Cóctel molotov",
    "card.rotten_meat": "Carne podrida",
    "card.keys_of_the_truck": "Llaves del camión",
    "kind.blocker": "Bloqueador",
    "kind.leader": "Jefe",
    "kind.weeper": "Llorón",
    "kind.useless": "Inútil",
    "location.1": "Baños",
    "location.2": "Tienda de ropa",
    "location.3": "Sala de vigilancia",
    "location.4": "Juguetería",
    "location.5": "Supermercado",
    "location.6": "Aparcamiento",
    "board.cold_storage_title": "Cámara fría",
    "board.martyr": "Mártir",
}


def spanish() -> dict[str, str]:
    texts: dict[str, str] = {}
    for path in SPANISH.iterdir():
        if path.name.endswith(".json"):
            with path.open(encoding="utf-8") as handle:
                texts.update(json.load(handle))
    return texts


@pytest.mark.parametrize(("key", "name"), NAMES.items())
def test_the_game_s_names_are_the_glossary_s(key: str, name: str) -> None:
    assert t("es", key) == name
    assert f"| {name} |" in GLOSSARY, f"{name} is not in the glossary"


def test_spanish_speaks_to_players_with_tu() -> None:
    """The glossary's register: `tú`, never `usted`, and no `vosotros` that Latin
    America would not say."""
    formal = re.compile(r"\b(usted|ustedes|vosotros|vosotras|os)\b|\w(?:áis|éis)\b", re.I)
    assert {k: v for k, v in spanish().items() if formal.search(v)} == {}


def test_questions_and_exclamations_open_as_spanish_writes_them() -> None:
    """Every `?` has its `¿` and every `!` its `¡` (the hidden epilogue's `???` aside)."""
    for key, text in spanish().items():
        text = text.replace("???", "").replace("— ?", "")
        assert text.count("?") == text.count("¿"), key
        assert text.count("!") == text.count("¡"), key


def test_every_counted_noun_has_every_plural_form_of_spanish() -> None:
    texts = spanish()
    nouns = {key.split(".")[1].rsplit("_", 1)[0] for key in texts if key.startswith("count.")}
    assert nouns, "no count keys found"
    forms = plural_forms("es")
    assert forms == {"one", "many", "other"}
    assert (
        sorted(f"count.{n}_{f}" for n in nouns for f in forms if f"count.{n}_{f}" not in texts)
        == []
    )
    assert catalog().count("es", "vote", 1) == "1 voto"
    assert catalog().count("es", "vote", 2_000_000) == "2.000.000 de votos"


def test_the_kinds_have_distinct_letters_in_spanish() -> None:
    letters = {
        t("es", f"kind.{kind}.letter") for kind in ("blocker", "leader", "weeper", "useless")
    }
    assert letters == {"B", "J", "L", "I"}
