"""The message catalog: every player-facing text, in every language we speak.

Texts live in `bot/texts/catalogs/<lang>/<feature>.json`, one file per feature of the bot
(the board, the lobby, moderation...) so that a feature's texts sit together and two
features never edit one file. Each file is a flat `key -> template` object using
`str.format` named placeholders (`"{name} wins the vote."`); a key lives in one file
only, and every language splits its keys into the same files. The files are
read and checked once: every language must hold English's keys, and each key
the same placeholders, so a caller that works in one language works in all.
An unknown key is a programming error and fails loudly (the tests play every
event and grep every key); an unknown language falls back to English.

A count's noun has one key per plural form (`count.card_one`, `count.card_other`: the
layout of i18next's JSON, which the translation platforms Weblate and Crowdin read),
the forms being CLDR's for the language, through Babel: a language whose rules
need `few` or `many` adds those keys to its own catalog, and no code. `other`
is every language's catch-all, so it is the one form every language holds.

The pseudo-locale `en-XA` (`bot.texts.pseudo`) is made from English when it is
first asked for, so it never drifts from it; no server is offered it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from string import Formatter

from babel.core import Locale
from babel.dates import format_date
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

from bot.texts.pseudo import CLOSE, OPEN, PSEUDO, pseudo_template

# Inside the package, so an installed wheel finds its texts wherever it is installed.
DATA_DIR: Traversable = files("bot.texts") / "catalogs"
LANGUAGES = ("en", "fr", "de", "es")
FALLBACK = "en"

_FORMATTER = Formatter()
# `count.<noun>_<form>`: the texts of a number with its noun, one per CLDR plural form.
COUNT_KEY = re.compile(r"count\.(?P<noun>[^.]+)_(?P<form>zero|one|two|few|many|other)")
OTHER = "other"

# `t` with the reader's language already chosen: `tr("board.title", turn=3)`. Screens take
# one so that they draw in whatever language their reader needs without knowing which.
Translate = Callable[..., str]


@dataclass(frozen=True)
class Listed:
    """Words a text lists, written in the language of the reader it is told to: a refusal
    raised where no reader is known (a setting, a lobby's AI level) names what is
    allowed, and the catalog lists it the reader's way when it fills the text in.
    `choice`: one of them (`a, b or c`, `or_list`), not all (`and_list`)."""

    items: tuple[str, ...]
    choice: bool = False

    def written(self, lang: str) -> str:
        return (or_list if self.choice else and_list)(lang, self.items)


class CatalogError(Exception):
    """The catalog files disagree or are malformed; the message lists every problem."""


class MissingText(KeyError):
    """A key that no catalog file holds, or a template called without one of its values."""

    def __str__(self) -> str:
        # KeyError quotes its argument; a sentence reads better in a traceback.
        return str(self.args[0])


def placeholders(template: str) -> frozenset[str]:
    """The named fields of a template; positional, indexed or formatted fields are refused.

    Refusing `{}`, `{0}`, `{a.b}`, `{a[0]}` and `{a:>3}` keeps every template a
    plain fill-in-the-blanks that translators can edit without surprises.
    """
    names = set()
    for _, field, spec, conversion in _FORMATTER.parse(template):
        if field is None:
            continue
        if not field.isidentifier() or spec or conversion:
            raise ValueError(f"placeholder {{{field}}} is not a plain name")
        names.add(field)
    return frozenset(names)


class Catalog:
    """Every language's templates, validated together so they cannot drift apart."""

    def __init__(self, texts: Mapping[str, Mapping[str, str]]) -> None:
        problems = _problems(texts)
        if problems:
            raise CatalogError("message catalog: " + "; ".join(problems))
        self._texts = {lang: dict(table) for lang, table in texts.items()}
        self._pseudo: dict[str, str] = {}

    @classmethod
    def load(cls, directory: Traversable = DATA_DIR) -> Catalog:
        texts: dict[str, dict[str, str]] = {}
        files_of: dict[str, set[str]] = {}
        for lang in LANGUAGES:
            texts[lang], files_of[lang] = {}, set()
            for path in sorted((directory / lang).iterdir(), key=lambda p: p.name):
                if not path.name.endswith(".json"):
                    continue
                files_of[lang].add(path.name)
                for key, template in read_feature_file(path).items():
                    if key in texts[lang]:
                        raise CatalogError(f"{lang}/{path.name}: {key!r} is in two files")
                    texts[lang][key] = template
        if any(names != files_of[FALLBACK] for names in files_of.values()):
            raise CatalogError("the languages split their texts into different files")
        return cls(texts)

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(self._texts)

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(self._texts[FALLBACK])

    def has(self, key: str) -> bool:
        return key in self._texts[FALLBACK]

    def template(self, lang: str, key: str) -> str:
        if lang == PSEUDO:
            return self._pseudo_template(key)
        table = self._texts.get(lang, self._texts[FALLBACK])
        template = table.get(key, self._texts[FALLBACK].get(key))
        if template is None:
            raise MissingText(f"no text for key {key!r} in the message catalog")
        return template

    def _pseudo_template(self, key: str) -> str:
        if key not in self._pseudo:
            self._pseudo[key] = pseudo_template(key, self.template(FALLBACK, key))
        return self._pseudo[key]

    def text(self, lang: str, key: str, **params: object) -> str:
        """The text of `key` in `lang` (English when we do not speak `lang`), filled in.

        Extra parameters are ignored, so callers may pass everything they have. A
        `Listed` one is written as `lang` lists.
        """
        template = self.template(lang, key)
        filled = {k: v.written(lang) if isinstance(v, Listed) else v for k, v in params.items()}
        try:
            return template.format_map(filled)
        except KeyError as exc:
            raise MissingText(f"text {key!r} needs a value for {{{exc.args[0]}}}") from None

    def count(self, lang: str, noun: str, count: int) -> str:
        """A number with its noun (`count.<noun>_<form>`), by the language's CLDR rule.

        A form the catalog does not write reads as `other`, as CLDR intends. The
        number is written the language's way (`1,000` in English, `1 000` in French).
        """
        lang = lang if lang in self._texts or lang == PSEUDO else FALLBACK
        key = f"count.{noun}_{plural_form(lang, count)}"
        # The pseudo-locale writes English's forms, its plural rule being English's.
        if key not in self._texts.get(lang, self._texts[FALLBACK]):
            key = f"count.{noun}_{OTHER}"
        return self.text(lang, key, count=format_decimal(count, locale=babel_locale(lang)))


def read_feature_file(path: Traversable) -> dict[str, str]:
    """One feature's texts in one language: a JSON object of key -> template."""
    with path.open(encoding="utf-8") as handle:
        data = json.load(handle)
    if not isinstance(data, dict):
        raise CatalogError(f"{path.name}: the top level must be an object of texts")
    return data


def plural_form(lang: str, count: int) -> str:
    """CLDR's plural category of `count` in `lang`: `one`, `few`, `many`, `other`...

    French treats 0 and 1 as singular, English only 1; the rules of every other
    language come with Babel.
    """
    return str(_plural_rule(lang)(count))


@cache
def _plural_rule(lang: str) -> Callable[[int], str]:
    rule: Callable[[int], str] = babel_locale(lang).plural_form
    return rule


def and_list(lang: str, items: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c` as `lang` writes a list (CLDR's patterns, through Babel:
    English's serial comma, `et` in French, `und` in German), so no catalog spells it.
    In the pseudo-locale its words are English's, marked as a catalog text's are."""
    listed = format_list(list(items), style="standard", locale=babel_locale(lang))
    return f"{OPEN}{listed}{CLOSE}" if lang == PSEUDO and len(items) > 1 else listed


def long_date(lang: str, day: date) -> str:
    """`day` as `lang` writes a date in a sentence (`November 28, 2026`, `28 novembre
    2026`, `28. November 2026`), marked in the pseudo-locale: its month is a word."""
    written = format_date(day, format="long", locale=babel_locale(lang))
    return f"{OPEN}{written}{CLOSE}" if lang == PSEUDO else written


def or_list(lang: str, items: Sequence[str]) -> str:
    """`a or b`, `a, b or c`: a choice among `items` as `lang` writes it (`ou`, `oder`,
    `o`), marked in the pseudo-locale as `and_list` is."""
    listed = format_list(list(items), style="or", locale=babel_locale(lang))
    return f"{OPEN}{listed}{CLOSE}" if lang == PSEUDO and len(items) > 1 else listed


def decimal(lang: str, value: float, digits: int, *, signed: bool = False) -> str:
    """`value` to `digits` decimals as `lang` writes it (`1,234.50`, `1 234,50`); `signed`
    shows a `+` before a positive change."""
    locale = babel_locale(lang)
    whole = str(locale.decimal_formats[None].pattern).split(";")[0].split(".")[0]
    pattern = whole + ("." + "0" * digits if digits else "")
    if signed:
        pattern = f"+{pattern};-{pattern}"
    return format_decimal(value, format=pattern, locale=locale)


def percent(lang: str, share: float, digits: int = 0) -> str:
    """A share (0.25) in percents as `lang` writes them (`25%`, `25 %`)."""
    locale = babel_locale(lang)
    pattern = str(locale.percent_formats[None].pattern).split(";")[0]
    if digits:
        pattern = pattern.replace("0", "0." + "0" * digits, 1)
    return format_percent(share, format=pattern, locale=locale)


def babel_locale(lang: str) -> Locale:
    """Babel's locale for a catalog language: the pseudo-locale formats as English."""
    return Locale.parse(FALLBACK if lang == PSEUDO else lang)


def plural_forms(lang: str) -> frozenset[str]:
    """Every plural category `lang` has, `other` included."""
    return frozenset(babel_locale(lang).plural_form.tags) | {OTHER}


def _problems(texts: Mapping[str, Mapping[str, str]]) -> list[str]:
    if FALLBACK not in texts:
        return [f"no {FALLBACK} texts: every other language is checked against them"]
    problems = [
        f"{lang}: {key!r} is not a plural form of {lang}"
        for lang, table in texts.items()
        for key in table
        if (match := COUNT_KEY.fullmatch(key)) and match["form"] not in plural_forms(lang)
    ]
    fields: dict[str, dict[str, frozenset[str]]] = {}
    for lang, table in texts.items():
        fields[lang] = {}
        for key, template in table.items():
            if not isinstance(template, str) or not template.strip():
                problems.append(f"{lang}: {key!r} must be a non-empty string")
                continue
            try:
                fields[lang][key] = placeholders(template)
            except ValueError as exc:
                problems.append(f"{lang}: {key!r}: {exc}")
    reference = texts[FALLBACK]
    for lang, table in texts.items():
        if lang == FALLBACK:
            continue
        grammar = _grammar_plurals(lang, reference)
        missing = sorted(set(reference) - set(table) - grammar)
        extra = sorted(set(table) - set(reference) - grammar)
        if missing:
            problems.append(f"{lang} lacks {', '.join(missing)}")
        if extra:
            problems.append(f"{lang} has keys English lacks: {', '.join(extra)}")
        for key in sorted(set(fields[lang]) & set(fields[FALLBACK])):
            if fields[lang][key] != fields[FALLBACK][key]:
                problems.append(
                    f"{key!r}: placeholders differ: en {sorted(fields[FALLBACK][key])}, "
                    f"{lang} {sorted(fields[lang][key])}"
                )
    return problems


def _grammar_plurals(lang: str, reference: Mapping[str, str]) -> set[str]:
    """The count keys that `lang` and English may hold apart, their grammars differing:
    Polish writes `count.card_few`, which English has no use for, and Japanese needs
    no `count.card_one`. A form CLDR does not give a language is refused elsewhere.

    Each noun's `other` is not among them: every language must hold it.
    """
    nouns = {m["noun"] for key in reference if (m := COUNT_KEY.fullmatch(key))}
    return {
        f"count.{noun}_{form}"
        for noun in nouns
        for form in plural_forms(lang) | plural_forms(FALLBACK)
        if form != OTHER
    }
