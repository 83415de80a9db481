# The Lockdown game master in a container: the locked dependencies, a non-root user,
# the database and anything else it writes under /data, a health check on /healthz.
#
#   docker build -t lockdown-bot .
#   docker run -d --name lockdown --env-file .env -v lockdown-data:/data -p 127.0.0.1:8080:8080 lockdown-bot
#
# The default database is the SQLite file /data/lockdown.db; set DATABASE_URL for
# PostgreSQL (compose.yaml does). Exit status 2 means a setting to correct: restarting
# will not help.

FROM python:3.11-slim AS build

# uv from PyPI, so the build needs no other registry.
RUN pip install --no-cache-dir "uv>=0.5,<1"
ENV UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PYTHON_DOWNLOADS=never \
    UV_PROJECT_ENVIRONMENT=/opt/lockdown-bot
WORKDIR /src

# The dependencies first, as uv.lock has them: this layer is rebuilt only when they change.
COPY pyproject.toml uv.lock ./
RUN uv sync --locked --no-dev --extra postgres --no-install-project

# Then the bot itself, installed as a package (not editable): /src is not in the image.
COPY README.md LICENSE ./
COPY lockdown_core ./lockdown_core
COPY bot ./bot
RUN uv sync --locked --no-dev --extra postgres --no-editable


FROM python:3.11-slim

RUN groupadd --system --gid 10001 lockdown \
    && useradd --system --uid 10001 --gid lockdown --home-dir /data --shell /usr/sbin/nologin lockdown \
    && mkdir /data \
    && chown lockdown:lockdown /data

COPY --from=build /opt/lockdown-bot /opt/lockdown-bot

# OPS_HOST=0.0.0.0: inside a container, 127.0.0.1 would answer nobody outside it.
ENV PATH=/opt/lockdown-bot/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/lockdown.db \
    OPS_HOST=0.0.0.0 \
    OPS_PORT=8080

USER lockdown
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8080

# /healthz answers 200 while the process is alive (/readyz says whether it plays).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ['OPS_PORT'] + '/healthz', timeout=4)"]

# SIGTERM: the bot stops taking actions, posts what its threads wait for, and exits.
STOPSIGNAL SIGTERM
ENTRYPOINT ["lockdown-bot"]
CMD ["run"]
