"""The container image, built from the Dockerfile and started with compose.yaml.

The image is built here and started as an operator would start it: `compose.yaml`'s
bot and PostgreSQL, with `compose.hostnet.yaml` beside this file as the override
that puts both on the host network and points discord.py at the fake Discord on
loopback. A game is opened and played through the fake, the bot stops on SIGTERM
with status 0, and after `compose down` and `up` again (new containers, the same
volume) it resumes the game where it was and plays on. Without a token, the image
exits 2 with the sentence that says how to get one.

Docker: where `../shared/tools/standin-images` sits beside the repository and the
tests run as root (CI), it is run first: it installs Docker and Compose from
Debian's packages, starts the daemon without a bridge network and builds stand-in
base images (no container registry is needed). Elsewhere the tests use the Docker
that answers, or skip, saying why. The image is built once: a second pytest-xdist
worker waits on a file lock, then finds every layer built. Its size is printed at
the end of the run.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import random
import secrets
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.run import NO_TOKEN
from bot.storage.database import Database
from tests.fakediscord import FakeDiscord
from tests.ops.test_processes import click_moves, free_port, open_game, stored

pytestmark = [pytest.mark.docker, pytest.mark.xdist_group("docker")]

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "compose.yaml"
OVERRIDE = Path(__file__).with_name("compose.hostnet.yaml")
STANDIN_TOOL = ROOT.parent / "shared" / "tools" / "standin-images"
IMAGE = "lockdown-bot:test"
# On every image this module builds, so that the previous run's image can be pruned.
LABEL = "lockdown-bot.test-image=1"
# Two pytest-xdist workers (or two checkouts) must not set Docker up or build at once.
SETUP_LOCK = Path(tempfile.gettempdir()) / f"lockdown-bot-image-test-{os.getuid()}.lock"


@dataclass(frozen=True)
class BuiltImage:
    tag: str
    size_bytes: int
    base_size_bytes: int
    build_seconds: float
    compose_command: list[str]


def docker(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["docker", *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def compose_command() -> list[str] | None:
    """Compose v1 (`docker-compose`, Debian's) or v2 (`docker compose`), whichever is here."""
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    if docker("compose", "version").returncode == 0:
        return ["docker", "compose"]
    return None


def docker_here() -> str | None:
    """Why the image cannot be built and started here, or None when it can."""
    if STANDIN_TOOL.is_file() and os.geteuid() == 0:
        setup = subprocess.run(
            [str(STANDIN_TOOL), "all"], capture_output=True, text=True, timeout=900, check=False
        )
        assert setup.returncode == 0, f"{STANDIN_TOOL.name} failed:\n{setup.stderr[-3000:]}"
    hint = f"(as root, {STANDIN_TOOL} installs it)"
    if shutil.which("docker") is None:
        return f"the docker command is not installed {hint}"
    info = docker("info", "--format", "{{.ServerVersion}}", timeout=30)
    if info.returncode != 0:
        return f"no Docker daemon answers {hint}: {info.stderr.strip()[-300:]}"
    if compose_command() is None:
        return f"neither docker-compose nor docker compose is installed {hint}"
    return None


@contextmanager
def setup_lock() -> Iterator[None]:
    with SETUP_LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@pytest.fixture(scope="session")
def built_image() -> BuiltImage:
    """The image built from the Dockerfile, on the host network (there may be no other)."""
    with setup_lock():
        why_not = docker_here()
        if why_not is not None:
            pytest.skip(f"cannot build the image: {why_not}")
        started = time.monotonic()
        built = docker(
            "build", "--network", "host", "--label", LABEL, "--tag", IMAGE, str(ROOT), timeout=900
        )
        assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
        build_seconds = time.monotonic() - started
        # The previous run's image, untagged by this build, and its layers of our code.
        docker("image", "prune", "--force", "--filter", f"label={LABEL}")
    size, base = (
        int(docker("image", "inspect", "--format", "{{.Size}}", tag).stdout)
        for tag in (IMAGE, "python:3.11-slim")
    )
    command = compose_command()
    assert command is not None
    return BuiltImage(IMAGE, size, base, build_seconds, command)


@pytest.fixture
def image(built_image: BuiltImage, record_property: Callable[[str, object], None]) -> BuiltImage:
    """The image, its size and build time recorded for the run's summary (tests/conftest.py)."""
    record_property("image_size_bytes", built_image.size_bytes)
    record_property("base_size_bytes", built_image.base_size_bytes)
    record_property("image_build_seconds", round(built_image.build_seconds, 1))
    return built_image


def test_the_image_runs_as_its_own_user_without_the_dev_tools(image: BuiltImage) -> None:
    uid = docker("run", "--rm", "--network", "none", "--entrypoint", "id", image.tag, "-u")
    assert uid.returncode == 0, uid.stderr
    assert uid.stdout.strip() == "10001"
    pytest_there = docker(
        "run", "--rm", "--network", "none", "--entrypoint", "python", image.tag,
        "-c", "import pytest",
    )  # fmt: skip
    assert pytest_there.returncode != 0
    config = json.loads(docker("image", "inspect", image.tag).stdout)[0]["Config"]
    assert "/healthz" in " ".join(config["Healthcheck"]["Test"])
    assert config["StopSignal"] == "SIGTERM"


def test_without_a_token_the_container_says_how_to_get_one_and_exits_2(image: BuiltImage) -> None:
    ran = docker("run", "--rm", "--network", "none", image.tag)
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.strip() == NO_TOKEN
    assert ran.stdout == ""


class ComposeProject:
    """compose.yaml (less its published ports) with the override, as a project of its own:
    its folder holds the copy and the `.env` an operator writes, its name keeps its
    containers and volume apart from any other."""

    def __init__(self, folder: Path, image: BuiltImage, fake_token: str) -> None:
        self.folder = folder
        self.command = image.compose_command
        self.name = f"lockdown-test-{uuid.uuid4().hex[:8]}"
        self.ops_port = free_port()
        pg_port = free_port()
        password = secrets.token_urlsafe(16)
        self.database_url = f"postgresql+asyncpg://lockdown:{password}@127.0.0.1:{pg_port}/lockdown"
        (folder / "compose.yaml").write_text(compose_without_published_ports())
        (folder / ".env").write_text(f"DISCORD_TOKEN={fake_token}\nPOSTGRES_PASSWORD={password}\n")
        self.env = {
            "PATH": os.environ["PATH"],
            "TEST_IMAGE": image.tag,
            "TEST_PG_PORT": str(pg_port),
            "TEST_OPS_PORT": str(self.ops_port),
            "TEST_DISCORD_API": Route.BASE,
            "TEST_DISCORD_GATEWAY": str(DiscordWebSocket.DEFAULT_GATEWAY),
            "TEST_TESTS_DIR": str(ROOT / "tests"),
        }

    async def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        files = ["-f", str(self.folder / "compose.yaml"), "-f", str(OVERRIDE)]
        return await asyncio.to_thread(
            subprocess.run,
            [*self.command, "--project-name", self.name, *files, *args],
            cwd=self.folder,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )

    async def up_bot(self) -> None:
        up = await self("up", "--detach", "--no-build", "bot")
        assert up.returncode == 0, up.stderr

    async def container(self, service: str) -> str:
        """The service's container, found by the labels Compose (v1 or v2) puts on it:
        `docker` answers at once, where `docker-compose ps` takes a second or two."""
        found = await asyncio.to_thread(
            docker,
            "ps",
            "--all",
            "--quiet",
            "--filter",
            f"label=com.docker.compose.project={self.name}",
            "--filter",
            f"label=com.docker.compose.service={service}",
        )
        assert found.stdout.strip(), found.stderr
        return found.stdout.strip()

    async def inspect(self, service: str, template: str) -> str:
        container = await self.container(service)
        found = await asyncio.to_thread(docker, "inspect", "--format", template, container)
        return found.stdout.strip()

    async def logs(self, service: str) -> str:
        container = await self.container(service)
        found = await asyncio.to_thread(docker, "logs", container)
        return found.stdout + found.stderr

    async def ops(self, path: str) -> int:
        try:
            async with (
                aiohttp.ClientSession() as session,
                session.get(f"http://127.0.0.1:{self.ops_port}{path}") as response,
            ):
                return response.status
        except aiohttp.ClientConnectionError:
            return 0

    async def until_ready(self, within: float = 90) -> None:
        """/readyz answers 200; fails with the bot's logs if it exits or takes too long."""
        deadline = time.monotonic() + within
        while await self.ops("/readyz") != 200:
            running = await self.inspect("bot", "{{.State.Running}}")
            assert running == "true", await self.logs("bot")
            assert time.monotonic() < deadline, await self.logs("bot")
            await asyncio.sleep(0.3)

    async def until_healthy(self, within: float = 30) -> None:
        """Docker's own health check (the Dockerfile's, every second here) passes."""
        deadline = time.monotonic() + within
        while await self.inspect("bot", "{{.State.Health.Status}}") != "healthy":
            assert time.monotonic() < deadline, await self.logs("bot")
            await asyncio.sleep(0.3)

    async def stop_bot(self) -> str:
        """SIGTERM through Compose; the exit must be the bot's own, clean one."""
        stopped = await self("stop", "bot")
        assert stopped.returncode == 0, stopped.stderr
        logs = await self.logs("bot")
        assert await self.inspect("bot", "{{.State.ExitCode}}") == "0", logs
        assert await self.inspect("bot", "{{.RestartCount}}") == "0", logs
        assert "released shards" in logs, logs
        assert '"level": "ERROR"' not in logs, logs
        assert "Traceback" not in logs, logs
        return logs


def compose_without_published_ports() -> str:
    """compose.yaml, less each service's `ports:` list (see compose.hostnet.yaml)."""
    kept: list[str] = []
    in_ports = False
    for line in COMPOSE.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.strip() == "ports:":
            in_ports = True
        elif not (in_ports and line.lstrip().startswith("- ")):
            in_ports = False
            kept.append(line)
    text = "".join(kept)
    assert "ports:" not in text
    return text


@pytest.mark.e2e
async def test_compose_plays_a_game_stops_on_sigterm_and_keeps_it(
    image: BuiltImage, fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    project = ComposeProject(tmp_path, image, fake_discord.token)
    guild = fake_discord.create_guild("Container club", members=3, channels=("general",))
    rng = random.Random(36)
    try:
        await project.up_bot()
        await project.until_ready()
        database = Database(project.database_url)
        try:
            game = await open_game(fake_discord, guild)
            assert await click_moves(database, game, 6, rng) > 0
            await project.until_healthy()
            await project.stop_bot()
            status, version, seqs, _ = await stored(database, game.game_id)
        finally:
            await database.close()
        assert status == "running"
        assert seqs == list(range(1, version + 1))

        # New containers on the same `postgres` volume, as an upgrade makes them (their
        # anonymous /data volumes go with them: the bot keeps nothing there on PostgreSQL).
        removed = await project("rm", "--stop", "--force", "-v")
        assert removed.returncode == 0, removed.stderr
        await project.up_bot()
        await project.until_ready()
        assert "resumed 1 games (paused 0)" in await project.logs("bot")
        database = Database(project.database_url)
        try:
            assert (await stored(database, game.game_id))[1] == version, "nothing lost"
            assert await click_moves(database, game, 4, rng) > 0, "and it plays on"
            await project.stop_bot()
        finally:
            await database.close()
    finally:
        await project("down", "--volumes", "--timeout", "5")
