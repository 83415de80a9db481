"""What grows with the game stays within Discord's limits: a long hand, the command menus."""

from __future__ import annotations

from discord import app_commands

from bot.app import LockdownBot
from bot.discord_ui.game.panel import hand_panel
from bot.discord_ui.limits import (
    COMMAND_CHOICES,
    CONTENT,
    EMBED_TOTAL,
    FIELD_VALUE,
    field_chunks,
    fit,
    message_chunks,
)
from bot.settings import Settings
from bot.texts import card_help
from bot.texts.panel_text import hand_lines
from lockdown_core import Step
from tests.core.builders import PARKING, at_turn, position
from tests.discord_ui.test_hand_panel import LONG_NAMES, table_of


def test_a_line_longer_than_a_field_is_cut_with_an_ellipsis() -> None:
    chunks = field_chunks(["a" * 1500, "b"])
    assert chunks == ["a" * (FIELD_VALUE - 1) + "…", "b"]


def test_a_text_that_fits_is_left_whole_and_a_longer_one_ends_in_an_ellipsis() -> None:
    assert fit("abc", 3) == "abc"
    assert fit("abcd", 3) == "ab…"
    assert len(fit("x" * 5000, CONTENT)) == CONTENT


def test_a_thread_s_lines_fill_messages_up_to_discord_s_content_limit_in_order() -> None:
    lines = [f"{i:03d} " + "y" * 95 for i in range(60)]  # 99 characters each
    chunks = message_chunks(lines)
    assert all(len(chunk) <= CONTENT for chunk in chunks)
    assert len(chunks) == 3, "20 lines of 99 and their newlines fill 1,999 characters"
    assert "\n".join(chunks).split("\n") == lines


def test_lines_are_never_split_between_fields() -> None:
    lines = [f"line {i} " + "x" * 300 for i in range(8)]
    chunks = field_chunks(lines)
    assert all(len(chunk) <= FIELD_VALUE for chunk in chunks)
    assert "\n".join(chunks).split("\n") == lines


def test_a_seven_card_french_hand_takes_several_whole_fields() -> None:
    state = position(
        {"blocker": PARKING, "leader": 1, "weeper": 2},
        {"blocker": 4, "leader": 5, "weeper": 3},
        {"blocker": 4, "leader": 5, "weeper": 2},
        badge=1,
        martyr=2,
    )
    at_turn(state)
    copies = [c.key for c in state.rules.cards for _ in range(c.copies)]
    longest = sorted(copies, key=lambda card: -len(card_help("fr", card, state.rules)))
    state.hands[0] = longest[:7]
    assert len("\n".join(hand_lines("fr", state.hands[0], state))) > FIELD_VALUE
    assert state.step != Step.GAME_OVER
    embed, _ = hand_panel(table_of(state, LONG_NAMES[:3]), 0, "fr", LONG_NAMES[:3], [])
    hand_fields = [f for f in embed.fields if f.name in (embed.fields[0].name, "\u200b")]
    assert len(hand_fields) >= 2, "seven French cards need more than one field"
    assert all(len(field.value or "") <= FIELD_VALUE for field in embed.fields)
    assert len(embed) <= EMBED_TOTAL
    hand_text = "\n".join(field.value or "" for field in hand_fields)
    assert hand_text.count("**") == 14, "every card of the hand is shown whole"


async def test_every_command_menu_has_at_most_25_choices() -> None:
    """Discord refuses a command with more than 25 choices, and the sync at start-up fails."""
    bot = LockdownBot(Settings(discord_token="fake-bot-token"))
    await bot.add_commands()
    seen = 0
    for command in bot.tree.walk_commands():
        if isinstance(command, app_commands.Command):
            for parameter in command.parameters:
                where = f"{command.qualified_name} {parameter.name}"
                assert len(parameter.choices) <= COMMAND_CHOICES, where
                seen += 1
    assert seen > 5
