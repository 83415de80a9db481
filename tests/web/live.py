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


@contextmanager
def serving(settings: Settings) -> Iterator[str]:
    """The server's base URL while the block runs; stopped and joined after it.

    The socket is bound here and handed to uvicorn: a port found free and bound later
    could be taken meanwhile by another test worker's server.
    """
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    port = int(listening.getsockname()[1])
    app = create_app(settings, Database(settings.database_url, read_only=True))
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    )
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [listening]}, name="lockdown-web", daemon=True
    )
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
        listening.close()
