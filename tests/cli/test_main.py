"""bot/cli/main.py: `lockdown` builds one subcommand per registered module and dispatches."""

from __future__ import annotations

import argparse
import subprocess
import sys
import types
from pathlib import Path

import pytest

from bot.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]


def one_line(text: str) -> str:
    """Argparse wraps long help lines; compare texts with their whitespace collapsed."""
    return " ".join(text.split())


def fake_command(
    monkeypatch: pytest.MonkeyPatch, name: str, run: object, **attrs: object
) -> cli.Listing:
    """Register a synthetic command module under `name` and return its listing."""

    def add_arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--code", type=int, default=0)

    module = types.ModuleType(f"fake_commands.{name}")
    module.__dict__.update({"add_arguments": add_arguments, "run": run})
    module.__dict__.update(attrs)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return cli.Listing(name, module.__name__, f"the {name} command")


def test_every_listed_module_is_a_command_with_a_unique_name() -> None:
    names = [listing.name for listing in cli.COMMANDS]
    assert len(set(names)) == len(names)
    assert "version" in names
    for listing in cli.COMMANDS:
        command = cli.load_command(listing)
        assert callable(command.add_arguments)
        assert callable(command.run)
        assert listing.module == f"bot.cli.{listing.name}"
        assert listing.help.strip()


def test_help_lists_every_registered_command_with_its_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.dispatch(["--help"])
    assert exc.value.code == 0
    out = one_line(capsys.readouterr().out)
    for listing in cli.COMMANDS:
        assert one_line(f"{listing.name} {listing.help}") in out


def modules_loaded_by(argv: list[str]) -> set[str]:
    """The modules a fresh interpreter holds after `lockdown ARGV`, whatever its exit."""
    probe = (
        "import sys\n"
        "from bot.cli.main import dispatch\n"
        "try:\n"
        f"    dispatch({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(' '.join(sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return set(result.stdout.splitlines()[-1].split())


def test_help_imports_no_command_module() -> None:
    loaded = modules_loaded_by(["--help"])
    assert {f"bot.cli.{listing.name}" for listing in cli.COMMANDS}.isdisjoint(loaded)
    assert "lockdown_core" not in loaded


def test_replaying_a_file_needs_no_database_and_no_other_command() -> None:
    scenario = next((ROOT / "tests" / "scenarios").glob("*.json"))
    loaded = modules_loaded_by(["replay", "--quiet", str(scenario)])
    assert "bot.cli.replay" in loaded
    assert not {"sqlalchemy", "alembic", "bot.cli.stored", "bot.cli.export"} & loaded
    assert not {"bot.cli.play", "bot.cli.simulate"} & loaded


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.dispatch([])
    assert exc.value.code == 2
    assert "COMMAND" in capsys.readouterr().err


def test_the_chosen_command_gets_its_arguments_and_its_status_is_returned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def exit_with(args: argparse.Namespace) -> int:
        return int(args.code)

    modules = [
        fake_command(monkeypatch, "alpha", exit_with),
        fake_command(monkeypatch, "beta", lambda args: 99),
    ]
    assert cli.dispatch(["alpha", "--code", "7"], modules) == 7
    assert cli.dispatch(["beta"], modules) == 99


def test_ctrl_c_in_a_command_exits_130_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def interrupted(args: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    modules = [fake_command(monkeypatch, "slow", interrupted)]
    assert cli.dispatch(["slow"], modules) == 130


def test_a_module_without_the_protocol_is_named_in_the_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    listing = fake_command(monkeypatch, "broken", lambda args: 0)
    del sys.modules[listing.module].add_arguments
    with pytest.raises(TypeError, match=r"fake_commands\.broken lacks add_arguments"):
        cli.dispatch(["broken"], [listing])


def test_main_exits_with_the_command_status(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.startswith("lockdown-bot ")


def test_console_script_lists_the_commands(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "lockdown"
    result = subprocess.run(
        [str(script), "--help"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert result.stdout.startswith("usage: lockdown ")
    assert "version" in result.stdout
