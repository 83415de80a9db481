"""`lockdown version`: which build of the bot and which Python are running.

The first thing to ask for in a bug report.
"""

from __future__ import annotations

import argparse
import platform
from importlib.metadata import version


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No options: the command always prints the same two lines."""


def run(args: argparse.Namespace) -> int:
    print(f"lockdown-bot {version('lockdown-bot')}")
    print(f"Python {platform.python_version()} ({platform.python_implementation()})")
    return 0
