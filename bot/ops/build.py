"""Which build is running, for `lockdown_build_info` and the start-up log line.

The version is the installed package's. The commit is known only when the
deployment says it (`LOCKDOWN_COMMIT`, e.g. a container built with
`--build-arg`): an installed wheel carries no repository to ask.
"""

from __future__ import annotations

import os
from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "lockdown-bot"


def running_version() -> str:
    """The installed version, or `unknown` when run from sources never installed."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown"


def running_commit() -> str | None:
    """The commit the deployment named, if it named one."""
    return os.environ.get("LOCKDOWN_COMMIT") or None
