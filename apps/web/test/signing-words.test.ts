import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Issue 42.6: what the signing page says to a screen reader is in the signer's language. Every
// argument of `announce(...)` in the client is built from catalogue messages (`tr(key, …)`) and
// data; a literal word there ("saved", "cleared") would be English in every language.

const CLIENT = new URL('../src/signing/client/', import.meta.url).pathname;

const isTr = (n: ts.Node) =>
  ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'tr';

/** Literal text with a letter in it, outside any tr(...) call, inside `node`. */
function literalWords(node: ts.Node, out: string[] = []): string[] {
  if (isTr(node)) return out;
  if (
    ts.isStringLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isTemplateHead(node) ||
    ts.isTemplateMiddle(node) ||
    ts.isTemplateTail(node)
  ) {
    if (/\p{L}/u.test(node.text)) out.push(node.text);
  }
  ts.forEachChild(node, (c) => {
    literalWords(c, out);
  });
  return out;
}

describe('issue 42.6: the signing page announces only catalogue words and data', () => {
  it('no announce(...) in the signing client carries a literal word (e.g. "<field> saved.")', () => {
    const found: string[] = [];
    for (const name of readdirSync(CLIENT).filter((f) => f.endsWith('.ts'))) {
      const file = join(CLIENT, name);
      const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      let calls = 0;
      const visit = (n: ts.Node) => {
        if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'announce') {
          calls++;
          for (const arg of n.arguments) for (const w of literalWords(arg)) found.push(`${name}: "${w}"`);
        }
        ts.forEachChild(n, visit);
      };
      visit(src);
      if (name === 'field-actions.ts') expect(calls).toBeGreaterThan(2);
    }
    expect(found).toEqual([]);
  });
});
