"""The thread check itself: it passes a thread that shows each line once, in order, and
fails every other, but for the one overlap a killed process may leave behind."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.discord_ui.thread_check import StoredLine, assert_each_line_once_in_order

T0 = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)
EXPECTED = [StoredLine(text, None) for text in ("a", "b", "c", "d")]


def shown(*lines: str, kill_after: int | None = None) -> list[tuple[str, datetime]]:
    """The lines at one second apart; those past `kill_after` come after a kill at 10 s."""
    return [
        (line, T0 + timedelta(seconds=i if kill_after is None or i < kill_after else 20 + i))
        for i, line in enumerate(lines)
    ]


KILL = T0 + timedelta(seconds=10)


def test_each_line_once_in_order_passes() -> None:
    assert_each_line_once_in_order(EXPECTED, shown("a", "b", "c", "d"))


@pytest.mark.parametrize(
    "lines",
    [("a", "b", "c"), ("a", "c", "b", "d"), ("a", "b", "b", "c", "d")],
    ids=["missing", "out of order", "twice"],
)
def test_a_missing_misplaced_or_repeated_line_fails(lines: tuple[str, ...]) -> None:
    with pytest.raises(AssertionError):
        assert_each_line_once_in_order(EXPECTED, shown(*lines))


def test_after_a_kill_the_tail_shown_before_it_may_be_shown_again() -> None:
    lines = shown("a", "b", "c", "b", "c", "d", kill_after=3)
    assert_each_line_once_in_order(EXPECTED, lines, KILL)


@pytest.mark.parametrize(
    "lines",
    [("a", "b", "c", "a", "d"), ("a", "b", "c", "b", "d"), ("a", "b", "b", "c", "d")],
    ids=["not the tail", "part of the tail only", "repeated before the kill"],
)
def test_after_a_kill_any_other_repeat_still_fails(lines: tuple[str, ...]) -> None:
    with pytest.raises(AssertionError):
        assert_each_line_once_in_order(EXPECTED, shown(*lines, kill_after=3), KILL)
