# Ludibot: one bot process (it may run several shards; see the README's "Deployment").
#   docker build -t ludibot .    then    docker compose up -d    (bot + PostgreSQL)

# The board's page (an Activity, docs/activity.md), built from its lock file; only its output is kept.
FROM node:20-slim AS page
WORKDIR /page
COPY activity/package.json activity/package-lock.json activity/build.mjs ./
COPY activity/src ./src
RUN npm ci --no-audit --no-fund && npm run build

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first (a layer that changes only with pyproject.toml), then the code.
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY engines ./engines
COPY render ./render
COPY cogs ./cogs
COPY data ./data
COPY scripts/healthcheck.py ./scripts/healthcheck.py
COPY --from=page /page/dist ./activity/dist
RUN pip install -e . \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/ludibot --create-home ludibot

# The state (SQLite file when LUDIBOT_DB is a path) lives in the volume; /healthz and /metrics on 9108.
ENV LUDIBOT_DB=/var/lib/ludibot/ludibot.db \
    LUDIBOT_METRICS_PORT=9108 \
    LUDIBOT_METRICS_HOST=0.0.0.0
VOLUME ["/var/lib/ludibot"]
EXPOSE 9108

USER ludibot

HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "scripts/healthcheck.py"]

CMD ["python", "-m", "bot"]
