import type { Config, Runtime } from '@esign/core';
import type { FastifyInstance } from 'fastify';
import type { TestDatabase } from './db.ts';

/**
 * The all-in-one app under test, as the HTTP helpers here (signing.ts, fixtures.ts, parts.ts,
 * file-streams.ts) use it. The root's test/harness.ts builds it (`startTestApp`): building it
 * needs every app, and this package depends on none (docs/testing.md).
 */
export interface TestApp {
  rt: Runtime;
  app: FastifyInstance;
  baseUrl: string;
  db: TestDatabase['db'];
  dbUrl: string;
  config: Config;
  clock: { now: Date | null };
  close(): Promise<void>;
  /** A REST call: path relative to /api/v1 unless it starts with '/'. */
  api(
    method: string,
    path: string,
    opts?: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<ApiResponse>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}
