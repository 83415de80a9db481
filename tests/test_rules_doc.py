"""docs/rules.md defines every rule id that the tests and the code cite.

The tests name rules by id (`test_r7_7_...`, "R7.7" in a docstring or a
scenario's `covers`); a reader follows the id to docs/rules.md. An id cited
nowhere defined there (a typo, a rule renumbered) would send them nowhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"

DOTTED = re.compile(r"\bR(\d+)\.(\d+)\b")
IN_NAME = re.compile(r"(?<![A-Za-z0-9])[rR](\d+)_(\d+)(?=_|\b)")
ANCHOR = re.compile(r'<a id="(R\d+\.\d+)"></a>\*\*\1\*\*')


def cited_ids(text: str) -> set[str]:
    """Rule ids written as `R7.7` or inside a name as `r7_7`."""
    return {f"R{a}.{b}" for a, b in DOTTED.findall(text)} | {
        f"R{a}.{b}" for a, b in IN_NAME.findall(text)
    }


def citations(paths: Iterable[Path]) -> dict[str, set[str]]:
    """Each cited id -> the files citing it."""
    found: dict[str, set[str]] = {}
    for path in paths:
        for rule in cited_ids(path.read_text(encoding="utf-8")):
            found.setdefault(rule, set()).add(str(path.relative_to(ROOT)))
    return found


def defined_ids() -> list[str]:
    return ANCHOR.findall(RULES.read_text(encoding="utf-8"))


def sources() -> list[Path]:
    tests = [*(ROOT / "tests").rglob("*.py"), *(ROOT / "tests").rglob("*.json")]
    code = [*(ROOT / "lockdown_core").rglob("*.py"), *(ROOT / "bot").rglob("*.py")]
    return [path for path in tests + code if path.resolve() != Path(__file__).resolve()]


def test_the_id_patterns_read_names_docstrings_and_scenarios() -> None:
    assert cited_ids("def test_r7_7_parking(): 'R12.3 and r4_3'") == {"R7.7", "R12.3", "R4.3"}
    assert cited_ids('{"covers": ["R10.2"]}') == {"R10.2"}
    assert cited_ids("SR1.2 ver1_2 R1.2x") == set()


def test_every_rule_has_one_anchor() -> None:
    ids = defined_ids()
    assert len(ids) == len(set(ids)), "an id is defined twice"
    # R1 to R12, each with its rules.
    assert {rule.split(".")[0] for rule in ids} == {f"R{n}" for n in range(1, 13)}


def test_every_id_the_tests_and_the_code_cite_is_defined_in_docs_rules() -> None:
    found = citations(sources())
    # The tests cite most rules: a pattern that stopped matching would pass vacuously.
    assert len(found) > 50
    missing = {rule: sorted(where) for rule, where in found.items() if rule not in defined_ids()}
    assert not missing, f"cited but not in docs/rules.md: {missing}"
