import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestAccount, type TestAccount } from '@esign/testing/accounts';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { createCaller } from '../src/app-router.ts';
import { type Config, parseConfig } from '../src/config.ts';
import { type Actor, type CoreDeps, createContext, createCoreDeps, type Source } from '../src/context.ts';
import { createLogger } from '../src/logger.ts';
import { authenticateApiKey } from '../src/services/api-keys.ts';
import type { JobContext } from '../src/services/jobs.ts';
import { toCoreError } from '../src/trpc.ts';

/**
 * Core without a server: a cloned database, the config and collaborators, and tRPC callers that
 * run procedures the way every adapter does (`appRouter.createCaller(ctx)`), so a rule's test
 * needs no HTTP.
 */
export interface CoreHarness {
  db: TestDatabase['db'];
  config: Config;
  deps: CoreDeps;
  clock: { now: Date | null };
  /** What services and jobs get: the same collaborators, no actor. */
  sc: JobContext;
  /** The actor of an API key, authenticated through the production path. */
  actor(key: string): Promise<Actor>;
  /** A caller acting with an API key (authenticated through the production path). */
  as(key: string, source?: Source): Promise<ReturnType<typeof createCaller>>;
  /** A caller without an actor (the signing page's procedures). */
  anonymous(): ReturnType<typeof createCaller>;
  account(opts?: Parameters<typeof createTestAccount>[1]): Promise<TestAccount>;
  close(): Promise<void>;
}

const logger = createLogger('silent', 'test');

export async function startCore(
  env: Record<string, string> = {},
  extraDeps: Partial<CoreDeps> = {},
): Promise<CoreHarness> {
  const database = await createTestDatabase();
  const config = parseConfig({
    DATABASE_URL: database.url,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'esign-core-test-')),
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://127.0.0.1:9',
    ...env,
  });
  const deps = { ...createCoreDeps(config), ...extraDeps };
  const clock: { now: Date | null } = { now: null };
  const now = () => clock.now ?? new Date();
  const ctxFor = (source: Source, actor: Actor | null) =>
    createContext({ db: database.db, logger, config, deps, actor, source, now });
  return {
    db: database.db,
    config,
    deps,
    clock,
    sc: { db: database.db, logger, config, deps, now },
    actor: (key) => authenticateApiKey(database.db, `Bearer ${key}`, now()),
    async as(key, source = 'api') {
      const actor = await authenticateApiKey(database.db, `Bearer ${key}`, now());
      return createCaller(ctxFor(source, actor));
    },
    anonymous: () => createCaller(ctxFor('link', null)),
    account: (opts) => createTestAccount(database.db, opts),
    close: () => database.drop(),
  };
}

/** The error code a procedure call failed with, or null when it succeeded. */
export async function codeOf(call: Promise<unknown>): Promise<string | null> {
  return call.then(
    () => null,
    (err: unknown) => toCoreError(err).code,
  );
}

type Caller = ReturnType<typeof createCaller>;

const area = (page = 1, y = 0.1) => [{ page, x: 0.1, y, w: 0.3, h: 0.05 }];

/** A two-role template (Client: signature + name; Agent: signature) made through templates.create. */
export async function twoRoleTemplate(caller: Caller, name = 'Service Agreement') {
  return caller.templates.create({
    name,
    documents: [{ file: b64(await plainPdf(2)) }],
    fields: [
      { name: 'Client signature', type: 'signature', role: 'Client', areas: area(2, 0.8) },
      { name: 'Client name', type: 'text', role: 'Client', areas: area(1, 0.2) },
      { name: 'Client photo', type: 'image', role: 'Client', required: false, areas: area(1, 0.4) },
      { name: 'Agent signature', type: 'signature', role: 'Agent', areas: area(2, 0.9) },
    ],
  });
}

export const tokenOf = (signingUrl: string | null) => signingUrl!.split('/s/')[1]!;
