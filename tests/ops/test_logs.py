"""bot/ops/logs.py: JSON lines with the game, guild and shard as fields."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from bot.ops.logs import JsonFormatter, current_fields, log_fields, set_log_fields


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
        import sys

        made = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    line = formatted(made)
    assert "ValueError: boom" in str(line["exception"])


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_configure_logging_writes_the_chosen_format(
    fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.ops.logs import configure_logging

    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    try:
        configure_logging("INFO", fmt)
        with log_fields(game_id=5):
            logging.getLogger("bot.test").info("hello")
    finally:
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)
    err = capsys.readouterr().err.strip().splitlines()[-1]
    if fmt == "json":
        assert json.loads(err)["game_id"] == 5
    else:
        assert err.endswith("INFO     bot.test: hello")
