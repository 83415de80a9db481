"""A snapshot's rules by name: the variants and a hash of the data they resolve to.

The full dump of a ruleset was most of every stored snapshot; the identity is
a few bytes, and reading it back checks that this build's data still gives
the rules the game was played with.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any

from lockdown_core.errors import DataError
from lockdown_core.ruleset import Ruleset, load_ruleset

# Hex digits of the ruleset's SHA-256 kept in a snapshot: 64 bits tell two data
# files apart; this is an identity, not a defence against forgery.
RULES_HASH_DIGITS = 16


# Fields that change nothing a game does, left out of the identity: a game stored before
# one existed, or before its value changed, goes on under this build's (R9.4's stall_turns
# says only when a table is offered to give a game up).
NOT_IN_IDENTITY = frozenset({"stall_turns"})


def rules_hash(rules: Ruleset) -> str:
    """The identity of a resolved ruleset: a hash of its JSON dump, which pydantic
    writes in field order, so equal rulesets always hash alike."""
    dump = rules.model_dump_json(exclude=set(NOT_IN_IDENTITY))
    digest = hashlib.sha256(dump.encode("utf-8")).hexdigest()
    return digest[:RULES_HASH_DIGITS]


@lru_cache(maxsize=64)
def _known_rules(variants: tuple[str, ...]) -> tuple[Ruleset, str]:
    """The rules this build gives for `variants`, and their hash: read once per process."""
    rules = load_ruleset(variants)
    return rules, rules_hash(rules)


def stored_rules(rules: Ruleset) -> dict[str, Any]:
    """`rules` as a snapshot stores them: their identity when this build's data
    gives exactly these rules for their variants, else their full dump."""
    identity = {"variants": list(rules.variants), "data": rules_hash(rules)}
    try:
        known = _known_rules(rules.variants)
    except DataError:
        return rules.model_dump(mode="json")
    return identity if identity["data"] == known[1] else rules.model_dump(mode="json")


def read_rules(stored: Any) -> Ruleset:
    """The rules of a snapshot: a full dump (schema 1, or hand-made rules), or an
    identity that must match this build's data, since a game must go on under the
    rules it was played with; a mismatch says so rather than change them silently."""
    if not isinstance(stored, dict):
        raise TypeError("stored rules are a JSON object")
    if "data" not in stored:
        return Ruleset.model_validate(stored)
    variants = stored["variants"]
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise TypeError(f"malformed rules identity {stored!r}")
    try:
        rules, data = _known_rules(tuple(variants))
    except DataError as exc:
        raise ValueError(f"the game's rules cannot be rebuilt: {exc}") from exc
    if stored["data"] != data:
        raise ValueError(
            f"the game's rules (variants {variants}, data {stored['data']}) are not "
            f"this build's (data {data}): its rule data changed since it was stored"
        )
    return rules
