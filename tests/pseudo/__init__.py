"""The game read in the pseudo-locale `en-XA`: every word a reader sees comes from a catalog.

`leaks` is what these tests assert on: the words of a screen outside every
`⟦...⟧` (a catalog text's markers) once the names players chose are taken out.
Such a word was written in code, so it would read in English in every language;
a marker cut off (a text shortened to fit) leaves its words outside too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.texts.pseudo import CLOSE, OPEN

_MARKED = re.compile(re.escape(OPEN) + f"[^{OPEN}{CLOSE}]*" + re.escape(CLOSE))
_WORD = re.compile(r"[^\W\d_]+")


def unmarked(text: str) -> str:
    """`text` without its marked parts, innermost first (a text inside a text's placeholder)."""
    while (stripped := _MARKED.sub(" ", text)) != text:
        text = stripped
    return text


def closed(text: str) -> str:
    """A label cut to fit (`…`) with its cut markers closed again, so that only its words
    are judged. A button's 80 characters hold a composed label ("Energy drink: Blocker
    (Restrooms) → Parking lot") 40% longer, not the pseudo-locale's markers around each
    of its pieces as well; each template's own length is checked against its limit in
    `test_pseudo_locale`."""
    if not text.endswith("…"):
        return text
    return text + CLOSE * (text.count(OPEN) - text.count(CLOSE))


def leaks(text: str, names: Iterable[str] = ()) -> list[str]:
    """The words of `text` no catalog wrote: outside the markers, and not one of `names`."""
    rest = unmarked(text)
    for name in sorted(names, key=len, reverse=True):
        rest = rest.replace(name, " ")
    return _WORD.findall(rest)
