#!/usr/bin/env bash
# Entry point behind `npm start` / `npm test`: toolchain, dependencies, then the command.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/tools.sh
stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || [ pnpm-lock.yaml -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  pnpm install --frozen-lockfile --reporter=append-only
  touch "$stamp"
fi
cmd="${1:-start}"; shift || true
# The service's malloc settings (scripts/memory.env), unless the environment already sets them.
memory_env() {
  local k v
  while IFS='=' read -r k v; do
    if [[ $k =~ ^[A-Z_]+$ ]] && [ -z "${!k:-}" ]; then export "$k=$v"; fi
  done < scripts/memory.env
}
# The dashboard and signing page bundles (apps/web/dist): turbo rebuilds them when a source changed
# and restores them from its cache otherwise (~0.4 s); its output is shown only when the build fails.
web_build() {
  local log
  if ! log="$(node_modules/.bin/turbo run build --output-logs=errors-only 2>&1)"; then
    printf '%s\n' "$log" >&2
    exit 1
  fi
}
case "$cmd" in start|test) web_build ;; esac
case "$cmd" in
  # The supervisor is the process npm waits on, and the service its only child: no pnpm between.
  start) memory_env; exec node apps/server/src/supervisor.ts "$@" ;;
  test) exec pnpm --silent run test:all "$@" ;;
  esign) exec pnpm exec esign "$@" ;;
  *) exec pnpm "$cmd" "$@" ;;
esac
