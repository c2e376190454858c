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
case "$cmd" in
  # The supervisor is the process npm waits on, and the service its only child: no pnpm between.
  start) memory_env; exec node apps/server/src/supervisor.ts "$@" ;;
  test) exec pnpm --silent run test:all "$@" ;;
  esign) exec pnpm exec esign "$@" ;;
  *) exec pnpm "$cmd" "$@" ;;
esac
