"""The deployment files: the container image, compose.yaml and the systemd unit.

What an operator must otherwise find out alone is checked here: the image runs
as a user other than root, on the locked dependencies, listens for the
operators' endpoint on every interface (OPS_HOST=0.0.0.0) and checks its
health on /healthz; the compose file runs PostgreSQL with its data on a
volume and publishes the ops port; the unit never restarts on exit status 2
(a setting to correct). tests/image/ builds the image and starts it with compose.yaml.
"""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "compose.yaml"
UNIT = ROOT / "deploy" / "lockdown-bot.service"


def final_stage() -> list[str]:
    """The instructions of the Dockerfile's last stage, continuation lines joined."""
    text = DOCKERFILE.read_text(encoding="utf-8").replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines()]
    instructions = [line for line in lines if line and not line.startswith("#")]
    last_from = max(i for i, line in enumerate(instructions) if line.startswith("FROM "))
    return instructions[last_from:]


def instruction(stage: list[str], name: str) -> list[str]:
    return [line.removeprefix(f"{name} ") for line in stage if line.startswith(f"{name} ")]


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(UNIT, encoding="utf-8")
    return parser


def test_the_image_runs_as_a_user_of_its_own() -> None:
    (user,) = instruction(final_stage(), "USER")
    assert user not in ("root", "0")
    assert any("useradd" in line and user in line for line in instruction(final_stage(), "RUN"))


def test_the_image_serves_the_ops_endpoint_outside_and_checks_healthz() -> None:
    stage = final_stage()
    env = " ".join(instruction(stage, "ENV"))
    assert "OPS_HOST=0.0.0.0" in env
    assert "OPS_PORT=8080" in env
    assert "DATABASE_URL=sqlite+aiosqlite:////data/lockdown.db" in env
    (health,) = instruction(stage, "HEALTHCHECK")
    assert "/healthz" in health
    assert instruction(stage, "EXPOSE") == ["8080"]
    assert instruction(stage, "ENTRYPOINT") == ['["lockdown-bot"]']


def test_the_image_installs_the_locked_dependencies_with_postgres_and_no_dev_tools() -> None:
    text = DOCKERFILE.read_text(encoding="utf-8")
    syncs = [line for line in text.splitlines() if "uv sync" in line]
    assert syncs
    for line in syncs:
        assert "--locked" in line
        assert "--no-dev" in line
        assert "--extra postgres" in line


def build_stage_syncs() -> list[list[str]]:
    """The `uv sync` commands of the Dockerfile's build stage, in order."""
    text = DOCKERFILE.read_text(encoding="utf-8").replace("\\\n", " ")
    return [
        line.strip().removeprefix("RUN ").split()
        for line in text.splitlines()
        if line.startswith("RUN uv sync")
    ]


def test_the_build_stage_installs_a_bot_that_runs_without_the_checkout(tmp_path: Path) -> None:
    """The Dockerfile's own `uv sync` steps, run here without Docker: the dependencies
    from uv.lock alone, then the bot as a package (not editable), in an environment
    that still works once the sources are gone."""
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not on PATH")
    first, then = build_stage_syncs()
    source, venv, elsewhere = tmp_path / "src", tmp_path / "venv", tmp_path / "elsewhere"
    source.mkdir()
    elsewhere.mkdir()
    env = {
        **os.environ,
        "UV_PROJECT_ENVIRONMENT": str(venv),
        "UV_PYTHON_DOWNLOADS": "never",
        "UV_NO_PROGRESS": "1",
    }
    for name in ("pyproject.toml", "uv.lock"):
        shutil.copy(ROOT / name, source / name)
    subprocess.run([uv, *first[1:]], cwd=source, env=env, check=True, capture_output=True)
    for name in ("README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    for package in ("lockdown_core", "bot"):
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("*.pyc"))
    subprocess.run([uv, *then[1:]], cwd=source, env=env, check=True, capture_output=True)
    shutil.rmtree(source)

    python, script = venv / "bin" / "python", venv / "bin" / "lockdown-bot"
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "UV_"))}
    no_token = subprocess.run(
        [script], cwd=elsewhere, env=clean, capture_output=True, text=True, timeout=60
    )
    assert no_token.returncode == 2, no_token.stderr
    assert "DISCORD_TOKEN" in no_token.stderr
    loads = "import asyncpg, babel, bot.app, lockdown_core; print(bot.app.__file__)"
    found = subprocess.run(
        [python, "-c", loads], cwd=elsewhere, capture_output=True, text=True, timeout=60
    )
    assert found.returncode == 0, found.stderr
    assert Path(found.stdout.strip()).is_relative_to(venv)
    no_pytest = subprocess.run([python, "-c", "import pytest"], capture_output=True, timeout=60)
    assert no_pytest.returncode != 0, "the dev tools stay out of the image"


def test_the_build_context_leaves_settings_and_data_out() -> None:
    ignore = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    rules = [line for line in ignore if line and not line.startswith("#")]
    assert rules[0] == "*", "everything left out unless named"
    assert not any(".env" in rule or "data" in rule for rule in rules if rule.startswith("!"))
    # Everything the wheel is built from is let in (pyproject's readme and licence files).
    assert {"!pyproject.toml", "!uv.lock", "!README.md", "!LICENSE", "!bot/"} <= set(rules)


def test_compose_runs_postgresql_on_a_volume_and_publishes_the_ops_port() -> None:
    text = COMPOSE.read_text(encoding="utf-8")
    assert "image: postgres:" in text
    assert "postgres:/var/lib/postgresql/data" in text
    assert "\nvolumes:\n  postgres:" in text
    assert "DATABASE_URL: postgresql+asyncpg://lockdown:" in text
    assert "@db:5432/lockdown" in text
    assert "OPS_HOST: 0.0.0.0" in text
    assert '"127.0.0.1:8080:8080"' in text
    assert "condition: service_healthy" in text


def test_the_unit_does_not_restart_on_exit_status_2() -> None:
    service = unit()["Service"]
    assert service["Restart"] == "on-failure"
    assert service["RestartPreventExitStatus"] == "2"
    assert service["KillSignal"] == "SIGTERM"
    assert service["User"] not in ("root", "0")


def test_the_unit_starts_the_console_script_of_the_package() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    command = unit()["Service"]["ExecStart"].split()
    assert Path(command[0]).name in scripts
    assert scripts[Path(command[0]).name] == "bot.run:main"
    assert command[1:] == ["run"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    """systemd's own check, with ExecStart pointed at this checkout's console script."""
    script = shutil.which("lockdown-bot", path=str(Path(sys.executable).parent))
    assert script is not None
    text = UNIT.read_text(encoding="utf-8")
    copy = tmp_path / "lockdown-bot.service"
    copy.write_text(text.replace("/opt/lockdown-bot/bin/lockdown-bot", script))
    checked = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(copy)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr
    assert "lockdown-bot.service" not in checked.stderr, checked.stderr
