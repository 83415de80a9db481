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


def leaks(text: str, names: Iterable[str] = ()) -> list[str]:
    """The words of `text` no catalog wrote: outside the markers, and not one of `names`."""
    rest = unmarked(text)
    for name in sorted(names, key=len, reverse=True):
        rest = rest.replace(name, " ")
    return _WORD.findall(rest)
