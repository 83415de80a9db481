"""Discord's contract as the fake enforces it: the OpenAPI request schemas and the limits
the schema does not carry. Real discord.py sends; the fake refuses what Discord would."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

import discord
import pytest

from tests.fakediscord import FakeDiscord, serve, start_client
from tests.fakediscord.contract import discord_contract
from tests.fakediscord.fixtures import checked_fake
from tests.fakediscord.protocol import ContractViolation

SEND_PATH = "/channels/1/messages"


def _client() -> discord.Client:
    return discord.Client(intents=discord.Intents.none())


def _row(*custom_ids: str) -> dict[str, Any]:
    buttons = [{"type": 2, "style": 1, "label": "Go", "custom_id": c} for c in custom_ids]
    return {"type": 1, "components": buttons}


def _violation(body: Any, method: str = "POST", path: str = SEND_PATH) -> ContractViolation:
    with pytest.raises(ContractViolation) as caught:
        discord_contract().check(method, path, body)
    return caught.value


def test_snowflakes_may_be_integers_but_nothing_else_changes() -> None:
    contract = discord_contract()
    mentions = {"content": "hi", "allowed_mentions": {"parse": [], "users": [1234567890123]}}
    contract.check("POST", SEND_PATH, mentions)
    contract.check("POST", SEND_PATH, {"content": "hi", "attachments": [{"id": 0}]})
    contract.check("POST", SEND_PATH, {"content": "hi", "attachments": [{"id": "0"}]})
    for wrong in (-1, 2**64, "12a", True, 1.5):
        bad = {"content": "hi", "allowed_mentions": {"users": [wrong]}}
        assert _violation(bad).field == "allowed_mentions.users.0"
    # Integers stay refused where Discord wants text that is not a snowflake.
    assert _violation({"content": 5}).field == "content"


def test_unions_are_told_apart_by_type_with_the_same_verdict() -> None:
    contract = discord_contract()
    contract.check("POST", SEND_PATH, {"components": [_row("a", "b")]})
    unknown_kind = _violation({"components": [{"type": 99, "components": []}]})
    assert unknown_kind.field.startswith("components.0")
    no_style = {"type": 1, "components": [{"type": 2, "custom_id": "a", "label": "Go"}]}
    assert _violation({"components": [no_style]}).field.startswith("components.0.components.0")
    callback = "/interactions/1/token/callback"
    contract.check("POST", callback, {"type": 4, "data": {"content": "hello", "flags": 64}})
    contract.check("POST", callback, {"type": 6})
    assert _violation({"type": 42}, path=callback).field.startswith("type")
    modal_without_title = {"type": 9, "data": {"custom_id": "m", "components": []}}
    assert _violation(modal_without_title, path=callback).field.startswith("data")


def test_a_too_long_custom_id_is_caught_with_its_field() -> None:
    violation = _violation({"components": [_row("x" * 101)]})
    assert violation.field == "components.0.components.0.custom_id"
    assert violation.status == 400
    assert violation.code == 50035


def test_routes_without_a_body_schema_or_unknown_to_discord_pass() -> None:
    contract = discord_contract()
    contract.check("GET", "/users/@me", None)
    contract.check("POST", "/no/such/route", {"anything": True})
    assert contract.operation("GET", "/users/@me") == "/users/@me"
    assert contract.operation("GET", "/users/123") == "/users/{user_id}"
    assert contract.operation("PUT", "/channels/9/thread-members/@me") == (
        "/channels/{channel_id}/thread-members/@me"
    )


async def test_discord_py_breaking_the_schema_gets_a_400_and_the_violation_is_recorded() -> None:
    fake = FakeDiscord()
    guild = fake.create_guild(members=["ana"])
    general = guild.channel("general")
    async with serve(fake), start_client(_client(), fake) as client:
        channel = await _fetch_text(client, general.id)
        too_bright = discord.Embed(title="Board", colour=0x1000000)
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send(embed=too_bright)
        assert refused.value.status == 400
        assert refused.value.code == 50035
        assert "embeds.0.color" in refused.value.text
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Go", custom_id="y" * 101))
        with pytest.raises(discord.HTTPException, match="custom_id"):
            await channel.send("pick", view=view)
        who = discord.AllowedMentions(users=[discord.Object(guild.owner.id)])
        await channel.send(f"<@{guild.owner.id}>", allowed_mentions=who)  # ints: accepted
    assert [v.field for v in fake.contract_violations] == [
        "embeds.0.color",
        "components.0.components.0.custom_id",
    ]
    assert fake.contract_violations[0].route == "POST /channels/{channel_id}/messages"
    assert [m.content for m in fake.messages(general)] == [f"<@{guild.owner.id}>"]
    with pytest.raises(AssertionError, match=r"broke Discord's API contract.*embeds\.0\.color"):
        fake.assert_no_contract_violations()


async def test_the_documented_limits_the_schema_lacks_are_violations_too() -> None:
    fake = FakeDiscord()
    guild = fake.create_guild(members=["ana"])
    general = guild.channel("general")
    async with serve(fake), start_client(_client(), fake) as client:
        channel = await _fetch_text(client, general.id)
        crowded = discord.Embed(title="Hand")
        for n in range(6):
            crowded.add_field(name=f"Card {n}", value="w" * 1000)
        twins = discord.ui.View()
        twins.add_item(discord.ui.Button(label="A", custom_id="same"))
        twins.add_item(discord.ui.Button(label="B", custom_id="same"))
        long_value = discord.Embed(title="Hand").add_field(name="Hand", value="w" * 1025)
        for attempt in (
            channel.send(embed=crowded),
            channel.send("twins", view=twins),
            channel.send(embed=long_value),
            channel.send("x" * 2001),
        ):
            with pytest.raises(discord.HTTPException):
                await attempt
    fields = [v.field for v in fake.contract_violations]
    assert fields == ["embeds", "components.custom_id", "embeds.0.fields.0.value", "content"]
    assert "6000" in fake.contract_violations[0].reason


async def test_the_fixture_fails_a_test_whose_bot_broke_the_contract() -> None:
    async def a_test_whose_bot_shrugs_off_the_400() -> None:
        async with checked_fake() as fake:
            channel_id = fake.create_guild(members=["ana"]).channel("general").id
            async with start_client(_client(), fake) as client:
                channel = await _fetch_text(client, channel_id)
                with suppress(discord.HTTPException):
                    await channel.send(embed=discord.Embed(title="t" * 257))

    with pytest.raises(AssertionError, match=r"embeds\.0\.title"):
        await a_test_whose_bot_shrugs_off_the_400()


async def test_the_check_can_be_turned_off_for_a_test_that_means_to_break_it() -> None:
    fake = FakeDiscord()
    fake.contract_check = False
    guild = fake.create_guild(members=["ana"])
    async with serve(fake), start_client(_client(), fake) as client:
        channel = await _fetch_text(client, guild.channel("general").id)
        await channel.send(embed=discord.Embed(title="Board", colour=0x1000000))
    assert not fake.contract_violations


async def _fetch_text(client: discord.Client, channel_id: int) -> discord.TextChannel:
    """The channel as the client knows it (fetched: these clients ask for no intents)."""
    found = await client.fetch_channel(channel_id)
    assert isinstance(found, discord.TextChannel)
    return found
