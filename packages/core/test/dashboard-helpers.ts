import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db, UserRole } from '@esign/db';
import { createCaller } from '../src/app-router.ts';
import { type Config, parseConfig } from '../src/config.ts';
import { type Actor, createContext, createCoreDeps } from '../src/context.ts';
import { createLogger } from '../src/logger.ts';
import { createAccount, createUser } from '../src/services/accounts.ts';
import { sessionSetCookie } from '../src/services/sessions/cookies.ts';
import { authenticateSession } from '../src/services/sessions/sessions.ts';
import { toCoreError } from '../src/trpc.ts';

export const PUBLIC_URL = 'http://dash.test';

export function dashboardConfig(env: Record<string, string> = {}): Config {
  return parseConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'esign-dash-test-')),
    SECRET_KEY: 'dashboard-tests-server-secret-0123456789',
    LOG_LEVEL: 'silent',
    PUBLIC_URL,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    ...env,
  });
}

/** The browser's side of a test: its cookie and where its requests come from. */
export interface Browser {
  token: string | null;
  origin: string | null;
  ip: string;
}

let ips = 0;
/** A browser on its own address (tests that count attempts per address pass one). */
export const newBrowser = (ip = `10.${(++ips >> 16) & 255}.${(ips >> 8) & 255}.${ips & 255}`): Browser => ({
  token: null,
  origin: PUBLIC_URL,
  ip,
});

export const cookieOf = (config: Config, token: string) =>
  sessionSetCookie(config, token, new Date(Date.now() + 3600_000)).split(';')[0]!;

export interface Harness {
  db: Db;
  config: Config;
  clock: { now: Date };
  /** A caller as the web adapter builds it: the browser's cookie and origin, or an explicit actor. */
  caller(browser: Browser | null, actor?: Actor | null): ReturnType<typeof createCaller>;
  /** The actor of a browser's session cookie (null when it is no longer valid). */
  actorOf(browser: Browser): Promise<Actor | null>;
}

export function harness(db: Db, config: Config, clock: { now: Date }): Harness {
  const logger = createLogger('silent', 'test');
  const deps = createCoreDeps(config);
  const actorOf = async (b: Browser) =>
    b.token
      ? ((await authenticateSession(db, config, { cookieHeader: cookieOf(config, b.token), now: clock.now }))
          ?.actor ?? null)
      : null;
  return {
    db,
    config,
    clock,
    actorOf,
    caller(browser, actor) {
      return createCaller(
        createContext({
          db,
          logger,
          config,
          deps,
          actor: actor ?? null,
          source: 'invite',
          ip: browser?.ip ?? null,
          userAgent: 'vitest',
          now: () => clock.now,
          web: browser
            ? {
                origin: browser.origin,
                setCookie: (token) => {
                  browser.token = token;
                },
                clearCookie: () => {
                  browser.token = null;
                },
              }
            : null,
        }),
      );
    },
  };
}

let n = 0;
export const uniqueEmail = (label: string) =>
  `${label}${++n}-${Math.random().toString(36).slice(2, 7)}@example.com`;

/** An account whose admin has a password; more users with roles on demand. */
export async function accountWithPassword(db: Db, password = 'admin password 1') {
  const email = uniqueEmail('admin');
  const { account, user } = await db
    .transaction()
    .execute((tx) =>
      createAccount(tx, { email, name: 'Ada Admin', password, accountName: 'Acme' }, new Date()),
    );
  const addUser = async (role: UserRole, pw = 'user password 1') => {
    const u = await createUser(db, {
      accountId: account.id,
      email: uniqueEmail(role),
      password: pw,
      role,
      name: role,
    });
    return { ...u, password: pw };
  };
  return { accountId: account.id, admin: { id: user.id, email, password }, addUser };
}

/** Signs a browser in with email and password through the procedure. */
export async function signIn(h: Harness, email: string, password: string, browser = newBrowser()) {
  await h.caller(browser).auth.signIn({ email, password });
  const actor = await h.actorOf(browser);
  if (!actor) throw new Error('sign-in gave no session');
  return { browser, actor };
}

/** The error code a call fails with (throws if it succeeds). */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    const core = toCoreError(err);
    if (core.code === 'internal_error') throw err;
    return core.code;
  }
  throw new Error('expected the call to fail');
}
