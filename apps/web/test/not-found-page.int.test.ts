import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 33 item 4: an unknown address opened in a browser shows the dashboard's own not-found page
// (404), never the raw JSON error; API addresses and API clients keep the JSON envelope.

let t: TestApp;
let owner: TestAccount;
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 1 });
});
afterAll(async () => t?.close());

describe('unknown addresses (issue 33 item 4)', () => {
  it.each(['/nope', '/templates/12/nope', '/a/b/c?x=1'])(
    'a browser opening %s gets the app page with 404',
    async (path) => {
      const res = await fetch(`${t.baseUrl}${path}`, { headers: { accept: BROWSER_ACCEPT } });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(await res.text()).toContain('<div id="root"');
    },
  );

  it('an API address keeps the JSON envelope, even from a browser (the API answers 401 before routing)', async () => {
    const res = await fetch(`${t.baseUrl}/api/v1/nope`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
  });

  it.each([
    ['a file address', '/files/nope', BROWSER_ACCEPT],
    ['an API client (Accept: */*)', '/nope', '*/*'],
    ['a JSON client', '/nope', 'application/json'],
  ])('%s keeps the JSON not_found envelope', async (_kind, path, accept) => {
    const res = await fetch(`${t.baseUrl}${path}`, { headers: { accept } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('an authenticated API client is still counted on an unknown address (RateLimit headers)', async () => {
    const res = await fetch(`${t.baseUrl}/nope`, { headers: { authorization: `Bearer ${owner.key}` } });
    expect(res.status).toBe(404);
    expect(res.headers.get('ratelimit-remaining')).not.toBeNull();
  });
});
