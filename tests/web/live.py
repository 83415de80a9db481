"""`lockdown-web` served by uvicorn on a free loopback port, in a thread of the test."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from bot.settings import Settings
from bot.storage.database import Database
from bot.web.app import create_app


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(settings: Settings) -> Iterator[str]:
    """The server's base URL while the block runs; stopped and joined after it."""
    port = free_port()
    app = create_app(settings, Database(settings.database_url, read_only=True))
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    )
    thread = threading.Thread(target=server.run, name="lockdown-web", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("lockdown-web did not start within 10 s")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
