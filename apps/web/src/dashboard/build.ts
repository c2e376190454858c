import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The dashboard's sources (a Vite + React app) and where its builds are kept (gitignored). */
const DASHBOARD_ROOT = fileURLToPath(new URL('../../dashboard/', import.meta.url));
const DIST = join(DASHBOARD_ROOT, 'dist');
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Everything the bundle is made from: the app, the core schema files its forms reuse, the field-type
 * list they import, and the lockfile (library versions). A change to any of them means a new build.
 */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'dist' || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(DASHBOARD_ROOT);
  const routers = join(REPO_ROOT, 'packages/core/src/routers');
  for (const name of readdirSync(routers)) if (name.endsWith('.schemas.ts')) files.push(join(routers, name));
  files.push(join(REPO_ROOT, 'packages/pdf/src/ingest/types.ts'), join(REPO_ROOT, 'pnpm-lock.yaml'));
  return files.filter((f) => existsSync(f)).sort();
}

export function dashboardSourceHash(): string {
  const hash = createHash('sha256');
  for (const file of sourceFiles()) {
    hash.update(relative(REPO_ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A lock older than this belongs to a build that died. */
const STALE_LOCK_MS = 5 * 60_000;

/** What the builder process reports: its pid and peak RSS. */
export interface BuilderReport {
  pid: number;
  maxRssMb: number;
}

/**
 * Runs `vite build` into `outDir` in a process of its own (vite-build.ts), so the memory Vite and
 * Rollup take is given back when it exits instead of staying in the server that asked for it.
 */
export function viteBuild(outDir: string): Promise<BuilderReport> {
  const entry = fileURLToPath(new URL('./vite-build.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, outDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code === 0) {
        try {
          return resolve(JSON.parse(last) as BuilderReport);
        } catch {}
      }
      reject(new Error(`dashboard build failed (${signal ?? `exit ${code}`}):\n${out.slice(-4000)}`));
    });
  });
}

/**
 * The built dashboard for the current sources: built on first use (first start, first test run)
 * and then reused from `dashboard/dist/<hash>` by every process until a source changes. Processes
 * starting together build once: one holds a lock file, the others wait for its result.
 */
export async function ensureDashboardBuilt(log: (msg: string) => void = () => {}): Promise<string> {
  const hash = dashboardSourceHash();
  const out = join(DIST, hash);
  await mkdir(DIST, { recursive: true });
  const lockPath = join(DIST, `.lock-${hash}`);
  for (;;) {
    if (existsSync(join(out, 'index.html'))) return out;
    let lock: Awaited<ReturnType<typeof open>> | null = null;
    try {
      lock = await open(lockPath, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = Date.now() - (await stat(lockPath).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > STALE_LOCK_MS) await unlink(lockPath).catch(() => {});
      else await sleep(250);
      continue;
    }
    try {
      if (existsSync(join(out, 'index.html'))) return out;
      log(`building the dashboard (${hash}); this happens once per source change`);
      const started = Date.now();
      const tmp = join(DIST, `.tmp-${hash}-${process.pid}`);
      const builder = await viteBuild(tmp);
      await rm(out, { recursive: true, force: true });
      await rename(tmp, out);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      log(`dashboard built in ${seconds} s (builder process peak ${builder.maxRssMb} MB)`);
      await pruneOldBuilds(hash);
      return out;
    } finally {
      await lock.close();
      await unlink(lockPath).catch(() => {});
    }
  }
}

/** Keeps the two newest builds (a process still serving the previous one keeps working). */
async function pruneOldBuilds(keep: string): Promise<void> {
  const dirs = (await readdir(DIST)).filter((d) => /^[0-9a-f]{16}$/.test(d) && d !== keep);
  const byAge = dirs
    .map((d) => ({ d, t: statSync(join(DIST, d)).mtimeMs }))
    .sort((a, b) => b.t - a.t)
    .slice(1);
  for (const { d } of byAge) await rm(join(DIST, d), { recursive: true, force: true });
}
