"""Rename a catalog's plural keys to i18next's layout: `count.card.one` -> `count.card_one`.

Hosted translation platforms (Weblate, Crowdin) read i18next's JSON v4, where a
count's forms are sibling keys `<key>_<form>` with CLDR's form names; the
catalogs used `<key>.<form>` before. Run it on a language folder, or on the
catalogs folder for every language; a key already renamed is left alone, so it
may run any number of times:

    python tools/i18n/plurals_to_i18next.py bot/texts/catalogs
    python tools/i18n/plurals_to_i18next.py bot/texts/catalogs/es

The files keep their key order and their formatting (two-space JSON, UTF-8 as is).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

# CLDR's plural categories: only these end a count key.
_OLD_COUNT_KEY = re.compile(r"(?P<base>count\.[^.]+)\.(?P<form>zero|one|two|few|many|other)")


def renamed(key: str) -> str:
    """The i18next name of `key`: itself unless it is a count key in the old layout."""
    match = _OLD_COUNT_KEY.fullmatch(key)
    return f"{match['base']}_{match['form']}" if match else key


def convert_file(path: Path) -> int:
    """Rename the plural keys of one feature file in place; the number renamed."""
    texts: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    converted = {renamed(key): text for key, text in texts.items()}
    if len(converted) != len(texts):
        raise SystemExit(f"{path}: a key exists in both layouts; keep one and run again")
    changed = sum(1 for key in texts if renamed(key) != key)
    if changed:
        path.write_text(json.dumps(converted, indent=2, ensure_ascii=False) + "\n", "utf-8")
    return changed


def convert(folder: Path) -> int:
    """Every `*.json` under `folder` (one language, or all of them); the keys renamed."""
    return sum(convert_file(path) for path in sorted(folder.rglob("*.json")))


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for name in argv:
        folder = Path(name)
        if not folder.is_dir():
            print(f"{folder}: not a folder", file=sys.stderr)
            return 2
        print(f"{folder}: {convert(folder)} plural keys renamed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
