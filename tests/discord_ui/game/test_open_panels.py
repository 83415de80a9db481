"""The seat's one panel is the newest click's, whatever order the answers return in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import discord
import pytest

from bot.discord_ui.game.panels import OpenPanels


@dataclass
class Click:
    """What the panels reads of an interaction: its snowflake id."""

    id: int


def click(snowflake: int) -> discord.Interaction[Any]:
    return cast(discord.Interaction[Any], Click(snowflake))


GAME, SEAT, STEP = 7, 2, "v12"


@pytest.mark.parametrize("first_answered", ["older", "newer"])
def test_the_newest_click_keeps_its_panel_in_either_order(first_answered: str) -> None:
    """An action on the old panel (click 100, its panel message 1) and My hand clicked
    before its answer returned (click 101, a new panel message 2): both answers'
    bookkeeping, in either order, leave message 2 kept and ask for message 1's removal."""
    panels = OpenPanels()
    older, newer = click(100), click(101)
    panels.keep(GAME, SEAT, click(50), 1, STEP)  # the panel the person acted on
    if first_answered == "older":
        removed = [panels.keep(GAME, SEAT, older, 1, STEP), panels.keep(GAME, SEAT, newer, 2, STEP)]
    else:
        removed = [panels.keep(GAME, SEAT, newer, 2, STEP), panels.keep(GAME, SEAT, older, 1, STEP)]
    # Message 1 may be asked to go twice (it was replaced, then lost): removal is idempotent.
    assert {p.message_id for p in removed if p is not None} == {1}
    kept = panels.current(GAME, SEAT, STEP)
    assert kept is not None
    assert kept.message_id == 2
    assert kept.interaction.id == 101


def test_a_late_answer_edited_on_the_kept_panel_removes_nothing() -> None:
    """A slower click whose answer edited the very panel a newer click keeps: one
    message, nothing to remove, the newer click still holds it."""
    panels = OpenPanels()
    assert panels.keep(GAME, SEAT, click(200), 5, STEP) is None
    assert panels.keep(GAME, SEAT, click(150), 5, STEP) is None
    kept = panels.current(GAME, SEAT, STEP)
    assert kept is not None
    assert kept.interaction.id == 200


def test_a_losing_answer_is_the_one_returned_for_removal() -> None:
    """The older click's new panel, registered after the newer one's, is the one to go:
    the caller knows it lost because the panel returned carries its own interaction."""
    panels = OpenPanels()
    newer, older = click(301), click(300)
    panels.keep(GAME, SEAT, newer, 9, STEP)
    loser = panels.keep(GAME, SEAT, older, 8, STEP)
    assert loser is not None
    assert loser.interaction is older
    assert loser.message_id == 8
