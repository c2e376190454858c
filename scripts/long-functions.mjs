#!/usr/bin/env node
// Lists every function, arrow function, method and accessor in product source that spans more than
// `--max` lines (80 by default), measured from its first token to its closing brace, nested
// functions included. Tests, test helpers, migrations, benchmarks, fixtures, generated files (a
// `@generated` marker in the first lines), node_modules and build output are not product code and are
// skipped. STYLE.md: functions a reader can hold in their head.
//
//   node scripts/long-functions.mjs [--max 80] [--json] [root]
//
// Prints `path:line name (N lines)` per function, longest first, and exits 1 when any is found.
// scripts/long-functions.test.ts runs it over the tree with the allow-list the issue tolerates.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const DEFAULT_MAX_LINES = 80;

const SKIPPED_DIRS = new Set([
  'node_modules',
  'dist',
  'build',
  'coverage',
  'test',
  'tests',
  'fixtures',
  'migrations',
  'bench',
  'data',
  '.git',
  '.tools',
  '.turbo',
  '.cache',
  'vendor',
]);
const SOURCE_FILE = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;
const NOT_PRODUCT_FILE = /(?:\.test\.[cm]?[jt]sx?|\.d\.[cm]?ts|\.fixtures?\.[cm]?[jt]sx?)$/;
const GENERATED_MARKER = /@generated\b/;

/** Product source files under `root`, as paths relative to it with `/` separators, sorted. */
export function listSourceFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(join(dir, entry.name));
      } else if (entry.isFile() && SOURCE_FILE.test(entry.name) && !NOT_PRODUCT_FILE.test(entry.name)) {
        files.push(relative(root, join(dir, entry.name)).split(sep).join('/'));
      }
    }
  };
  walk(root);
  return files.sort();
}

function scriptKind(path) {
  if (path.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (path.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(path)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

function propertyNameText(name) {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteralLike(name)) return name.text;
  if (ts.isNumericLiteral(name)) return name.text;
  return `[${name.getText()}]`;
}

/** A readable name: the declaration's own, else what it is assigned to or passed to. */
function functionName(node) {
  if (node.name) {
    const own = propertyNameText(node.name);
    const owner = node.parent && ts.isClassLike(node.parent) && node.parent.name?.text;
    return owner ? `${owner}.${own}` : own;
  }
  if (ts.isConstructorDeclaration(node)) return `${node.parent.name?.text ?? '<class>'}.constructor`;
  let parent = node.parent;
  while (parent && (ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent)))
    parent = parent.parent;
  if (!parent) return '<anonymous>';
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) {
    return ts.isIdentifier(parent.name) || ts.isStringLiteralLike(parent.name)
      ? propertyNameText(parent.name)
      : '<anonymous>';
  }
  if (ts.isBinaryExpression(parent)) return parent.left.getText();
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
    const callee = parent.expression.getText().replace(/\s+/g, '');
    const wrapped =
      parent.parent && ts.isVariableDeclaration(parent.parent) && ts.isIdentifier(parent.parent.name);
    return wrapped ? parent.parent.name.text : `<callback of ${callee}>`;
  }
  if (ts.isExportAssignment(parent)) return 'default';
  return '<anonymous>';
}

/** Functions in one file's text longer than `max` lines. */
export function longFunctionsInSource(path, text, max = DEFAULT_MAX_LINES) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKind(path));
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) found.push({ path, line: start + 1, name: functionName(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every product function under `root` longer than `max` lines, longest first. */
export function findLongFunctions(root, max = DEFAULT_MAX_LINES) {
  const found = [];
  for (const path of listSourceFiles(root)) {
    const text = readFileSync(join(root, path), 'utf8');
    if (GENERATED_MARKER.test(text.slice(0, 500))) continue;
    found.push(...longFunctionsInSource(path, text, max));
  }
  return found.sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path) || a.line - b.line);
}

export function formatReport(found, max = DEFAULT_MAX_LINES) {
  if (found.length === 0) return `No function over ${max} lines.`;
  const rows = found.map((f) => `${f.path}:${f.line} ${f.name} (${f.lines} lines)`);
  return [`${found.length} function(s) over ${max} lines:`, ...rows].join('\n');
}

function main(argv) {
  let max = DEFAULT_MAX_LINES;
  let json = false;
  let root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') json = true;
    else if (arg === '--max') max = Number(argv[++i]);
    else if (arg.startsWith('--max=')) max = Number(arg.slice('--max='.length));
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write('usage: node scripts/long-functions.mjs [--max 80] [--json] [root]\n');
      return 0;
    } else root = resolve(arg);
  }
  if (!Number.isInteger(max) || max < 1) {
    process.stderr.write('--max must be a positive whole number of lines\n');
    return 2;
  }
  const found = findLongFunctions(root, max);
  process.stdout.write(`${json ? JSON.stringify(found, null, 2) : formatReport(found, max)}\n`);
  return found.length === 0 ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
