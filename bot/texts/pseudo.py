"""The pseudo-locale `en-XA`: English made visibly foreign, to find text the catalogs miss.

Every template is accented (`Board` -> `Böárd`), made about 40% longer (German
and French run that much past English) and wrapped in `⟦...⟧`. A screen drawn
in it shows at a glance, and a test proves, which words came from the catalogs:
a word outside the markers was composed in code and would stay English in every
language, and a label that fits only in English overflows here.

Placeholders stay as they are, so the template takes the same values; so do
Discord's markup that is not words (`<@id>`, `<t:...>`, links, `code spans`):
a mention or a link must still work. Made from English on demand by the
catalog, it cannot drift from it; no Discord client sends this locale and no
server setting offers it, so only tests and the terminal (`--lang en-XA`) reach it.
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase

PSEUDO = "en-XA"
OPEN, CLOSE = "⟦", "⟧"
# Padding added to the end, per letter of English: about 40% longer.
GROWTH = 0.4
PAD = "·"

# Texts that are typed or matched, not read: the terminal's keys, Discord's command names
# (which no pseudo-locale of Discord's could carry). They stay English.
VERBATIM = ("play.keys.*", "command.*.name")

_ACCENTS = str.maketrans(
    "aeiouyAEIOUYcnsCNSzZ",
    "áéíöüýÅÉÎÖÜÝçñšÇÑŠžŽ",
)
# What keeps its letters: the fields and escaped braces of `str.format`, Discord's
# mentions, emoji and timestamps, links, and code spans (which may hold fields).
_KEPT = re.compile(r"`[^`]*`|\{\{|\}\}|\{[^{}]*\}|<[^<>\s]+>|https?://\S+")


def pseudo_template(key: str, template: str) -> str:
    """`template` (the English of `key`) in the pseudo-locale: accented, padded, between
    markers, with the same fields; a text of `VERBATIM` as it is."""
    if any(fnmatchcase(key, pattern) for pattern in VERBATIM):
        return template
    parts: list[str] = []
    letters, at = 0, 0
    for kept in _KEPT.finditer(template):
        words = template[at : kept.start()]
        parts += [words.translate(_ACCENTS), kept.group()]
        letters += sum(ch.isalpha() for ch in words)
        at = kept.end()
    words = template[at:]
    parts.append(words.translate(_ACCENTS))
    letters += sum(ch.isalpha() for ch in words)
    return OPEN + "".join(parts) + PAD * round(letters * GROWTH) + CLOSE
