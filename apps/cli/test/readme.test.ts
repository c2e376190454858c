import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '@esign/testing/spawn';
import { describe, expect, it } from 'vitest';
import { commands } from '../src/registry.ts';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};

/** The README section that starts at a heading, up to the next heading of the same or a higher level. */
function section(heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  expect(start, `README has "${heading}"`).toBeGreaterThan(-1);
  const level = heading.match(/^#+/)![0].length;
  const rest = readme.slice(start + heading.length + 2);
  const next = rest.search(new RegExp(`\\n#{1,${level}} `));
  return next === -1 ? rest : rest.slice(0, next);
}

describe('README: the commands it shows exist', () => {
  it('every `npm run <script>` the README shows is a script of the root package.json (npm run esign)', () => {
    const used = [...readme.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!);
    expect(used).toContain('esign');
    for (const name of new Set(used)) expect(rootPackage.scripts, `npm run ${name}`).toHaveProperty(name);
    expect(rootPackage.scripts.esign).toBe('bash scripts/run.sh esign');
  });

  it('the `esign` command table lists every command the CLI has, and nothing else', () => {
    const table = section('### `esign` commands');
    const listed = [...table.matchAll(/^\| `([a-z]+(?: [a-z0-9-]+)?)[ `]/gm)].map((m) => m[1]);
    expect(new Set(listed)).toEqual(new Set(Object.keys(commands)));
    for (const [name, command] of Object.entries(commands))
      expect(table, name).toContain(`| \`${command.usage.replaceAll('|', '\\|')}\``);
  });

  it('says the CLI needs WEBHOOK_ALLOW_PRIVATE too for a loopback webhook URL', () => {
    expect(section('### `esign` commands')).toMatch(
      /WEBHOOK_ALLOW_PRIVATE=true[^`]*npm run esign -- webhook/,
    );
  });

  it('uses no tool a fresh Debian lacks (uuidgen)', () => {
    expect(readme).not.toContain('uuidgen');
  });

  it('every process entry the README tells you to run exists', () => {
    const files = [...readme.matchAll(/(?:node|tsx) (apps\/[\w/.-]+\.ts)/g)].map((m) => m[1]!);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(existsSync(join(ROOT, file)), file).toBe(true);
  });

  it('the Architecture section names every package and app of the workspace, and nothing that is not one, in one screen (issue 28)', () => {
    const text = section('## Architecture');
    const named = new Set([...text.matchAll(/`((?:packages|apps)\/[\w-]+)/g)].map((m) => m[1]!));
    for (const [, group, list] of text.matchAll(/`(packages|apps)\/\{([\w,-]+)\}`/g)) {
      for (const name of list!.split(',')) named.add(`${group}/${name}`);
    }
    const workspace = ['packages', 'apps'].flatMap((dir) =>
      readdirSync(join(ROOT, dir), { withFileTypes: true })
        .filter((e) => e.isDirectory() && existsSync(join(ROOT, dir, e.name, 'package.json')))
        .map((e) => `${dir}/${e.name}`),
    );
    expect([...named].sort()).toEqual(workspace.sort());
    expect(text.split('\n').length, 'one screen').toBeLessThanOrEqual(50);
  });
});
