#!/usr/bin/env bash
# Both SDKs against a real Worker (CI runs this: .ci/run). Installs each SDK's test tools when missing
# (the TypeScript SDK's generator with npm ci in clients/typescript; the Python SDK's httpx, anyio,
# pytest and mypy into clients/python/.venv with pip), then clients/test.ts prepares a local state of
# its own (.wrangler/clients), starts `wrangler dev` on a free port of 127.0.0.1, runs both suites and the
# generated-code check side by side, stops the Worker and prints `clients: N passed, N failed`.
# CLIENTS_PORT / CLIENTS_STATE override the port and the state folder.
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false

# Node 22 and the root dependencies (vitest, wrangler) through the bootstrap.
node scripts/boot.mjs

# TypeScript: the pinned generator, in the SDK's own folder (its lockfile must not change).
if [ ! -x clients/typescript/node_modules/.bin/openapi-ts ]; then
  (cd clients/typescript && npm ci --no-audit --no-fund --loglevel=error)
fi

# Python: a venv of its own, refreshed when requirements-test.txt changes.
py=clients/python
stamp="$py/.venv/.requirements-test"
if [ ! -x "$py/.venv/bin/python" ] || ! cmp -s "$py/requirements-test.txt" "$stamp"; then
  echo "clients: installing the Python SDK's test tools into $py/.venv"
  python3 -m venv "$py/.venv"
  # --retries 0: an index this machine cannot reach fails at once instead of after back-offs.
  "$py/.venv/bin/pip" install --quiet --disable-pip-version-check --retries 0 -r "$py/requirements-test.txt"
  cp "$py/requirements-test.txt" "$stamp"
fi

node scripts/boot.mjs node clients/test.ts
