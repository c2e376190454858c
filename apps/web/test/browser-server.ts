import { rmdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_LAUNCH } from './browser.ts';

// One vitest worker slot's Chromium (browser.ts, launchChromium): a Playwright browser server
// whose WebSocket endpoint is the first line it prints. It runs until the vitest process that
// started the run is gone, then closes the browser and removes the slot's files.
// Arguments: the run's pid, the endpoint file, the lock file.

const [runPid, ...files] = process.argv.slice(2);
const server = await chromium.launchServer({ ...CHROMIUM_LAUNCH, host: '127.0.0.1' });
process.stdout.write(`${server.wsEndpoint()}\n`);

const runAlive = () => {
  try {
    process.kill(Number(runPid), 0);
    return true;
  } catch {
    return false;
  }
};
const watch = setInterval(() => {
  if (runAlive()) return;
  clearInterval(watch);
  for (const file of files) rmSync(file, { force: true });
  try {
    rmdirSync(dirname(files[0]!)); // the run's folder, once its last browser is gone
  } catch {}
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
}, 500);
