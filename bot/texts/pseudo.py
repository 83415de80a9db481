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
from string import Formatter

PSEUDO = "en-XA"
OPEN, CLOSE = "⟦", "⟧"
# Padding added to the end, per letter of English: about 40% longer.
GROWTH = 0.4
PAD = "·"

_ACCENTS = str.maketrans(
    "aeiouyAEIOUYcnsCNSzZ",
    "áéíöüýÅÉÎÖÜÝçñšÇÑŠžŽ",
)
# What keeps its letters: Discord's mentions, emoji and timestamps, links, code spans.
_KEPT = re.compile(r"<[^<>\s]+>|https?://\S+|`[^`]*`")
_FORMATTER = Formatter()


def pseudo_template(template: str) -> str:
    """`template` in the pseudo-locale: accented, padded, between markers, same fields."""
    parts: list[str] = []
    letters = 0
    for literal, field, _, _ in _FORMATTER.parse(template):
        parts.append(_escape(_accented(literal)))
        letters += sum(ch.isalpha() for ch in literal)
        if field is not None:
            parts.append("{" + field + "}")
    padding = PAD * round(letters * GROWTH)
    return OPEN + "".join(parts) + padding + CLOSE


def _accented(text: str) -> str:
    kept = [(m.start(), m.end()) for m in _KEPT.finditer(text)]
    out, at = [], 0
    for start, end in kept:
        out.append(text[at:start].translate(_ACCENTS))
        out.append(text[start:end])
        at = end
    out.append(text[at:].translate(_ACCENTS))
    return "".join(out)


def _escape(literal: str) -> str:
    """A literal back in `str.format` syntax: its braces doubled."""
    return literal.replace("{", "{{").replace("}", "}}")
