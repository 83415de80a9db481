"""Errors the core raises.

`IllegalAction` carries a message key and its parameters rather than prose, so
the bot can say it in the player's language; `str()` gives an English fallback
for logs and the terminal. Its text never names hidden information that the
acting player does not already know.
"""

from __future__ import annotations


class IllegalAction(Exception):
    """An action that the rules do not allow right now; the state is unchanged."""

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params
        super().__init__(key if not params else f"{key} {params}")


class DataError(Exception):
    """A data file of the ruleset is malformed; the message names file and field."""
