"""compose.yaml runs lockdown-web beside the bot, on the same database, behind its profile."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def service(name: str) -> str:
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    block = text.split(f"\n  {name}:\n", 1)[1]
    return block.split("\n\n", 1)[0]


def test_the_web_service_reads_the_bots_database_with_the_console_script() -> None:
    web, bot = service("web"), service("bot")
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["lockdown-web"] == "bot.web.main:main"
    assert 'entrypoint: ["lockdown-web"]' in web
    assert "image: lockdown-bot" in web
    database = next(line for line in bot.splitlines() if "DATABASE_URL:" in line)
    assert database in web.splitlines()
    assert "WEB_HOST: 0.0.0.0" in web
    assert '"127.0.0.1:8081:8080"' in web
    assert "condition: service_healthy" in web
    assert 'profiles: ["web"]' in web
