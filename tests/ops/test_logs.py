"""bot/ops/logs.py: JSON lines with the game, guild and shard as fields; no voice noise."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Iterator

import pytest

from bot.ops.logs import (
    ContextFields,
    JsonFormatter,
    NoVoiceWarnings,
    configure_logging,
    current_fields,
    log_fields,
    set_log_fields,
)


def formatted(record: logging.LogRecord) -> dict[str, object]:
    line = JsonFormatter().format(record)
    assert "\n" not in line, "one record, one line"
    parsed = json.loads(line)
    assert isinstance(parsed, dict)
    return parsed


def record(message: str, *args: object, **extra: object) -> logging.LogRecord:
    made = logging.LogRecord("bot.table", logging.WARNING, __file__, 1, message, args, None)
    for name, value in extra.items():
        setattr(made, name, value)
    return made


def test_a_record_is_one_json_object_with_its_level_logger_and_message() -> None:
    line = formatted(record("game %s: lost a write race at version %s", 41, 7))
    assert line["level"] == "WARNING"
    assert line["logger"] == "bot.table"
    assert line["message"] == "game 41: lost a write race at version 7"
    assert str(line["time"]).endswith("+00:00")


def test_ids_set_around_the_code_are_fields_and_go_away_after() -> None:
    with log_fields(game_id=41, guild_id=10**17):
        line = formatted(record("stored"))
        with log_fields(shard_id=1):
            inner = formatted(record("stored"))
    after = formatted(record("stored"))
    assert (line["game_id"], line["guild_id"]) == (41, 10**17)
    assert "shard_id" not in line
    assert inner["shard_id"] == 1
    assert inner["game_id"] == 41
    assert "game_id" not in after


def test_an_explicit_extra_wins_over_the_context() -> None:
    with log_fields(game_id=1):
        line = formatted(record("x", game_id=2))
    assert line["game_id"] == 2


async def test_each_task_keeps_its_own_ids() -> None:
    seen: dict[int, dict[str, int]] = {}

    async def game(game_id: int) -> None:
        set_log_fields(game_id=game_id)
        await asyncio.sleep(0)
        seen[game_id] = current_fields()

    await asyncio.gather(game(1), game(2))
    assert seen == {1: {"game_id": 1}, 2: {"game_id": 2}}
    assert current_fields() == {}


def test_a_traceback_stays_inside_the_line() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        made = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    line = formatted(made)
    assert "ValueError: boom" in str(line["exception"])


def test_the_filter_puts_the_ids_on_the_record_where_it_was_logged() -> None:
    """A record formatted later, outside the block (a queue, another thread), keeps them."""
    made = record("stored")
    with log_fields(game_id=41, guild_id=7):
        assert ContextFields().filter(made)
    assert (made.game_id, made.guild_id) == (41, 7)  # type: ignore[attr-defined]
    assert formatted(made)["game_id"] == 41
    explicit = record("x", game_id=2)
    with log_fields(game_id=1):
        ContextFields().filter(explicit)
    assert explicit.game_id == 2  # type: ignore[attr-defined]


@pytest.fixture
def root_logger() -> Iterator[logging.Logger]:
    """The root logger, given back as it was (handlers, level, discord's filters)."""
    root = logging.getLogger()
    client = logging.getLogger("discord.client")
    level, handlers, filters = root.level, list(root.handlers), list(client.filters)
    try:
        yield root
    finally:
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)
        client.filters[:] = filters


@pytest.mark.usefixtures("root_logger")
@pytest.mark.parametrize("fmt", ["json", "text"])
def test_configure_logging_writes_the_chosen_format(
    fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    configure_logging("INFO", fmt)
    with log_fields(game_id=5):
        logging.getLogger("bot.test").info("hello")
    err = capsys.readouterr().err.strip().splitlines()[-1]
    if fmt == "json":
        assert json.loads(err)["game_id"] == 5
    else:
        assert err.endswith("INFO     bot.test: hello")


@pytest.mark.usefixtures("root_logger")
def test_discord_voice_warnings_are_dropped_and_nothing_else(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """discord.py warns at every start that voice is unsupported; the bot never speaks."""
    import discord
    from discord.voice_client import VoiceClient

    configure_logging("DEBUG", "text")
    client_log = logging.getLogger("discord.client")
    VoiceClient.warn_nacl = VoiceClient.warn_dave = True
    try:
        discord.Client(intents=discord.Intents.default())
    finally:
        VoiceClient.warn_nacl = VoiceClient.warn_dave = False
    client_log.warning("the gateway is slow")
    client_log.warning("%s is not installed, voice will NOT be supported", "a codec")
    lines = capsys.readouterr().err.strip().splitlines()
    assert [line.split("discord.client: ")[1] for line in lines] == [
        "the gateway is slow",
        "a codec is not installed, voice will NOT be supported",
    ]


@pytest.mark.usefixtures("root_logger")
def test_configuring_twice_adds_one_voice_filter() -> None:
    configure_logging("INFO", "text")
    configure_logging("INFO", "json")
    client_log = logging.getLogger("discord.client")
    assert sum(isinstance(f, NoVoiceWarnings) for f in client_log.filters) == 1
