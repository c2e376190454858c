import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README's Architecture section draws the workspace as layers, each depending only on those
// below it. This test holds the drawing to the package manifests: a runtime dependency of one
// workspace package on another must point down. (devDependencies are the tests' own and are not
// layers; inside core, packages/core/test/layers.test.ts holds routers → services → contracts.)

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The README's layers, bottom first; a package may depend only on packages of a lower layer. */
const LAYERS: readonly (readonly string[])[] = [
  // Words and types shared with the browser; the browser-side kits.
  ['@esign/domain', '@esign/i18n', '@esign/embed', '@esign/client'],
  ['@esign/pdf', '@esign/db', '@esign/webhooks'],
  ['@esign/core'],
  ['@esign/http'],
  ['@esign/api', '@esign/mcp', '@esign/web', '@esign/worker', '@esign/cli'],
  ['@esign/server'],
];

type Manifest = { name: string; dependencies?: Record<string, string> };

/** Every dependency that does not point down, as "from → to". */
function upwardDependencies(manifests: readonly Manifest[]): string[] {
  const layerOf = new Map(LAYERS.flatMap((names, i) => names.map((n) => [n, i] as const)));
  const found: string[] = [];
  for (const m of manifests) {
    const own = layerOf.get(m.name);
    for (const dep of Object.keys(m.dependencies ?? {})) {
      if (!dep.startsWith('@esign/')) continue;
      const theirs = layerOf.get(dep);
      if (own === undefined || theirs === undefined || theirs >= own) found.push(`${m.name} → ${dep}`);
    }
  }
  return found.sort();
}

function workspaceManifests(): Manifest[] {
  return ['apps', 'packages'].flatMap((dir) =>
    readdirSync(join(root, dir)).flatMap((name) => {
      try {
        return [JSON.parse(readFileSync(join(root, dir, name, 'package.json'), 'utf8')) as Manifest];
      } catch {
        return [];
      }
    }),
  );
}

describe('package layers (issue 43: the README draws the layers; nothing runs back up)', () => {
  it('every workspace package is in a layer of the drawing, and every runtime dependency points down', () => {
    const manifests = workspaceManifests().filter((m) => m.name !== '@esign/testing');
    const placed = new Set(LAYERS.flat());
    expect(manifests.map((m) => m.name).filter((n) => !placed.has(n))).toEqual([]);
    expect(upwardDependencies(manifests)).toEqual([]);
  });

  it('catches a dependency up a layer, across one layer, and on an unplaced package', () => {
    expect(
      upwardDependencies([
        { name: '@esign/db', dependencies: { '@esign/core': 'workspace:*', kysely: '1' } },
        { name: '@esign/api', dependencies: { '@esign/web': 'workspace:*' } },
        { name: '@esign/core', dependencies: { '@esign/new-thing': 'workspace:*', '@esign/db': '*' } },
      ]),
    ).toEqual(['@esign/api → @esign/web', '@esign/core → @esign/new-thing', '@esign/db → @esign/core']);
  });
});
