"""The catalog checker: what each language's catalog lacks, or holds wrong, next to English.

    uv run python -m bot.texts.check                 # bot/texts/catalogs
    uv run python -m bot.texts.check path/to/catalogs

For every language folder it reports the keys English has and it lacks, the
keys it has and English lacks, the placeholders that differ from English's,
the plural forms its CLDR rules need (through Babel) and a count lacks, forms
its rules do not have, and texts over the Discord limit of where they are shown
(`LIMITS`). It exits 1 when anything is reported, so a translator, or CI, sees
every problem at once; the catalog itself refuses to load on the first.

A folder not yet named in `LANGUAGES` is checked too, and reported as such:
adding a language is its folder and that one line.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from importlib.resources.abc import Traversable
from pathlib import Path

from bot.texts.catalog import (
    COUNT_KEY,
    DATA_DIR,
    FALLBACK,
    LANGUAGES,
    CatalogError,
    placeholders,
    plural_forms,
    read_feature_file,
)


@dataclass(frozen=True)
class Limit:
    """Where Discord shows a text, and how many characters it allows there."""

    where: str
    chars: int


COMMAND_NAME = Limit("a slash command or option name", 32)
COMMAND_DESCRIPTION = Limit("a slash command, option or choice text", 100)
BUTTON_LABEL = Limit("a button label", 80)
OPTION_LABEL = Limit("a select option", 100)
EMBED_TITLE = Limit("an embed title", 256)
EMBED_DESCRIPTION = Limit("an embed description", 4096)
# Discord's names: lowercase letters, digits, `-` and `_`, in any script.
_COMMAND_NAME = re.compile(r"[-_\w]{1,32}")

# Key pattern -> the limit of where it is shown; the first that matches wins. A text
# is measured as written, a placeholder counting as its `{name}`.
LIMITS: tuple[tuple[str, Limit], ...] = (
    ("command.*.name", COMMAND_NAME),
    ("command.*", COMMAND_DESCRIPTION),
    ("action.*", BUTTON_LABEL),
    ("ui.button.*", BUTTON_LABEL),
    ("lobby.button.*", BUTTON_LABEL),
    ("variant.*.name", OPTION_LABEL),
    ("*.title", EMBED_TITLE),
    ("*", EMBED_DESCRIPTION),
)


def limit_of(key: str) -> Limit:
    """The limit of the place `key` is shown (the first pattern of `LIMITS` it matches)."""
    return next(limit for pattern, limit in LIMITS if fnmatchcase(key, pattern))


def read_language(folder: Traversable) -> tuple[dict[str, str], set[str], list[str]]:
    """One language's texts, its file names, and the keys two of its files both hold."""
    texts: dict[str, str] = {}
    names: set[str] = set()
    problems: list[str] = []
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if not path.name.endswith(".json"):
            continue
        names.add(path.name)
        for key, template in read_feature_file(path).items():
            if key in texts:
                problems.append(f"{key!r} is in two files")
            texts[key] = template
    return texts, names, problems


def check(directory: Traversable = DATA_DIR) -> dict[str, list[str]]:
    """Every language folder of `directory` with its problems (an empty list: none)."""
    folders = sorted((p for p in directory.iterdir() if p.is_dir()), key=lambda p: p.name)
    read = {folder.name: read_language(folder) for folder in folders}
    if FALLBACK not in read:
        raise CatalogError(f"{directory}: no {FALLBACK}/ folder to compare the languages with")
    english, english_files, _ = read[FALLBACK]
    report: dict[str, list[str]] = {}
    for lang, (texts, names, problems) in read.items():
        if lang not in LANGUAGES:
            problems.append(f"not in LANGUAGES (bot/texts/catalog.py): add {lang!r} there")
        if names != english_files:
            problems.append(f"its files differ from English's: {sorted(names ^ english_files)}")
        problems += _text_problems(texts)
        problems += _plural_problems(lang, texts, english)
        if lang != FALLBACK:
            problems += _key_problems(texts, english)
        report[lang] = problems
    return report


def _text_problems(texts: Mapping[str, object]) -> list[str]:
    problems = []
    for key, template in texts.items():
        if not isinstance(template, str) or not template.strip():
            problems.append(f"{key!r} must be a non-empty string")
            continue
        try:
            placeholders(template)
        except ValueError as exc:
            problems.append(f"{key!r}: {exc}")
            continue
        limit = limit_of(key)
        if len(template) > limit.chars:
            problems.append(
                f"{key!r} is {len(template)} characters, over the {limit.chars} of {limit.where}"
            )
        if limit is COMMAND_NAME and not (
            _COMMAND_NAME.fullmatch(template) and template == template.lower()
        ):
            problems.append(f"{key!r}: {template!r} is no Discord name (1-32, lowercase)")
    return problems


def _nouns(texts: Mapping[str, str]) -> set[str]:
    return {m["noun"] for key in texts if (m := COUNT_KEY.fullmatch(key))}


def _plural_problems(lang: str, texts: Mapping[str, str], english: Mapping[str, str]) -> list[str]:
    """Each noun of English written in every form `lang`'s CLDR rules have, and no other."""
    forms = plural_forms(lang)
    problems = [
        f"{key!r}: {lang} has no plural form {m['form']!r} (it has {', '.join(sorted(forms))})"
        for key in texts
        if (m := COUNT_KEY.fullmatch(key)) and m["form"] not in forms
    ]
    for noun in sorted(_nouns(english)):
        lacking = sorted(form for form in forms if f"count.{noun}_{form}" not in texts)
        if lacking:
            problems.append(f"count.{noun} lacks plural forms: {', '.join(lacking)}")
    return problems


def _key_problems(texts: Mapping[str, str], english: Mapping[str, str]) -> list[str]:
    """Missing and extra keys, and placeholders unlike English's (a count's: its `other`)."""
    nouns = _nouns(english)

    def reference(key: str) -> str | None:
        match = COUNT_KEY.fullmatch(key)
        if match and match["noun"] in nouns:
            return f"count.{match['noun']}_other"
        return key if key in english else None

    missing = sorted(k for k in english if not COUNT_KEY.fullmatch(k) and k not in texts)
    extra = sorted(k for k in texts if reference(k) is None)
    problems = [f"lacks {key!r}" for key in missing]
    problems += [f"has {key!r}, which English lacks" for key in extra]
    for key, template in texts.items():
        ref = reference(key)
        if ref is None or not isinstance(template, str):
            continue
        try:
            theirs, ours = placeholders(template), placeholders(english[ref])
        except ValueError:
            continue  # told by _text_problems
        if theirs != ours:
            problems.append(f"{key!r}: placeholders {sorted(theirs)}, English has {sorted(ours)}")
    return problems


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    directory: Traversable = Path(args[0]) if args else DATA_DIR
    report = check(directory)
    for lang, problems in report.items():
        print(f"{lang}: {len(problems) or 'no'} problem{'s' if len(problems) != 1 else ''}")
        for problem in problems:
            print(f"  {problem}")
    return 1 if any(report.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
