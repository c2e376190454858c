import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * The dashboard's words that are not in its catalogue (issue 32: "its strings should be ready to
 * translate"): English written inline in the dashboard's sources, found in their syntax trees.
 *
 * What counts as words a user reads:
 * - text between JSX tags with a letter in it (`<p>Saved</p>`);
 * - a string or template literal with a letter, written as a JSX attribute other than the ones that
 *   never reach the screen (`className`, `type`, `href` …), or inside `{…}` in JSX
 *   (`{done ? 'enabled' : 'disabled'}`);
 * - any other string or template literal that reads as prose: it starts with a capital letter
 *   followed by a small one (`'Endpoint saved'`, `'Email'`, `` `Test failed: ${e}` ``), or it holds
 *   two words and ends like a sentence (`'could not load.'`).
 *
 * Not words: module names, types, property names, the operands of comparisons and `case` labels
 * (`e.key === 'Enter'`), the arguments of `msg`/`t`/`tx` (catalogue keys), and the catalogue itself
 * (dashboard/src/messages/).
 */
export type Finding = { file: string; line: number; text: string };

const SRC = new URL('../dashboard/src/', import.meta.url).pathname;

/** Attributes whose values the user never reads. */
const NOT_TEXT_ATTRIBUTES = new Set([
  'className',
  'style',
  'path',
  'id',
  'key',
  'type',
  'name',
  'href',
  'to',
  'src',
  'rel',
  'target',
  'role',
  'variant',
  'tone',
  'size',
  'method',
  'action',
  'encType',
  'autoComplete',
  'inputMode',
  'enterKeyHint',
  'autoCapitalize',
  'htmlFor',
  'form',
  'accept',
  'pattern',
  'lang',
  'dir',
  'align',
  'width',
  'height',
  'viewBox',
  'd',
  'fill',
  'stroke',
  'xmlns',
  'loading',
  'decoding',
  'referrerPolicy',
  'sandbox',
  'allow',
  'spellCheck',
  'step',
  'min',
  'max',
  'wrap',
  'scope',
  'aria-live',
  'aria-current',
  'aria-haspopup',
  'aria-controls',
  'aria-describedby',
  'aria-labelledby',
  'aria-hidden',
  'aria-expanded',
  'aria-pressed',
  'aria-selected',
  'aria-checked',
  'aria-invalid',
  'aria-busy',
  'aria-orientation',
  'aria-sort',
  'aria-autocomplete',
  'aria-modal',
  'aria-owns',
  'aria-errormessage',
]);

/** Attributes that always hold words, whatever they look like (`aria-label="close"`). */
const TEXT_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'title',
  'placeholder',
  'alt',
  'label',
]);

/** Calls whose string arguments are keys, not words. */
const KEY_CALLS = new Set(['msg', 't', 'tx']);

const LETTER = /\p{L}/u;
const PROSE_START = /^\s*\p{Lu}\p{Ll}/u;
/** A template's words around its values (`${who} signed ${what}`). */
const PHRASE = /(^|\s)\p{Ll}{2,}\s|\p{L}{2,}\s+\p{L}{2,}/u;
const SENTENCE = /\p{L}.*\s.*\p{L}.*[.!?:…]\s*$/su;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'messages' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The static text of a string or template literal. */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
  return null;
}

function calleeName(call: ts.CallExpression): string | null {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return null;
}

/** Where a literal sits: in a JSX attribute (its name), inside `{…}` in JSX, or elsewhere. */
function placeOf(
  node: ts.Node,
): { kind: 'attribute'; name: string } | { kind: 'jsx' } | { kind: 'code' } | null {
  let child: ts.Node = node;
  let parent = node.parent;
  while (parent) {
    if (ts.isJsxAttribute(parent)) return { kind: 'attribute', name: parent.name.getText() };
    if (ts.isJsxExpression(parent)) {
      return ts.isJsxAttribute(parent.parent)
        ? { kind: 'attribute', name: parent.parent.name.getText() }
        : { kind: 'jsx' };
    }
    if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isImportTypeNode(parent))
      return null;
    if (ts.isLiteralTypeNode(parent) || ts.isTypeNode(parent)) return null;
    if (ts.isPropertyAssignment(parent) && parent.name === child) return null;
    if (ts.isElementAccessExpression(parent) && parent.argumentExpression === child) return null;
    if (ts.isCaseClause(parent) && parent.expression === child) return null;
    if (
      ts.isBinaryExpression(parent) &&
      [
        ts.SyntaxKind.EqualsEqualsEqualsToken,
        ts.SyntaxKind.ExclamationEqualsEqualsToken,
        ts.SyntaxKind.EqualsEqualsToken,
        ts.SyntaxKind.ExclamationEqualsToken,
        ts.SyntaxKind.InKeyword,
      ].includes(parent.operatorToken.kind)
    )
      return null;
    // Inside a function, a literal is code again (`onClick={() => set('live')}`).
    if (ts.isArrowFunction(parent) || ts.isFunctionExpression(parent)) return { kind: 'code' };
    if (ts.isCallExpression(parent)) {
      const name = calleeName(parent);
      if (name && KEY_CALLS.has(name)) return null;
      // An argument is the call's input, read as code (`{...form.register('email')}`), unless prose.
      if (parent.arguments.some((a) => a === child)) return { kind: 'code' };
    }
    // A literal inside an object, array or conditional keeps looking upward: `{done ? 'on' :
    // 'off'}` in JSX is words.
    if (ts.isBlock(parent) || ts.isSourceFile(parent) || ts.isVariableDeclaration(parent)) break;
    child = parent;
    parent = parent.parent;
  }
  return { kind: 'code' };
}

/** Every inline English word of the dashboard's sources, by file and line. */
export function untranslatedWords(dir = SRC): Finding[] {
  const findings: Finding[] = [];
  for (const path of sourceFiles(dir)) {
    const text = readFileSync(path, 'utf8');
    const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
    const file = relative(dir, path);
    const report = (node: ts.Node, words: string) => {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      findings.push({ file, line: line + 1, text: words.trim().replace(/\s+/g, ' ').slice(0, 80) });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isJsxText(node)) {
        if (LETTER.test(node.text)) report(node, node.text);
        return;
      }
      const words = literalText(node);
      if (words !== null) {
        if (LETTER.test(words)) {
          const place = placeOf(node);
          const prose = PROSE_START.test(words) || SENTENCE.test(words);
          const url = /^\s*\//.test(words);
          if (place?.kind === 'attribute') {
            if (TEXT_ATTRIBUTES.has(place.name)) report(node, words);
            else if (!NOT_TEXT_ATTRIBUTES.has(place.name) && !place.name.startsWith('data-') && !url) {
              if (prose || /\p{L}\s+\p{L}/u.test(words)) report(node, words);
            }
          } else if (place?.kind === 'jsx') report(node, words);
          else if (
            place?.kind === 'code' &&
            !url &&
            (prose || (ts.isTemplateExpression(node) && PHRASE.test(words)))
          )
            report(node, words);
        }
        if (!ts.isTemplateExpression(node)) return;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return findings;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `node apps/web/test/dashboard-words.ts [--summary]`: the findings, or their count by file.
  const findings = untranslatedWords();
  const byFile = new Map<string, number>();
  for (const f of findings) byFile.set(f.file, (byFile.get(f.file) ?? 0) + 1);
  const lines = process.argv.includes('--summary')
    ? [...byFile].sort((a, b) => b[1] - a[1]).map(([file, n]) => `${n}\t${file}`)
    : findings.map((f) => `${f.file}:${f.line}\t${f.text}`);
  process.stdout.write(`${[...lines, `${findings.length} in ${byFile.size} files`].join('\n')}\n`);
}
