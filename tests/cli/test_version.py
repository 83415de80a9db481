"""bot/cli/version.py: `lockdown version` names the build and the Python."""

from __future__ import annotations

import platform
import tomllib
from pathlib import Path

import pytest

from bot.cli import main as cli

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_prints_the_project_version_and_the_python_version(
    capsys: pytest.CaptureFixture[str],
) -> None:
    project_version = tomllib.loads(PYPROJECT.read_text())["project"]["version"]
    assert cli.dispatch(["version"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"lockdown-bot {project_version}",
        f"Python {platform.python_version()} ({platform.python_implementation()})",
    ]
