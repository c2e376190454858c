import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { browserSlot, browserTestsEnabled, launchChromium } from './browser.ts';

// Issue 43.4: one browser per test worker. A file's launchChromium() connects to the Chromium its
// worker slot already runs (started by the slot's first file), and each test keeps its own context.

describe.runIf(browserTestsEnabled('shared browser'))('one Chromium per vitest worker (issue 43.4)', () => {
  const open: Browser[] = [];
  afterAll(() => Promise.all(open.map((b) => b.close())));

  it('a second launchChromium() in the same worker connects to the same browser instead of starting one', async () => {
    const first = await launchChromium();
    open.push(first);
    const endpoint = readFileSync(browserSlot().file, 'utf8');
    expect(endpoint).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\//);
    const second = await launchChromium();
    open.push(second);
    expect(readFileSync(browserSlot().file, 'utf8')).toBe(endpoint);
    expect(second.version()).toBe(first.version());
    // Closing one connection leaves the browser to the others.
    await first.close();
    expect(second.isConnected()).toBe(true);
    const page = await second.newPage();
    await page.setContent('<p>still here</p>');
    expect(await page.textContent('p')).toBe('still here');
  });

  it('contexts stay separate: a cookie set in one test’s context is not seen by another’s', async () => {
    const browser = await launchChromium();
    open.push(browser);
    const [a, b] = await Promise.all([browser.newContext(), browser.newContext()]);
    await a.addCookies([{ name: 'session', value: 'a', url: 'http://127.0.0.1/' }]);
    expect(await a.cookies()).toHaveLength(1);
    expect(await b.cookies()).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });
});
