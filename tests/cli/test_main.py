"""bot/cli/main.py: `lockdown` builds one subcommand per registered module and dispatches."""

from __future__ import annotations

import argparse
import subprocess
import sys
import types
from pathlib import Path

import pytest

from bot.cli import main as cli


def one_line(text: str) -> str:
    """Argparse wraps long help lines; compare texts with their whitespace collapsed."""
    return " ".join(text.split())


def fake_command_module(
    monkeypatch: pytest.MonkeyPatch, name: str, run: object, **attrs: object
) -> str:
    """Register a synthetic command module under `name` and return its module name."""

    def add_arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--code", type=int, default=0)

    module = types.ModuleType(f"fake_commands.{name}")
    module.__dict__.update(
        {"NAME": name, "HELP": f"the {name} command", "add_arguments": add_arguments, "run": run}
    )
    module.__dict__.update(attrs)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return module.__name__


def test_every_registered_module_is_a_command_with_a_unique_name() -> None:
    commands = [cli.load_command(name) for name in cli.COMMAND_MODULES]
    names = [command.name for command in commands]
    assert len(set(names)) == len(names)
    assert "version" in names
    for command in commands:
        assert command.name
        assert command.help.strip()


def test_help_lists_every_registered_command_with_its_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.dispatch(["--help"])
    assert exc.value.code == 0
    out = one_line(capsys.readouterr().out)
    for name in cli.COMMAND_MODULES:
        command = cli.load_command(name)
        assert one_line(f"{command.name} {command.help}") in out


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
        fake_command_module(monkeypatch, "alpha", exit_with),
        fake_command_module(monkeypatch, "beta", lambda args: 99),
    ]
    assert cli.dispatch(["alpha", "--code", "7"], modules) == 7
    assert cli.dispatch(["beta"], modules) == 99


def test_ctrl_c_in_a_command_exits_130_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def interrupted(args: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    modules = [fake_command_module(monkeypatch, "slow", interrupted)]
    assert cli.dispatch(["slow"], modules) == 130


def test_a_module_without_the_protocol_is_named_in_the_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name = fake_command_module(monkeypatch, "broken", lambda args: 0)
    del sys.modules[name].HELP
    with pytest.raises(TypeError, match=r"fake_commands\.broken lacks HELP"):
        cli.dispatch(["broken"], [name])


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
