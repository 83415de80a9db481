"""No layer above the core writes a rule's number or logic: it asks `lockdown_core.facts`.

A copy of a rule outside the core goes wrong the day a variant changes it, and two
copies drift apart (the board and the lessons once disagreed on which locations were
about to close). The patterns below are the shapes such copies took: the six
locations as a literal range, the closing threshold's arithmetic, the seat counts, the
yes/no rules read off the ruleset's fields, and a board's defence, free spots or end
counted from a view and fed to `facts`' parts. `facts` and `board_facts` answer each.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("bot",)

COPIES = {
    "the locations (facts.locations, facts.closable_locations)": r"range\(1, ?[67]\)",
    "the closing warning (facts.closing_soon)": r"close_at\s*-\s*1",
    "the seat counts (facts.player_range)": r"\.(min|max)_players\b",
    "a yes/no rule (facts.ballots_open, badge_sees_dice, equal_from_start, martyr_to_owner)": (
        r"(?<!facts)\.(open_ballots|badge_sees_dice|attack_at_equal_from_start|martyr_rule)\b"
    ),
    "the Parking lot (facts.overflow, facts.parking_attack)": r"\.parking_lot\b|PARKING\w* = 6",
    "a board's answer put together from a view (lockdown_core.board_facts)": (
        r"\bfacts\.(free_spots|gets_in|strength|closing_soon|game_ends)\("
    ),
}


def copies() -> list[str]:
    found = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                found += [
                    f"{name}:{number}: {what}: {line.strip()}"
                    for what, pattern in COPIES.items()
                    if re.search(pattern, line)
                ]
    return found


def test_no_rule_is_written_outside_the_core() -> None:
    assert copies() == []


def test_the_scan_sees_a_copy() -> None:
    assert all(
        re.search(pattern, line)
        for pattern, line in zip(
            COPIES.values(),
            (
                "for loc in range(1, 7):",
                "if monsters >= rules.close_at - 1:",
                "MIN, MAX = rules.min_players, rules.max_players",
                "if state.rules.open_ballots:",
                "if loc == rules.parking_lot:",
                "free = facts.free_spots(rules, loc, here, closed=False)",
            ),
            strict=True,
        )
    )
