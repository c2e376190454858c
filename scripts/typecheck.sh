#!/usr/bin/env bash
# The type checks (`pnpm run check`, so `npm test`): one program per runtime (issue 43.4), so each
# file is read and checked by as few programs as its runtimes need, not once per package that
# imports it:
# - tsconfig.node.json: every app and package with its tests and the root test helpers (Node.js);
# - tsconfig.universal.json: @esign/domain and @esign/i18n, without Node's types or the DOM;
# - apps/web/src/signing/client and apps/web/dashboard: the two browser bundles.
# The Node program, the largest, runs beside the others; the exit status is 1 if any fails.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tsc=node_modules/.bin/tsc
"$tsc" --noEmit -p tsconfig.node.json &
node=$!
others=0
for project in tsconfig.universal.json apps/web/src/signing/client apps/web/dashboard; do
  "$tsc" --noEmit -p "$project" || others=1
done
wait "$node" || others=1
exit "$others"
