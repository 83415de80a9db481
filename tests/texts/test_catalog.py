"""The message catalog: every language agrees with English, and it covers everything the
game can name.

Coverage is checked against the sources of truth: the rules data in
`lockdown_core/data/` (cards, kinds, locations, variants, epilogues), the core's own
`IllegalAction(...)` keys (grepped from `lockdown_core`), the steps of `Step`,
and the catalog keys written as literals anywhere in `bot/`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.table.server_settings import SETTING_KEYS
from bot.texts import Catalog, CatalogError, MissingText, card_help, catalog, t
from bot.texts.catalog import DATA_DIR, LANGUAGES, placeholders
from bot.texts.check import check
from lockdown_core import Step, load_ruleset, load_variants
from lockdown_core.ruleset import DATA_DIR as RULES

REPO = Path(__file__).resolve().parents[2]


def shipped(lang: str) -> dict[str, str]:
    data: dict[str, str] = {}
    for path in (DATA_DIR / lang).iterdir():
        if not path.name.endswith(".json"):
            continue  # a language's glossary sits beside its texts
        with path.open(encoding="utf-8") as handle:
            data.update(json.load(handle))
    return data


def core_error_keys() -> set[str]:
    source = "\n".join(p.read_text("utf-8") for p in (REPO / "lockdown_core").rglob("*.py"))
    return set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', source))


# Parity ----------------------------------------------------------------------


def test_every_language_passes_the_catalog_checker() -> None:
    """Same keys and placeholders as English, every CLDR plural form, every limit kept."""
    assert check() == {lang: [] for lang in LANGUAGES}


def every_language(texts: dict[str, str], **overrides: dict[str, str]) -> dict[str, dict[str, str]]:
    """The same texts in every language we speak, but for the `overrides`."""
    return {lang: overrides.get(lang, texts) for lang in LANGUAGES}


def test_the_shipped_catalog_loads_and_every_text_formats_with_its_own_placeholders() -> None:
    texts = catalog()
    for key in texts.keys:
        for lang in LANGUAGES:
            params = {name: f"<{name}>" for name in placeholders(texts.template(lang, key))}
            line = texts.text(lang, key, **params)
            assert line.strip()
            assert "{" not in line, (lang, key)
            assert "}" not in line, (lang, key)


def test_catalog_refuses_a_key_missing_in_one_language() -> None:
    with pytest.raises(CatalogError, match="fr lacks b"):
        Catalog(every_language({"a": "A", "b": "B"}, fr={"a": "A"}))


def test_catalog_refuses_different_placeholders() -> None:
    with pytest.raises(CatalogError, match=r"'a': placeholders differ"):
        Catalog(every_language({"a": "{name} wins"}, fr={"a": "{nom} gagne"}))


@pytest.mark.parametrize("template", ["{} wins", "{0} wins", "{a.b} wins", "{a[0]}", "{a:>3}"])
def test_catalog_refuses_anything_but_plain_named_placeholders(template: str) -> None:
    with pytest.raises(CatalogError, match="not a plain name"):
        Catalog(every_language({"a": template}))


def test_catalog_refuses_empty_texts() -> None:
    with pytest.raises(CatalogError, match="non-empty string"):
        Catalog(every_language({"a": " "}))


# Lookup -----------------------------------------------------------------------


def test_t_fills_placeholders_and_ignores_extra_parameters() -> None:
    assert t("en", "event.player_done", name="Ana", seat=2) == "Ana is done."
    assert t("fr", "event.player_done", name="Ana") == "Ana passe."


def test_unknown_language_falls_back_to_english() -> None:
    assert t("xx", "ui.button.my_hand") == t("en", "ui.button.my_hand")


def test_unknown_key_is_a_clear_error() -> None:
    with pytest.raises(MissingText, match=r"no text for key 'event\.nope'"):
        t("en", "event.nope")


def test_a_missing_parameter_names_the_key_and_the_placeholder() -> None:
    with pytest.raises(MissingText, match=r"'event.player_done' needs a value for \{name\}"):
        t("fr", "event.player_done")


def test_counts_read_naturally() -> None:
    texts = catalog()
    assert texts.count("en", "monster", 1) == "1 Monster"
    assert texts.count("en", "monster", 0) == "0 Monsters"
    assert texts.count("fr", "monster", 0) == "0 Monstre"
    assert texts.count("fr", "card", 3) == "3 cartes"
    assert texts.count("de", "card", 1) == "1 Karte"
    assert texts.count("de", "free_spot", 2) == "2 freie Plätze"
    assert texts.count("es", "monster", 0) == "0 Monstruos"
    assert texts.count("es", "card", 1) == "1 carta"
    assert texts.count("es", "card", 1_000_000) == "1.000.000 de cartas"


# Coverage of the game's own names ------------------------------------------------


def test_every_core_error_key_has_a_short_text() -> None:
    keys = core_error_keys()
    assert "card_not_in_hand" in keys  # the grep itself works
    texts = catalog()
    assert sorted(k for k in keys if not texts.has(f"error.{k}")) == []
    for key in keys:
        for lang in LANGUAGES:
            assert len(texts.template(lang, f"error.{key}")) <= 120


def test_error_texts_never_echo_raw_engine_values() -> None:
    """The core passes raw keys (`card="gun"`, `step="move"`): no error text shows them.

    Only numbers (`minimum`, `maximum`) may be filled in; anything else would
    print an internal key to a player.
    """
    texts = catalog()
    for key in core_error_keys():
        assert placeholders(texts.template("en", f"error.{key}")) <= {"minimum", "maximum"}


def test_every_card_kind_and_location_has_a_name_and_a_help_line() -> None:
    rules = load_ruleset()
    texts = catalog()
    for card in rules.cards:
        assert texts.has(f"card.{card.key}")
        assert texts.has(f"card.{card.key}.help")
    letters: dict[str, set[str]] = {lang: set() for lang in LANGUAGES}
    for kind in rules.kinds:
        for suffix in ("", ".letter", ".help"):
            assert texts.has(f"kind.{kind.key}{suffix}")
        for lang in letters:
            letters[lang].add(texts.text(lang, f"kind.{kind.key}.letter"))
    assert all(len(found) == len(rules.kinds) for found in letters.values())
    for location in rules.locations:
        for suffix in ("", ".in", ".to", ".from"):
            assert texts.has(f"location.{location.id}{suffix}")


def test_french_names_follow_the_french_rulebook() -> None:
    names = {
        "card.walkie_talkie": "Talkie-walkie",
        "card.energy_drink": "Boisson énergétique",
        "card.gun": "Pistolet",
        "card.tin_can": "Boîte de conserve",
        "card.baseball_bat": "Batte",
        "card.chainsaw": "Tronçonneuse",
        "card.molotov_cocktail": "Cocktail Molotov",
        "card.rotten_meat": "Viande avariée",
        "card.keys_of_the_truck": "Clés du camion",
        "kind.blocker": "Bloqueur",
        "kind.leader": "Leader",
        "kind.weeper": "Chialeur",
        "kind.useless": "Inutile",
        "location.3": "Salle de surveillance",
        "location.6": "Parking",
    }
    assert {key: t("fr", key) for key in names} == names


def test_german_names_follow_the_german_glossary() -> None:
    """The German catalog names things as `catalogs/de/GLOSSARY.md` chose them, once."""
    glossary = (DATA_DIR / "de" / "GLOSSARY.md").read_text(encoding="utf-8")
    names = {
        "card.walkie_talkie": "Walkie-Talkie",
        "card.energy_drink": "Energydrink",
        "card.gun": "Pistole",
        "card.tin_can": "Blechdose",
        "card.baseball_bat": "Baseballschläger",
        "card.chainsaw": "Kettensäge",
        "card.molotov_cocktail": "Molotowcocktail",
        "card.rotten_meat": "Gammelfleisch",
        "card.keys_of_the_truck": "Lastwagenschlüssel",
        "kind.blocker": "Blocker",
        "kind.leader": "Anführer",
        "kind.weeper": "Heulsuse",
        "kind.useless": "Nichtsnutz",
        "location.3": "Kameraraum",
        "location.6": "Parkplatz",
    }
    assert {key: t("de", key) for key in names} == names
    assert all(f"| {name} |" in glossary for name in names.values())


def test_german_speaks_to_players_with_du() -> None:
    """The German catalog says `du`, never the formal `Sie`/`Ihnen`/`Ihr`: capitalised
    inside a sentence, those can only be the formal address (at a sentence's start they
    may be `they`, `their`)."""
    polite = re.compile(r"\b(?:Sie|Ihnen|Ihr\w*)\b")

    def formal(text: str) -> bool:
        return any(re.search(r"[a-zäöüß,]\s*$", text[: m.start()]) for m in polite.finditer(text))

    assert [k for k, v in shipped("de").items() if formal(v)] == []
    assert formal("Hier können Sie wählen.")
    assert t("de", "panel.change_until_reveal").startswith("Du kannst")


def test_every_step_has_a_name_and_a_one_line_help() -> None:
    steps = [v for k, v in vars(Step).items() if k.isupper()]
    assert len(steps) == 12
    for step in steps:
        for lang in LANGUAGES:
            assert "\n" not in t(lang, f"step.{step}.help")
            assert t(lang, f"step.{step}.name")


def test_every_variant_has_a_name_and_its_change() -> None:
    variants = load_variants()
    assert len(variants) == 20
    for key in variants:
        assert catalog().has(f"variant.{key}.name")
        assert catalog().has(f"variant.{key}.change")


def sentences(text: str) -> int:
    return len(re.findall(r"[.!?](?:\s|$)", text))


def test_every_epilogue_has_a_title_a_short_story_and_its_condition() -> None:
    order = json.loads((RULES / "epilogues.json").read_text("utf-8"))
    codes = [*order["order"], order["fallback"]]
    assert len(set(codes)) == 21
    for code in codes:
        for lang in LANGUAGES:
            assert t(lang, f"epilogue.{code}.title")
            assert t(lang, f"epilogue.{code}.condition")
            assert 2 <= sentences(t(lang, f"epilogue.{code}.story")) <= 4, (lang, code)


def test_slash_commands_have_a_name_and_a_description_within_discord_limits() -> None:
    for command in (
        "lockdown",
        "new",
        "board",
        "hand",
        "rules",
        "abort",
        "help",
        "config",
        "variants",
        "epilogues",
        "stats",
        "leaderboard",
        "config.show",
        "config.set",
        "config.variant",
        "schedule",
        "schedule.new",
        "schedule.list",
        "schedule.cancel",
    ):
        for lang in LANGUAGES:
            name = t(lang, f"command.{command}.name")
            assert re.fullmatch(r"[a-z0-9_-]{1,32}", name)
            assert 1 <= len(t(lang, f"command.{command}.description")) <= 100


def test_slash_options_and_menu_entries_fit_discord_limits() -> None:
    """Option names follow the command name rule; an option's description and a menu
    entry's label hold 1 to 100 characters."""
    options = [f"config.option.{o}" for o in ("setting", "value", "variant", "state")]
    nights = [
        f"schedule.option.{o}" for o in ("start", "channel", "title", "weekly", "hours", "voice")
    ]
    for option in (*options, *nights, "schedule.option.night", "stats.option.user"):
        for lang in LANGUAGES:
            assert re.fullmatch(r"[a-z0-9_-]{1,32}", t(lang, f"command.{option}.name"))
            assert 1 <= len(t(lang, f"command.{option}")) <= 100
    labels = [f"setting.{key}" for key in SETTING_KEYS]
    labels += [f"config.state.{state}" for state in ("unlock", "lock", "campaign")]
    for label in labels:
        for lang in LANGUAGES:
            assert 1 <= len(t(lang, label)) <= 100


def test_long_texts_fit_in_one_discord_message() -> None:
    for lang in LANGUAGES:
        assert len(t(lang, "help.text", least=3, most=6)) <= 1800


# Style --------------------------------------------------------------------------


def test_french_puts_a_no_break_space_before_high_punctuation() -> None:
    """French typography: `mot : suite`, `quoi ?`, `ici !`, `a ; b`, with U+00A0, never a space."""
    for key, text in shipped("fr").items():
        assert not re.search(r" [:;!?]", text), key
        assert not re.search(r"[^\s\u00a0(/.\d<{?][:;!?](?:\s|$)", text), key


def test_french_speaks_to_players_with_vous() -> None:
    """The bot says `vous`, never `tu`: no informal pronoun or possessive anywhere."""
    informal = re.compile(r"\b(tu|te|toi|ton|ta|tes|t')\b", re.IGNORECASE)
    assert [k for k, v in shipped("fr").items() if informal.search(v)] == []


# Placeholders that hold a person's name (or a list that starts with one).
NAME_PLACEHOLDERS = (
    "name|names|player|players|receiver|previous|winner|winners|candidate|badge|martyr"
    "|voters|tied|host|user|head|last"
)


def test_french_never_elides_before_a_name() -> None:
    """`que {name}` must become `qu'IA 3` but stay `que Bob`: a template cannot know which.

    So no French text puts a word that elides before a vowel (que, de, le, la, ne,
    se, me, ce, je, jusque, lorsque, puisque) right before a name.
    """
    elides = re.compile(
        rf"\b(?:que|de|le|la|ne|se|me|ce|je|jusque|lorsque|puisque)\s+\{{(?:{NAME_PLACEHOLDERS})\}}",
        re.IGNORECASE,
    )
    assert {k: v for k, v in shipped("fr").items() if elides.search(v)} == {}
    # The unopposed votes read well whatever the name starts with.
    for name in ("IA 3", "Bob"):
        line = t("fr", "event.vote_unopposed.truck", name=name)
        assert line.startswith(f"{name} est la seule personne au Parking")


def test_every_catalog_key_written_in_bot_exists() -> None:
    """Literal keys in the bot's code (not built with f-strings) are all in the catalog."""
    families = "error|notice|lobby|board|panel|action|ui|abort|rules|help|command|play|dm|timer"
    literal = re.compile(rf'"((?:{families})\.[a-z0-9_.]+)"')
    used = set()
    for path in (REPO / "bot").rglob("*.py"):
        if "texts" not in path.parts:
            used |= set(literal.findall(path.read_text("utf-8")))
    used = {k for k in used if k.rpartition(".")[2] not in ("png", "json", "py", "db")}
    assert used, "the scan found no key at all"
    assert sorted(k for k in used if not catalog().has(k)) == []


def test_the_keys_help_says_the_points_of_this_games_ruleset() -> None:
    """1 point in the base game, 2 under Spare keys, in both languages."""
    base, spare = load_ruleset(), load_ruleset(("spare_keys",))
    assert "worth 1 point if" in card_help("en", "keys_of_the_truck", base)
    assert "worth 2 points if" in card_help("en", "keys_of_the_truck", spare)
    assert "rapporte 1 point si" in card_help("fr", "keys_of_the_truck", base)
    assert "rapporte 2 points si" in card_help("fr", "keys_of_the_truck", spare)
    assert "bringt er 1 Punkt," in card_help("de", "keys_of_the_truck", base)
    assert "bringt er 2 Punkte," in card_help("de", "keys_of_the_truck", spare)
    # Cards without a number read their help as written.
    assert card_help("en", "gun", spare) == t("en", "card.gun.help")
