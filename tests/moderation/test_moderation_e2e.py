"""Moderators and the shared history on the fake Discord, with the fast clock.

Each test keeps its database in a file so that a second bot can be started on
it, as after a restart.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.app import LockdownBot
from bot.settings import Settings
from bot.table.timers import TableConfig
from bot.texts import t
from bot.texts.catalog import LANGUAGES, or_list
from tests.discord_ui.clock import FastScheduler
from tests.discord_ui.players import Game, open_and_start, play_by_clicking
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.protocol import CallbackType
from tests.fakediscord.records import FakeChannel, FakeInteraction, FakeMessage, FakeUser

pytestmark = pytest.mark.e2e


def make_bot(db: Path) -> LockdownBot:
    settings = Settings(discord_token="fake-bot-token", database_url=f"sqlite+aiosqlite:///{db}")
    return LockdownBot(
        settings,
        scheduler=FastScheduler(),
        config=TableConfig(ai_delay=1.0),
        batch_delay=0.01,
        edit_interval=0.0,
    )


async def answer_text(fake: FakeDiscord, ix: FakeInteraction) -> str:
    """What the bot answered (message, embeds, follow-ups) as a reader sees it, once a
    deferred answer has replaced its "thinking" placeholder. A click deferred as an
    update is answered by its follow-ups: its original is the message clicked."""
    if ix.response_type is CallbackType.DEFERRED_UPDATE_MESSAGE:
        await fake.wait_until(lambda: bool(ix.followups), within=5)
        return "\n".join(m.text for m in ix.followups)
    await fake.wait_until(
        lambda: (ix.original is not None and not ix.original.loading) or bool(ix.followups),
        within=5,
    )
    messages = [m for m in (ix.original, *ix.followups) if m is not None]
    return "\n".join(m.text for m in messages)


async def configure(
    fake: FakeDiscord, user: FakeUser, channel: FakeChannel, setting: str, value: str
) -> str:
    ix = await fake.slash(
        user,
        "lockdown",
        subcommand="config set",
        options={"setting": setting, "value": value},
        channel=channel,
    )
    assert ix.answered_in_time
    assert ix.ephemeral
    return await answer_text(fake, ix)


async def unlock(fake: FakeDiscord, user: FakeUser, channel: FakeChannel, *variants: str) -> None:
    """A moderator unlocks `variants` on the server (`/lockdown config variant`)."""
    for variant in variants:
        await fake.slash(
            user,
            "lockdown",
            subcommand="config variant",
            options={"variant": variant, "state": "unlock"},
            channel=channel,
        )


def recap(fake: FakeDiscord, game: Game) -> FakeMessage:
    wanted = f"ld:p:{game.table.game_id}"
    for message in fake.messages(game.thread):
        if any(b.custom_id == wanted for b in message.buttons):
            return message
    raise AssertionError("no end-of-game message")


async def play_to_the_end(fake: FakeDiscord, game: Game, seed: int) -> FakeMessage:
    await play_by_clicking(game, random.Random(seed))
    assert await fake.wait_until(lambda: _has_recap(fake, game), within=10)
    return recap(fake, game)


def _has_recap(fake: FakeDiscord, game: Game) -> bool:
    try:
        recap(fake, game)
    except AssertionError:
        return False
    return True


async def test_a_member_without_manage_server_is_refused_whatever_discord_lets_through(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path / "db.sqlite"), fake_discord) as bot:
        # Discord cannot hide a subcommand group; the server lets everyone run /lockdown.
        for sub in ("config show", "config set", "config variant"):
            options = {"config set": {"setting": "language", "value": "fr"}}.get(sub, {})
            if sub == "config variant":
                options = {"variant": "hush", "state": "unlock"}
            ix = await fake_discord.slash(
                bo, "lockdown", subcommand=sub, options=options, channel=general
            )
            assert ix.answered_in_time
            assert ix.ephemeral
            assert t("en", "error.not_moderator") in await answer_text(fake_discord, ix)
        config = await bot.desk.book.config(guild.id)
        assert config.language == "en"
        assert not [s for s in await bot.desk.book.variants(guild.id) if s.unlocked]
        assert await bot.desk.book.history(guild.id) == []
        text = await configure(fake_discord, ana, general, "language", "fr")
        # Moderator menus read the server's language: French from this answer on.
        assert t("fr", "config.changed", setting=t("fr", "setting.language"), value="fr") in text
        history = await bot.desk.book.history(guild.id)
        assert [(c.user_id, c.key, c.new) for c in history] == [(ana.id, "language", "fr")]


async def test_out_of_range_settings_are_refused_with_the_range(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    ana = guild.owner
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path / "db.sqlite"), fake_discord) as bot:
        for setting, value, key, params in (
            ("timer_discussion", "14", "error.timer_range", {"minimum": 15, "maximum": 1800}),
            ("timer_other", "1801", "error.timer_range", {"minimum": 15, "maximum": 1800}),
            ("timer_card_window", "121", "error.timer_range", {"minimum": 15, "maximum": 120}),
            ("language", "pt", "error.setting_language", {"allowed": or_list("en", LANGUAGES)}),
            ("allow_ai", "perhaps", "error.setting_flag", {"allowed": "on or off"}),
            ("variants_offered", "moonwalk", "error.variant_unknown", {}),
        ):
            text = await configure(fake_discord, ana, general, setting, value)
            assert t("en", key, **params) in text
        assert await bot.desk.book.history(guild.id) == []


async def test_settings_survive_a_restart_and_new_lobbies_use_them(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite"
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general", "games"))
    ana, bo = guild.members
    general, games = guild.channel("general"), guild.channel("games")
    async with start_client(make_bot(db), fake_discord):
        await configure(fake_discord, ana, general, "timer_discussion", "120")
        await configure(fake_discord, ana, general, "language", "fr")
        await configure(fake_discord, ana, general, "allow_ai", "off")
        told = await configure(fake_discord, ana, general, "channels", f"<#{games.id}>")
        assert f"<#{games.id}>" in told, "the channel as Discord shows it, not its id"
    async with start_client(make_bot(db), fake_discord) as bot:
        show = await fake_discord.slash(ana, "lockdown", subcommand="config show", channel=general)
        assert "120" in await answer_text(fake_discord, show)
        refused = await fake_discord.slash(bo, "lockdown", subcommand="new", channel=general)
        assert t("en", "error.lobby_channel", channels=f"<#{games.id}>") in await answer_text(
            fake_discord, refused
        )
        await fake_discord.slash(bo, "lockdown", subcommand="new", channel=games)
        assert await fake_discord.wait_until(lambda: bool(bot.hub.lobbies), within=5)
        lobby = next(iter(bot.hub.lobbies.values()))
        assert not lobby.allow_ai
        thread = fake_discord.threads()[-1]
        assert await fake_discord.wait_until(lambda: bool(fake_discord.messages(thread)), within=5)
        assert t("fr", "lobby.title") in str(fake_discord.messages(thread)[0])
        await configure(fake_discord, ana, general, "allow_ai", "on")
        role = f"<@&{guild.moderator_role.id}>"
        told = await configure(
            fake_discord, ana, general, "host_role", str(guild.moderator_role.id)
        )
        assert role in told, "the role as Discord shows it, not its id"
        show = await fake_discord.slash(ana, "lockdown", subcommand="config show", channel=general)
        history = await answer_text(fake_discord, show)
        assert f"<#{games.id}>" in history
        assert str(games.id) not in history.replace(f"<#{games.id}>", ""), "never a bare id"
        refused = await fake_discord.slash(bo, "lockdown", subcommand="new", channel=games)
        assert t("en", "error.lobby_host_role", role=f"<@&{guild.moderator_role.id}>") in (
            await answer_text(fake_discord, refused)
        )


async def test_the_campaign_unlocks_one_new_epilogue_per_game_and_its_variant(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path / "db.sqlite"), fake_discord) as bot:
        book = bot.desk.book
        seen: list[str] = []
        for number in range(3):
            game = await open_and_start(fake_discord, bot, ana, [bo], 1, general)
            message = await play_to_the_end(fake_discord, game, number)
            unlocked = await book.unlocked_epilogues(guild.id)
            assert len(unlocked) == number + 1
            assert len(set(unlocked)) == len(unlocked)
            code = unlocked[-1]
            assert code not in seen
            seen.append(code)
            text = message.text
            assert t("en", f"epilogue.{code}.story") in text
            assert str(game.table.seed) in text
            assert f"lockdown replay --game {game.table.game_id}" in text
        listing = await fake_discord.slash(bo, "lockdown", subcommand="epilogues", channel=general)
        listed = await answer_text(fake_discord, listing)
        for code in seen:
            line = t("en", "epilogues.unlocked", code=code, title=t("en", f"epilogue.{code}.title"))
            assert line in listed
        assert listed.count("✅") == len(seen)
        statuses = {s.epilogue: s for s in await book.variants(guild.id)}
        for code in seen:
            if code in statuses:
                assert statuses[code].unlocked


async def test_stats_leaderboard_and_play_again_after_games(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path / "db.sqlite"), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo], 1, general)
        message = await play_to_the_end(fake_discord, game, 7)
        book = bot.desk.book
        for _ in range(50):  # the results are stored as the game ends, give it a moment
            if (await book.user_stats(guild.id, bo.id)).games:
                break
            await fake_discord.settle(quiet=0.05)
        stats = await book.user_stats(guild.id, bo.id)
        assert stats.games == 1
        result = game.table.state.result
        assert result is not None
        bo_seat = next(s.seat for s in game.table.seats if s.user_id == bo.id)
        assert stats.wins == int(bo_seat in result["winners"])
        assert stats.total_score == result["scores"][bo_seat]
        shown = await fake_discord.slash(
            ana, "lockdown", subcommand="stats", options={"user": bo}, channel=general
        )
        assert t("en", "stats.title", name="bo") in await answer_text(fake_discord, shown)
        board = await fake_discord.slash(cy, "lockdown", subcommand="leaderboard", channel=general)
        assert f"<@{ana.id}>" in await answer_text(fake_discord, board)
        # Play again: a stranger may not; a seated player opens the same seats.
        stranger = await fake_discord.click(cy, message, f"ld:p:{game.table.game_id}")
        assert t("en", "error.not_seated") in await answer_text(fake_discord, stranger)
        before = len(fake_discord.threads())
        again = await fake_discord.click(bo, message, f"ld:p:{game.table.game_id}")
        assert again.answered_in_time
        assert await fake_discord.wait_until(lambda: len(fake_discord.threads()) > before, within=5)
        assert await fake_discord.wait_until(lambda: bool(bot.hub.lobbies), within=5)
        lobby = next(iter(bot.hub.lobbies.values()))
        assert lobby.host_id == bo.id
        assert [(s.user_id, s.ai_kind) for s in lobby.seats] == [
            (s.user_id, s.ai_kind) for s in game.table.seats
        ]


async def test_the_host_picks_an_unlocked_variant_in_the_lobby(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path / "db.sqlite"), fake_discord) as bot:
        ix = await fake_discord.slash(
            ana,
            "lockdown",
            subcommand="config variant",
            options={"variant": "hush", "state": "unlock"},
            channel=general,
        )
        assert t("en", "config.variant_unlock", name="Hush") in await answer_text(fake_discord, ix)
        listing = await fake_discord.slash(bo, "lockdown", subcommand="variants", channel=general)
        assert t("en", "variant.hush.change") in await answer_text(fake_discord, listing)
        await fake_discord.slash(bo, "lockdown", subcommand="new", channel=general)
        assert await fake_discord.wait_until(lambda: bool(bot.hub.lobbies), within=5)
        thread = fake_discord.threads()[-1]
        assert await fake_discord.wait_until(lambda: bool(fake_discord.messages(thread)), within=5)
        lobby_message = fake_discord.messages(thread)[0]
        lobby_id = next(iter(bot.hub.lobbies))
        select_id = f"ld:v:{lobby_id}"
        assert lobby_message.component(select_id) is not None
        not_host = await fake_discord.select(cy, lobby_message, select_id, ["hush"])
        refusal = t("en", "error.lobby_not_host_variants")
        assert refusal in await answer_text(fake_discord, not_host)
        assert bot.hub.lobbies[lobby_id].variants == []
        picked = await fake_discord.select(bo, lobby_message, select_id, ["hush"])
        assert picked.answered_in_time
        assert bot.hub.lobbies[lobby_id].variants == ["hush"]
        await fake_discord.click(cy, lobby_message, f"ld:l:{lobby_id}:join")
        await fake_discord.click(bo, lobby_message, f"ld:l:{lobby_id}:ai")
        await fake_discord.click(bo, lobby_message, f"ld:l:{lobby_id}:start")
        # The click is answered (deferred) before the game is dealt: wait for the table.
        assert await fake_discord.wait_until(lambda: bot.hub.table_in(thread.id) is not None)
        table = bot.hub.table_in(thread.id)
        assert table is not None
        assert table.state.rules.variants == ("hush",)


async def test_play_again_still_works_after_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite"
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    async with start_client(make_bot(db), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo], 1, guild.channel("general"))
        message = await play_to_the_end(fake_discord, game, 11)
        seats = [(s.user_id, s.ai_kind) for s in game.table.seats]
        game_id = game.table.game_id
    async with start_client(make_bot(db), fake_discord) as bot:
        again = await fake_discord.click(ana, message, f"ld:p:{game_id}")
        assert again.answered_in_time
        assert await fake_discord.wait_until(lambda: bool(bot.hub.lobbies), within=5)
        lobby = next(iter(bot.hub.lobbies.values()))
        assert lobby.host_id == ana.id
        assert [(s.user_id, s.ai_kind) for s in lobby.seats] == seats


async def test_combined_variants_and_open_designations_reach_the_game(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path / "db.sqlite"), fake_discord) as bot:
        await unlock(fake_discord, ana, general, "hush", "armoury", "spare_keys")
        await configure(fake_discord, ana, general, "variants_offered", "hush armoury")
        await configure(fake_discord, ana, general, "combine_variants", "on")
        await configure(fake_discord, ana, general, "open_designations", "on")
        await fake_discord.slash(bo, "lockdown", subcommand="new", channel=general)
        assert await fake_discord.wait_until(lambda: bool(bot.hub.lobbies), within=5)
        thread = fake_discord.threads()[-1]
        assert await fake_discord.wait_until(lambda: bool(fake_discord.messages(thread)), within=5)
        lobby_message = fake_discord.messages(thread)[0]
        lobby_id = next(iter(bot.hub.lobbies))
        menu = lobby_message.component(f"ld:v:{lobby_id}")
        assert menu is not None
        assert sorted(o["value"] for o in menu["options"]) == ["armoury", "hush"]
        await fake_discord.select(bo, lobby_message, f"ld:v:{lobby_id}", ["hush", "armoury"])
        assert bot.hub.lobbies[lobby_id].variants == ["hush", "armoury"]
        await fake_discord.click(ana, lobby_message, f"ld:l:{lobby_id}:join")
        await fake_discord.click(bo, lobby_message, f"ld:l:{lobby_id}:ai")
        await fake_discord.click(bo, lobby_message, f"ld:l:{lobby_id}:start")
        # The click is answered (deferred) before the game is dealt: wait for the table.
        assert await fake_discord.wait_until(lambda: bot.hub.table_in(thread.id) is not None)
        table = bot.hub.table_in(thread.id)
        assert table is not None
        assert table.state.rules.variants == ("hush", "armoury", "open_ballots")
