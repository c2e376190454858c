import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listSourceFiles } from './long-functions.mjs';

// @esign/core's entry points (issue 43): package.json "exports" lists them, and nothing else of
// core is importable. `@esign/core/testing` hands internals to tests and benchmarks, so product
// code never imports it; and no file outside core reaches into packages/core/src by path.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CORE_SRC = 'packages/core/src/';

/** Every module a source file names: static imports and re-exports, `import '…'`, `import('…')`. */
function specifiersOf(source: string): string[] {
  const pattern = /\bfrom\s*(['"])([^'"]+)\1|\bimport\s*(['"])([^'"]+)\3|\bimport\s*\(\s*(['"])([^'"]+)\5/g;
  return [...source.matchAll(pattern)].map((m) => (m[2] ?? m[4] ?? m[6])!);
}

/** The entry rules broken by `files` (path from the repository's root → source), one per import. */
function entryViolations(files: Record<string, string>, product: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const [path, source] of Object.entries(files)) {
    for (const spec of specifiersOf(source)) {
      if (spec === '@esign/core/testing' && product.has(path)) {
        found.push(`${path} imports ${spec}: product code never imports core's test entry`);
      }
      const target = spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(path), spec)) : '';
      if (target.startsWith(CORE_SRC) && !path.startsWith('packages/core/')) {
        found.push(`${path} imports ${spec}: outside core, import one of its entries (@esign/core/…)`);
      }
    }
  }
  return found;
}

/** Every TypeScript file of the repository but dependencies and generated output. */
function allTypeScript(): Record<string, string> {
  const files: Record<string, string> = {};
  const skipped = new Set(['node_modules', 'dist', '.git', '.tools', '.turbo', 'data', 'out']);
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory() && !skipped.has(entry.name)) walk(path);
      else if (entry.isFile() && /\.(?:[cm]?ts|tsx)$/.test(entry.name))
        files[path] = readFileSync(join(root, path), 'utf8');
    }
  };
  walk('');
  return files;
}

describe("@esign/core's entry points (issue 43)", () => {
  it('no product file imports @esign/core/testing, and no file outside core imports packages/core/src by path', () => {
    const files = allTypeScript();
    // packages/testing is the tests' own package (their helpers), not product code.
    const product = new Set<string>(listSourceFiles(root).filter((p) => !p.startsWith('packages/testing/')));
    const appFiles = Object.keys(files).filter((p) => product.has(p) && p.startsWith('apps/'));
    expect(appFiles.length).toBeGreaterThan(100);
    expect(entryViolations(files, product)).toEqual([]);
  });

  it('the check sees every way of importing and names each broken rule', () => {
    const product = new Set(['apps/web/src/files/routes.ts', 'packages/http/src/app.ts']);
    const violations = entryViolations(
      {
        'apps/web/src/files/routes.ts': "import { signFileLink } from '@esign/core/testing';",
        'packages/http/src/app.ts': "const { drainJobs } = await import('@esign/core/testing');",
        'apps/web/test/files.int.test.ts': [
          "import { signFileLink } from '@esign/core/testing';",
          "import { drainJobs } from '../../../packages/core/src/services/worker.ts';",
        ].join('\n'),
        'packages/core/test/jobs.int.test.ts': "import { drainJobs } from '../src/services/worker.ts';",
      },
      product,
    );
    expect(violations).toEqual([
      "apps/web/src/files/routes.ts imports @esign/core/testing: product code never imports core's test entry",
      "packages/http/src/app.ts imports @esign/core/testing: product code never imports core's test entry",
      'apps/web/test/files.int.test.ts imports ../../../packages/core/src/services/worker.ts: outside core, import one of its entries (@esign/core/…)',
    ]);
  });

  it('every entry in package.json "exports" is a file of core and is described in docs/architecture.md', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'packages/core/package.json'), 'utf8'));
    const docs = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    const entries = Object.entries(manifest.exports as Record<string, string>);
    expect(entries.length).toBeGreaterThan(1);
    for (const [subpath, file] of entries) {
      expect(file, subpath).toMatch(/^\.\/src\//);
      const name = subpath === '.' ? '@esign/core' : `@esign/core/${subpath.slice(2)}`;
      expect(docs, `docs/architecture.md describes ${name}`).toContain(`\`${name}\``);
    }
  });
});
