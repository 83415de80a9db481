"""Golden playthroughs: the seeded games in tests/core/golden/ must replay line for line.

A difference means the engine now plays, tells or shows something else than
when the files were written. If that change is intended, regenerate the files
(the command is in the failure message) and commit them with the change.
"""

from __future__ import annotations

import difflib

import pytest

from tests.core.golden.make_golden import GAMES, GOLDEN_DIR, REGENERATE, GoldenGame, render

DIFF_LINES = 40


@pytest.mark.parametrize("spec", GAMES, ids=[g.name for g in GAMES])
def test_golden_playthrough_is_unchanged(spec: GoldenGame) -> None:
    assert spec.path.exists(), f"{spec.path.name} is missing: run `{REGENERATE}`"
    expected = spec.path.read_text(encoding="utf-8")
    actual = render(spec)
    if actual == expected:
        return
    diff = list(
        difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            f"{spec.path.name} (on disk)",
            f"{spec.path.name} (engine now)",
            n=2,
            lineterm="",
        )
    )
    shown = "\n".join(diff[:DIFF_LINES])
    more = f"\n... {len(diff) - DIFF_LINES} more diff lines" if len(diff) > DIFF_LINES else ""
    pytest.fail(
        f"{spec.path.name} no longer matches the engine.\n{shown}{more}\n"
        f"If the change is intended, regenerate with `{REGENERATE}` and commit the files "
        "saying why they changed.",
        pytrace=False,
    )


def test_no_stray_golden_files() -> None:
    """Every file in the folder is one of the games we replay, and nothing else."""
    on_disk = {p.name for p in GOLDEN_DIR.glob("*.txt")}
    assert on_disk == {g.path.name for g in GAMES}
