import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { requirement } from '@esign/testing/requirements';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';

/** Debian's chromium package (CI installs it in .ci/run); never a test tool's browser download. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);

/**
 * Whether browser tests run here: they need chromium. Missing under CI, the suite runs and its
 * beforeAll fails on the launch; elsewhere it is skipped with a message (test/requirements.ts).
 */
export function browserTestsEnabled(suite: string): boolean {
  return requirement(`chromium (${suite})`, hasChromium, 'apt-get install -y chromium, or set CHROMIUM_PATH');
}

/** How every test Chromium starts: headless Debian chromium, no network of its own. */
export const CHROMIUM_LAUNCH = {
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/**
 * A connection to this vitest worker's Chromium (issue 43.4: one browser per test worker, not
 * one per file). Vitest runs each file in a fresh process, so the browser lives beside them: the
 * first file of a worker slot (VITEST_POOL_ID) starts it (apps/web/test/browser-server.ts, a
 * Playwright browser server), the slot's next files connect to it, and it closes when the vitest
 * run that started it ends. Each test still opens its own context (`browser.newContext()` or
 * `browser.newPage()`): no cookies, storage or pages carry over; `close()` closes the contexts
 * this file opened and disconnects. Playwright starts the browser on a fresh temporary
 * user-data-dir, so no profile state carries over between runs.
 */
export async function launchChromium(): Promise<Browser> {
  if (!hasChromium) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package`);
  const slot = browserSlot();
  const known = readEndpoint(slot.file);
  if (known) {
    const browser = await chromium.connect(known, { timeout: 10_000 }).catch(() => null);
    if (browser) return browser;
    rmSync(slot.file, { force: true });
    rmSync(slot.lock, { force: true });
  }
  return chromium.connect(await startBrowserServer(slot), { timeout: 30_000 });
}

interface Slot {
  /** The vitest process whose run the browser serves; it closes when that process is gone. */
  runPid: number;
  /** Holds the browser's WebSocket endpoint once it is up. */
  file: string;
  /** Created by the one file that starts the browser. */
  lock: string;
}

export function browserSlot(): Slot {
  // Vitest's forks pool: the worker's parent is the run's main process.
  const runPid = process.ppid;
  const dir = join(tmpdir(), `esign-chromium-${runPid}`);
  mkdirSync(dir, { recursive: true });
  const id = process.env.VITEST_POOL_ID ?? '0';
  return { runPid, file: join(dir, `${id}.endpoint`), lock: join(dir, `${id}.lock`) };
}

function readEndpoint(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** Starts the slot's browser server, or waits for the one another file is starting. */
async function startBrowserServer(slot: Slot): Promise<string> {
  try {
    closeSync(openSync(slot.lock, 'wx'));
  } catch {
    const deadline = Date.now() + 60_000;
    for (let endpoint = readEndpoint(slot.file); ; endpoint = readEndpoint(slot.file)) {
      if (endpoint) return endpoint;
      if (Date.now() > deadline) throw new Error(`no browser server in ${slot.file} within 60 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const script = join(dirname(fileURLToPath(import.meta.url)), 'browser-server.ts');
  const child = spawn(process.execPath, [script, String(slot.runPid), slot.file, slot.lock], {
    detached: true,
    // Nothing of this process's: vitest waits for its worker's output to close before it ends.
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  child.stdout!.destroy();
  child.unref();
  writeFileSync(slot.file, line);
  return line;
}

/** Draws a wavy stroke across a signature pad's canvas with the mouse. */
export async function drawSignature(page: Page, canvas: Locator): Promise<void> {
  const box = await canvas.boundingBox();
  if (!box) throw new Error('no canvas');
  await page.mouse.move(box.x + box.width * 0.15, box.y + box.height * 0.6);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(
      box.x + box.width * (0.15 + i * 0.055),
      box.y + box.height * (0.6 - Math.sin(i / 1.5) * 0.25),
      { steps: 2 },
    );
  }
  await page.mouse.up();
}
