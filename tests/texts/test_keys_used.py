"""Every catalog key the code can ask for exists, in both languages.

The code is read with `ast`, not run: every string literal of `bot/` shaped like
a key of a catalog family (`event.…`, `panel.…`) must be a key; every f-string
such as `f"location.{loc}.{form}"` is resolved against the domains it can take
(locations, kinds, cards, steps, variants, epilogues, settings, the core's vote
kinds and reasons, …): some choice of domains must make *every* value a key, so
a new card, location or variant without its text fails here, and so does a
pattern nobody can fill. Wrappers that build a key from a literal
(`command_name("new")`, `count("monster", …)`) are checked the same way.
Parity of the two languages (same keys, same placeholders) is checked by
`test_catalog.py` and by the catalog itself when it loads.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from bot.discord_ui.moderation import VARIANT_STATES
from bot.table.campaign import epilogue_order
from bot.table.server_settings import DM_REMINDERS, SETTING_KEYS
from bot.texts import catalog
from bot.texts.catalog import LANGUAGES
from lockdown_core import Step, load_ruleset, load_variants
from lockdown_core.ai import AI_KINDS, PERSONAS
from tests.syntax import parse

REPO = Path(__file__).resolve().parents[2]
KEY = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+")
NOT_KEYS = ("png", "json", "py", "db", "gif", "ttf", "txt", "md")
PLACEHOLDER = "\0"


def sources() -> Iterator[tuple[Path, ast.AST]]:
    for path in sorted((REPO / "bot").rglob("*.py")):
        yield path, parse(path.read_text("utf-8"))


@cache
def families() -> frozenset[str]:
    return frozenset(key.split(".")[0] for key in catalog().keys)


def core_literals(pattern: str) -> frozenset[str]:
    source = "\n".join(p.read_text("utf-8") for p in (REPO / "lockdown_core").rglob("*.py"))
    return frozenset(re.findall(pattern, source))


@cache
def domains() -> dict[str, frozenset[str]]:
    """What a placeholder of a key can hold, from the sources of truth."""
    rules = load_ruleset()
    every_card = load_ruleset(tuple(load_variants())).cards
    votes = core_literals(r'_start_vote\(state, "(\w+)"')
    wrapped = wrapper_literals()
    return {
        "location": frozenset(str(loc.id) for loc in rules.locations),
        "form": frozenset({"in", "to", "from"}),
        "kind": frozenset(k.key for k in rules.kinds),
        "card": frozenset(c.key for c in every_card),
        "playable_card": frozenset(c.key for c in every_card if c.window != "scoring"),
        "step": frozenset(v for k, v in vars(Step).items() if k.isupper()),
        "variant": frozenset(load_variants()),
        "epilogue": frozenset(epilogue_order()),
        "setting": frozenset(SETTING_KEYS),
        "config_state": frozenset(VARIANT_STATES),
        "dm_reminders": frozenset(DM_REMINDERS),
        "lobby_op": frozenset(re.findall(r"\w+", ids_lobby_ops())),
        # The core's own words, read from its source: vote kinds, Monster and truck reasons.
        "vote": votes,
        # R2.5: the core names the vote kind that is never won unopposed.
        "unopposed_vote": votes
        - core_literals(r'if kind != "(\w+)" and len\(vote.candidates\) == 1'),
        "monster_reason": core_literals(r'place_monster\(state, \w+, "(\w+)"')
        | core_literals(r'\(\w+, "(\w+)", state\.rules\.weeper_monsters\)')
        | core_literals(r'\(crowd, "(\w+)", 1\)'),
        "truck_skip": core_literals(r'"(empty_\w+)"'),
        # Why a Monster was turned away from where it was meant to go (R6.1).
        "turned_away": core_literals(r'turned_away = "(\w+)" if')
        | core_literals(r'turned_away = "\w+" if .* else "(\w+)"'),
        "error": core_literals(r'IllegalAction\(\s*"([a-z_]+)"'),
        "plural": frozenset({"one", "other"}),
        "lang": frozenset(LANGUAGES),
        "command": frozenset(wrapped["command_name"]),
        # The AI: its levels and personas, and the reasons its ballots and gifts give.
        "ai_level": frozenset(AI_KINDS),
        "persona": frozenset(PERSONAS),
        "ballot_reason": core_literals(r'return choice, "(\w+)"'),
        "gift_reason": core_literals(r'"gift", \{"to": [\w.]+, "reason": "(\w+)"\}'),
        "noun": frozenset(wrapped["count"]),
    }


# The functions that build a catalog key from the literal they are called with.
WRAPPERS = ("command_name", "described", "options")


def wrapper_literals() -> dict[str, set[str]]:
    """The literal a key-building wrapper is called with: `command_name("new")` and
    `described("new")` give "new", `options("new", "seats")` gives "new seats",
    `count("monster", n)` gives "monster"."""
    found: dict[str, set[str]] = {
        "command_name": set(),
        "described": set(),
        "options": set(),
        "count": set(),
    }
    for _, tree in sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                literals = [
                    a.value
                    for a in node.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
                if name in ("command_name", "described") and literals:
                    found["command_name"].add(literals[0])
                    if name == "described":
                        found["described"].add(literals[0])
                elif name == "options" and len(literals) > 1:
                    found["options"] |= {f"{literals[0]} {option}" for option in literals[1:]}
                elif name == "count" and literals and re.fullmatch(r"[a-z]+", literals[-1]):
                    found[name].add(literals[-1])
    return found


def ids_lobby_ops() -> str:
    from bot.discord_ui import ids

    return ids.LOBBY.split("(?P<op>")[1].split(")")[0]


def fstring_pattern(node: ast.JoinedStr) -> str:
    """The f-string with each formatted value replaced by PLACEHOLDER."""
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
        else:
            parts.append(PLACEHOLDER)
    return "".join(parts)


def is_key_shaped(text: str) -> bool:
    if not KEY.fullmatch(text):
        return False
    return text.split(".")[0] in families() and text.rsplit(".", 1)[1] not in NOT_KEYS


def literal_keys() -> dict[str, set[str]]:
    """Key-shaped string literals, with where they are written."""
    found: dict[str, set[str]] = {}
    for path, tree in sources():
        fstring_parts = {
            id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values
        }
        # `command_name("config.show")` names a command; its key is checked by wrapped_keys.
        fstring_parts |= {
            id(a)
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and getattr(n.func, "id", "") in WRAPPERS
            for a in n.args
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in fstring_parts
                and is_key_shaped(node.value)
            ):
                found.setdefault(node.value, set()).add(str(path.relative_to(REPO)))
    return found


def wrapped_keys() -> set[str]:
    """Keys built by a wrapper from a literal: `command_name("x")`, `count("monster", n)`."""
    literals = wrapper_literals()
    keys = {f"command.{name}.name" for name in literals["command_name"]}
    keys |= {f"command.{name}.description" for name in literals["described"]}
    for command, option in (pair.split() for pair in literals["options"]):
        keys |= {f"command.{command}.option.{option}", f"command.{command}.option.{option}.name"}
    keys |= {f"count.{noun}_{form}" for noun in literals["count"] for form in ("one", "other")}
    return keys


def key_patterns() -> dict[str, set[str]]:
    """f-strings that build a key (their literal start is a catalog family)."""
    found: dict[str, set[str]] = {}
    for path, tree in sources():
        # The wrappers build their keys from their arguments: `wrapped_keys` checks those.
        inside_wrappers = {
            id(n)
            for f in ast.walk(tree)
            if isinstance(f, ast.FunctionDef) and f.name in WRAPPERS
            for n in ast.walk(f)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.JoinedStr) or id(node) in inside_wrappers:
                continue
            pattern = fstring_pattern(node)
            head = pattern.split(PLACEHOLDER)[0]
            if "." not in head or head.split(".")[0] not in families():
                continue
            if " " in pattern or not KEY.fullmatch(pattern.replace(PLACEHOLDER, "x")):
                continue
            found.setdefault(pattern, set()).add(str(path.relative_to(REPO)))
    return found


def resolves(pattern: str) -> bool:
    """Some choice of a domain per placeholder makes every value of the pattern a key."""
    holes = pattern.count(PLACEHOLDER)
    keys = catalog().keys
    for chosen in itertools.product(domains().values(), repeat=holes):
        ok = True
        for values in itertools.product(*chosen):
            key = pattern
            for value in values:
                key = key.replace(PLACEHOLDER, value, 1)
            if key not in keys:
                ok = False
                break
        if ok:
            return True
    return False


def test_the_scan_sees_the_code_it_checks() -> None:
    """A scan that found nothing would pass whatever the code says."""
    literals, patterns = literal_keys(), key_patterns()
    assert "panel.title" in literals
    assert "event.game_started" in literals
    assert f"location.{PLACEHOLDER}.{PLACEHOLDER}" in patterns
    assert f"card.{PLACEHOLDER}.help" in patterns
    assert "command.new.name" in wrapped_keys()
    assert "command.config.option.setting.name" in wrapped_keys()
    assert "command.config.set.description" in wrapped_keys()
    assert "count.monster_other" in wrapped_keys()
    assert all(domains().values()), {k: v for k, v in domains().items() if not v}


def test_every_literal_key_in_the_code_exists() -> None:
    missing = {k: sorted(w) for k, w in literal_keys().items() if not catalog().has(k)}
    missing |= {k: ["(wrapper)"] for k in wrapped_keys() if not catalog().has(k)}
    assert missing == {}


def test_every_key_pattern_in_the_code_resolves_for_its_whole_domain() -> None:
    unresolved = {
        p.replace(PLACEHOLDER, "{…}"): sorted(w)
        for p, w in key_patterns().items()
        if not resolves(p)
    }
    assert unresolved == {}


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (f"location.{PLACEHOLDER}", True),
        (f"location.{PLACEHOLDER}.{PLACEHOLDER}", True),
        (f"card.{PLACEHOLDER}.help", True),
        (f"card.{PLACEHOLDER}.helpx", False),
        (f"event.vote_won.{PLACEHOLDER}", True),
        (f"kind.{PLACEHOLDER}.colour", False),
    ],
)
def test_the_resolver_tells_a_filled_pattern_from_a_broken_one(
    pattern: str, expected: bool
) -> None:
    assert resolves(pattern) is expected


def test_a_missing_text_for_one_value_of_a_domain_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A seventh location with no name would make `location.{…}` fail."""
    seventh = {**domains(), "location": domains()["location"] | {"7"}}
    monkeypatch.setattr(f"{__name__}.domains", lambda: seventh)
    assert not resolves(f"location.{PLACEHOLDER}")
