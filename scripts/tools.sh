#!/usr/bin/env bash
# Makes Node 24 and pnpm 10 available, fetching them from the npm registry into ./.tools
# when the machine lacks them. Sourced by scripts/run.sh; prints nothing on the happy path.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
NODE_MAJOR=24
PNPM_VERSION=10.34.9

node_ok() { command -v node >/dev/null 2>&1 && [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" -ge "$NODE_MAJOR" ] && [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 27 ]; }
pnpm_ok() { command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null | cut -d. -f1)" = "10" ]; }

export PATH="$tools/bin:$PATH"
if ! node_ok; then
  case "$(uname -m)" in x86_64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) echo "unsupported CPU $(uname -m)" >&2; exit 1 ;; esac
  echo "tools: fetching Node $NODE_MAJOR (node-linux-$arch) from the npm registry into .tools" >&2
  npm install --silent --no-audit --no-fund --no-save --prefix "$tools/node" "node-linux-$arch@$NODE_MAJOR" >&2
  mkdir -p "$tools/bin"
  ln -sf "$tools/node/node_modules/node-linux-$arch/bin/node" "$tools/bin/node"
fi
if ! pnpm_ok; then
  echo "tools: fetching pnpm $PNPM_VERSION from the npm registry into .tools" >&2
  npm install --silent --no-audit --no-fund -g --prefix "$tools/pnpm" "pnpm@$PNPM_VERSION" >&2
  mkdir -p "$tools/bin"
  ln -sf "$tools/pnpm/bin/pnpm" "$tools/bin/pnpm"
fi
node_ok || { echo "tools: Node $NODE_MAJOR is still not available" >&2; exit 1; }
