"""A click on a button no component of this version answers (an old version's id, a
forged one) is told privately, in the reader's language, that the button is no longer
active, where Discord would only say "This interaction failed"; nothing changes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.discord_ui import ids
from bot.texts import t
from tests.discord_ui.test_games_e2e import make_bot
from tests.discord_ui.test_lobby_fill_e2e import button, open_lobby
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.protocol import CallbackType
from tests.syntax import parse

DISCORD_UI = Path(__file__).resolve().parents[2] / "bot" / "discord_ui"


def test_every_id_the_bot_draws_is_live_and_others_are_not() -> None:
    drawn = [
        ids.hand(41),
        ids.act(41, "0123abcd", "M3"),
        ids.group(41, "0123abcd", "M"),
        ids.lobby(7, "join"),
        ids.abort(41),
        ids.seat(41, "leave"),
        ids.take(41, 2),
        ids.approval(41, 2, 99, "yes"),
        ids.variants(7),
        ids.play_again(41),
    ]
    assert all(ids.is_live(custom_id) for custom_id in drawn)
    for stale in ("ld:k:41", "ld:l:7:dance", "ld:h:41:old", "ld:h:", "other:1", ""):
        assert not ids.is_live(stale), stale


def test_every_registered_template_is_one_ids_calls_live() -> None:
    """Each persistent component's `template=` is one of `ids.LIVE`: a component added
    without it would have its clicks told that it is no longer active."""
    live = {pattern.pattern for pattern in ids.LIVE}
    found = 0
    for path in DISCORD_UI.rglob("*.py"):
        for node in ast.walk(parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            for keyword in node.keywords:
                if keyword.arg != "template" or node.name == "PersistentButton":
                    continue
                assert isinstance(keyword.value, ast.Attribute), node.name
                assert isinstance(keyword.value.value, ast.Name), node.name
                assert keyword.value.value.id == "ids", node.name
                assert getattr(ids, keyword.value.attr) in live, node.name
                found += 1
    assert found == len(ids.LIVE)


@pytest.mark.e2e
async def test_a_click_on_a_button_of_an_old_version_is_told_it_is_no_longer_active(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    (ana,) = guild.members
    luc = fake_discord.add_member(guild, "luc", locale="fr")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        card = await open_lobby(fake_discord, ana, guild.channel("general"))
        lobby_id = int(button(card, "join").split(":")[2])
        # The card as an older version drew it: its Join button had another id.
        card.component(button(card, "join"))["custom_id"] = f"ld:k:{lobby_id}:join"
        seen = len(card.versions)

        for user, lang in ((ana, "en"), (luc, "fr")):
            ix = await fake_discord.click(user, card, f"ld:k:{lobby_id}:join")
            assert ix.answered_in_time
            assert ix.response_type is CallbackType.CHANNEL_MESSAGE
            assert ix.ephemeral
            assert ix.original is not None
            assert ix.original.content == t(lang, "error.button_inactive")

        assert len(card.versions) == seen  # the card is as it was
        lobby = bot.hub.lobbies[lobby_id]
        assert [s.user_id for s in lobby.seats] == [ana.id]  # nobody joined
