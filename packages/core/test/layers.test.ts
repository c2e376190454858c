import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Core's layers, each importing only downward (issue 28, item 4):
//   routers/ (with trpc.ts and app-router.ts) → services/ → contracts/
// Contracts are the zod input/output schemas and the DTO types both sides share; the dashboard
// bundles them for the browser (`@esign/core/schemas/*`), so they import nothing of the server.

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** The packages a contract may import: the schema library and the shared vocabulary. */
// @esign/i18n: the supported languages and the BCP 47 check of a `locale` field (issue 32); like
// @esign/domain it imports nothing of ours and runs in the browser.
const CONTRACT_PACKAGES = new Set(['zod', '@esign/domain', '@esign/i18n']);

type Layer = 'routers' | 'services' | 'contracts' | 'other';

function layerOf(path: string): Layer {
  if (path.startsWith('routers/') || path === 'trpc.ts' || path === 'app-router.ts') return 'routers';
  if (path.startsWith('services/')) return 'services';
  if (path.startsWith('contracts/')) return 'contracts';
  return 'other';
}

/** Every module a source file names: static imports and re-exports, `import '…'`, `import('…')`. */
function specifiersOf(source: string): string[] {
  const pattern = /\bfrom\s*(['"])([^'"]+)\1|\bimport\s*(['"])([^'"]+)\3|\bimport\s*\(\s*(['"])([^'"]+)\5/g;
  return [...source.matchAll(pattern)].map((m) => (m[2] ?? m[4] ?? m[6])!);
}

/** The layer rules broken by `files` (path under src/ → source), one line per import. */
function layerViolations(files: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [path, source] of Object.entries(files)) {
    const layer = layerOf(path);
    for (const spec of specifiersOf(source)) {
      const relativeSpec = spec.startsWith('.');
      const target = relativeSpec ? posix.normalize(posix.join(posix.dirname(path), spec)) : spec;
      const targetLayer = relativeSpec ? layerOf(target) : 'other';
      if (spec === '@esign/core' || spec.startsWith('@esign/core/')) {
        found.push(
          `${path} imports ${spec}: core imports itself by relative path, never through its package name`,
        );
      } else if (layer === 'services' && targetLayer === 'routers') {
        found.push(
          `${path} imports ${spec}: a service never imports a router (move what both need to contracts/)`,
        );
      } else if (layer === 'contracts' && relativeSpec && targetLayer !== 'contracts') {
        found.push(
          `${path} imports ${spec}: a contract imports only other contracts, never ${targetLayer} code`,
        );
      } else if (layer === 'contracts' && !relativeSpec && !CONTRACT_PACKAGES.has(spec)) {
        found.push(
          `${path} imports ${spec}: a contract imports only ${[...CONTRACT_PACKAGES].join(' and ')}`,
        );
      }
    }
  }
  return found;
}

function sourcesUnder(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const full = join(entry.parentPath, entry.name);
    files[relative(root, full).split('\\').join('/')] = readFileSync(full, 'utf8');
  }
  return files;
}

describe("core's layers import downward only (issue 28, item 4)", () => {
  it('no service imports from routers/ (or trpc.ts, app-router.ts); contracts import only contracts, zod, @esign/domain and @esign/i18n', () => {
    const files = sourcesUnder(src);
    expect(Object.keys(files).filter((p) => layerOf(p) === 'contracts').length).toBeGreaterThan(10);
    expect(Object.keys(files).filter((p) => layerOf(p) === 'services').length).toBeGreaterThan(50);
    expect(layerViolations(files)).toEqual([]);
  });

  it('the check sees every way of importing and names each broken rule', () => {
    const violations = layerViolations({
      'services/templates/read.ts': [
        "import type { TemplateDto } from '../../routers/templates.ts';",
        "export { appRouter } from '../../app-router.ts';",
        "import {\n  formatPath,\n} from '../../trpc.ts';",
        "const later = await import('../../routers/signing.ts');",
        "import { TemplateListOutput } from '../../contracts/templates.ts';",
        "import { CoreError } from '../../errors.ts';",
      ].join('\n'),
      'contracts/feedback.ts': [
        "import { z } from 'zod';",
        "import { FEEDBACK_KINDS } from '../services/feedback.ts';",
        "import '../routers/feedback.ts';",
        "import { IdParam } from './ids.ts';",
        "import type { Tx } from '@esign/db';",
      ].join('\n'),
      'routers/templates.ts':
        "import { list } from '../services/templates/read.ts';\nimport { X } from '../contracts/templates.ts';",
      'services/mail.ts': "import { appRouter } from '@esign/core';",
    });
    expect(violations).toEqual([
      'services/templates/read.ts imports ../../routers/templates.ts: a service never imports a router (move what both need to contracts/)',
      'services/templates/read.ts imports ../../app-router.ts: a service never imports a router (move what both need to contracts/)',
      'services/templates/read.ts imports ../../trpc.ts: a service never imports a router (move what both need to contracts/)',
      'services/templates/read.ts imports ../../routers/signing.ts: a service never imports a router (move what both need to contracts/)',
      'contracts/feedback.ts imports ../services/feedback.ts: a contract imports only other contracts, never services code',
      'contracts/feedback.ts imports ../routers/feedback.ts: a contract imports only other contracts, never routers code',
      'contracts/feedback.ts imports @esign/db: a contract imports only zod and @esign/domain and @esign/i18n',
      'services/mail.ts imports @esign/core: core imports itself by relative path, never through its package name',
    ]);
  });
});
