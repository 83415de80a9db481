"""Shared by every test: the developer's own bot settings never reach a test."""

from __future__ import annotations

import pytest

from bot.settings import Settings


@pytest.fixture(autouse=True)
def _no_local_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hide the setting variables and the `.env` file of the machine running the tests.

    Otherwise a real DISCORD_TOKEN or DEV_GUILD_ID would change what the tests
    see, and a test could end up holding a real token. Tests that read a `.env`
    pass one explicitly (`Settings(_env_file=...)`) or run a subprocess.
    """
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.setitem(Settings.model_config, "env_file", None)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist, the tests that may start a bot on PostgreSQL share one worker.

    Such a bot takes PostgreSQL's advisory locks for its shards, and their keys are
    the same in every test schema: two of these tests at once, on two workers, would
    each find the other's shards taken.
    """
    for item in items:
        if "postgres" in item.nodeid or item.nodeid.startswith("tests/ops/"):
            item.add_marker(pytest.mark.xdist_group("postgres"))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The container image's size, once tests/image/ built it: the operators' figure."""
    for report in terminalreporter.stats.get("passed", []):
        recorded = dict(report.user_properties)
        if "image_size_bytes" in recorded:
            size, base = recorded["image_size_bytes"], recorded["base_size_bytes"]
            terminalreporter.write_line(
                f"lockdown-bot image: {size / 1e6:.0f} MB, {(size - base) / 1e6:.0f} MB over "
                f"its base python:3.11-slim; built in {recorded['image_build_seconds']} s"
            )
            return
