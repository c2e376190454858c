import { existsSync } from 'node:fs';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { requirement } from '../../../test/requirements.ts';

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

/**
 * Headless Debian chromium. Playwright starts every launch on a fresh temporary user-data-dir
 * (it owns that flag), so no profile state carries over between runs.
 */
export async function launchChromium(): Promise<Browser> {
  if (!hasChromium) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package`);
  return chromium.launch({
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
  });
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
