"""Every slash command in the pseudo-locale, in a channel and in a game's thread, by a
moderator and by a player: every answer and every refusal is a catalog text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.texts.pseudo import PSEUDO
from tests.discord_ui.players import open_and_start
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.actions import ImpossibleAction
from tests.pseudo import closed, leaks
from tests.pseudo.screens import LABELS, seen_texts

pytestmark = pytest.mark.e2e

PEOPLE = ["ana", "bo"]
# `/lockdown simulate`'s table names its columns A, B... (each letter's series is told
# first, in words): symbols, like numbers.
COLUMNS = ["A", "B", "C"]


def subcommands(
    command: dict[str, Any], sample: dict[int, Any]
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each runnable path under a synced command ("config show"), with its required
    options filled with `sample`'s value for their type (or their first choice)."""
    children = [o for o in command.get("options", []) if o["type"] in (1, 2)]
    if not children:
        required = {
            o["name"]: (o["choices"][0]["value"] if o.get("choices") else sample[o["type"]])
            for o in command.get("options", [])
            if o.get("required")
        }
        yield "", required
        return
    for child in children:
        for path, options in subcommands(child, sample):
            yield f"{child['name']} {path}".strip(), options


async def test_every_command_answers_with_catalog_texts(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=PEOPLE, locale=PSEUDO)
    ana, bo = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo], 1, general)
        # A string, an integer, a boolean, a person, a channel, a role, a number.
        sample = {3: "x", 4: 1, 5: True, 6: bo, 7: general, 8: guild.roles[0], 10: 1.0}
        ran = 0
        for command in fake_discord.commands():
            for path, options in subcommands(command, sample):
                for user in (bo, ana):
                    for channel in (game.thread, general):
                        try:
                            await fake_discord.slash(
                                user,
                                command["name"],
                                subcommand=path or None,
                                options=options,
                                channel=channel,
                            )
                        except ImpossibleAction:
                            continue
                        ran += 1
        await fake_discord.settle()
        assert ran > 40, ran
    found = {
        (where, text)
        for where, text in seen_texts(fake_discord)
        if leaks(closed(text) if where in LABELS else text, [*PEOPLE, "Club", "general", *COLUMNS])
    }
    assert sorted(found) == []
