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
case "$cmd" in
  start) exec pnpm --silent run start:all "$@" ;;
  test) exec pnpm --silent run test:all "$@" ;;
  esign) exec pnpm exec esign "$@" ;;
  *) exec pnpm "$cmd" "$@" ;;
esac
