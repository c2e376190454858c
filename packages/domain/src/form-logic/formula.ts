import { MAX_FORMULA_DEPTH, MAX_FORMULA_LENGTH } from './types.ts';

/**
 * The formula grammar of number fields (issue 46 item 2), parsed by hand (no `eval`, no access
 * to anything but the values it is given):
 *
 *   formula  := sum
 *   sum      := product (('+' | '-') product)*
 *   product  := unary (('*' | '/') unary)*
 *   unary    := '-' unary | primary
 *   primary  := number | reference | call | '(' sum ')'
 *   call     := ('round' | 'min' | 'max' | 'sum') '(' sum (',' sum)* ')'
 *   reference:= '{' any text but braces '}' | identifier (letters, digits, _; not a function name)
 *   number   := digits ['.' digits]
 *
 * `round(x)` rounds to a whole number, `round(x, n)` to n decimals (0..10); `min`, `max`, `sum`
 * take one or more arguments. A reference is a field's value: a number field's number, a checkbox
 * 1 when ticked, anything empty or hidden 0. Division by zero gives no value (empty). At most
 * MAX_FORMULA_LENGTH characters and MAX_FORMULA_DEPTH levels of nesting.
 */
export type Formula =
  | { kind: 'num'; value: number }
  | { kind: 'ref'; name: string }
  | { kind: 'neg'; arg: Formula }
  | { kind: 'bin'; op: '+' | '-' | '*' | '/'; left: Formula; right: Formula }
  | { kind: 'call'; fn: FormulaFunction; args: Formula[] };

export const FORMULA_FUNCTIONS = ['round', 'min', 'max', 'sum'] as const;
export type FormulaFunction = (typeof FORMULA_FUNCTIONS)[number];

export class FormulaError extends Error {}

type Token =
  | { t: 'num'; v: number; at: number }
  | { t: 'ref'; v: string; at: number }
  | { t: 'id'; v: string; at: number }
  | { t: 'op'; v: string; at: number };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (/[0-9.]/.test(c)) {
      const m = /^(\d+(\.\d+)?|\.\d+)/.exec(src.slice(i, i + 64));
      if (!m) throw new FormulaError(`unexpected "${c}" at ${i + 1}`);
      out.push({ t: 'num', v: Number(m[0]), at: i });
      i += m[0].length;
    } else if (c === '{') {
      const end = src.indexOf('}', i + 1);
      const name = end < 0 ? '' : src.slice(i + 1, end).trim();
      if (end < 0 || !name || name.includes('{'))
        throw new FormulaError(`unclosed field reference at ${i + 1}`);
      out.push({ t: 'ref', v: name, at: i });
      i = end + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, i + 200))!;
      out.push({ t: 'id', v: m[0], at: i });
      i += m[0].length;
    } else if ('+-*/(),'.includes(c)) {
      out.push({ t: 'op', v: c, at: i });
      i++;
    } else {
      throw new FormulaError(`unexpected "${c}" at ${i + 1}`);
    }
  }
  return out;
}

class Parser {
  private i = 0;
  private readonly tokens: Token[];
  constructor(tokens: Token[]) {
    this.tokens = tokens;
  }

  parse(): Formula {
    const f = this.sum(0);
    const rest = this.tokens[this.i];
    if (rest) throw new FormulaError(`unexpected "${rest.v}" at ${rest.at + 1}`);
    return f;
  }

  private peekOp(...ops: string[]): string | undefined {
    const t = this.tokens[this.i];
    return t?.t === 'op' && ops.includes(t.v) ? t.v : undefined;
  }

  private expect(op: string): void {
    if (!this.peekOp(op)) throw new FormulaError(`expected "${op}"${this.where()}`);
    this.i++;
  }

  private where(): string {
    const t = this.tokens[this.i];
    return t ? ` at ${t.at + 1}` : ' at the end';
  }

  private deeper(depth: number): number {
    if (depth + 1 > MAX_FORMULA_DEPTH) {
      throw new FormulaError(`nested more than ${MAX_FORMULA_DEPTH} levels deep`);
    }
    return depth + 1;
  }

  private sum(depth: number): Formula {
    let left = this.product(depth);
    for (let op = this.peekOp('+', '-'); op; op = this.peekOp('+', '-')) {
      this.i++;
      left = { kind: 'bin', op: op as '+' | '-', left, right: this.product(depth) };
    }
    return left;
  }

  private product(depth: number): Formula {
    let left = this.unary(depth);
    for (let op = this.peekOp('*', '/'); op; op = this.peekOp('*', '/')) {
      this.i++;
      left = { kind: 'bin', op: op as '*' | '/', left, right: this.unary(depth) };
    }
    return left;
  }

  private unary(depth: number): Formula {
    if (this.peekOp('-')) {
      this.i++;
      return { kind: 'neg', arg: this.unary(this.deeper(depth)) };
    }
    if (this.peekOp('+')) {
      this.i++;
      return this.unary(this.deeper(depth));
    }
    return this.primary(depth);
  }

  private primary(depth: number): Formula {
    const t = this.tokens[this.i];
    if (!t) throw new FormulaError('the formula ends too early');
    if (t.t === 'num') {
      this.i++;
      return { kind: 'num', value: t.v };
    }
    if (t.t === 'ref') {
      this.i++;
      return { kind: 'ref', name: t.v };
    }
    if (t.t === 'id') {
      this.i++;
      if (!this.peekOp('(')) return { kind: 'ref', name: t.v };
      const fn = t.v.toLowerCase();
      if (!(FORMULA_FUNCTIONS as readonly string[]).includes(fn)) {
        throw new FormulaError(`unknown function "${t.v}" (round, min, max and sum are known)`);
      }
      return { kind: 'call', fn: fn as FormulaFunction, args: this.args(this.deeper(depth), fn) };
    }
    if (t.v === '(') {
      this.i++;
      const inner = this.sum(this.deeper(depth));
      this.expect(')');
      return inner;
    }
    throw new FormulaError(`unexpected "${t.v}" at ${t.at + 1}`);
  }

  private args(depth: number, fn: string): Formula[] {
    this.expect('(');
    const args = [this.sum(depth)];
    while (this.peekOp(',')) {
      this.i++;
      args.push(this.sum(depth));
    }
    this.expect(')');
    if (fn === 'round' && args.length > 2) throw new FormulaError('round takes one or two arguments');
    return args;
  }
}

/** Parses a formula; throws FormulaError with a readable reason. */
export function parseFormula(src: string): Formula {
  if (src.length > MAX_FORMULA_LENGTH) {
    throw new FormulaError(`longer than ${MAX_FORMULA_LENGTH} characters`);
  }
  if (!src.trim()) throw new FormulaError('the formula is empty');
  return new Parser(tokenize(src)).parse();
}

/** The field names a formula reads, in order of first mention. */
export function formulaReferences(f: Formula, out: string[] = []): string[] {
  if (f.kind === 'ref' && !out.includes(f.name)) out.push(f.name);
  else if (f.kind === 'neg') formulaReferences(f.arg, out);
  else if (f.kind === 'bin') {
    formulaReferences(f.left, out);
    formulaReferences(f.right, out);
  } else if (f.kind === 'call') for (const a of f.args) formulaReferences(a, out);
  return out;
}

/** Rounds half away from zero to `decimals` digits, exact for the values people type (1.005 → 1.01). */
export function roundTo(n: number, decimals: number): number {
  const d = Math.max(0, Math.min(10, Math.trunc(decimals)));
  const shifted = Number(`${Math.abs(n)}e${d}`);
  const r = Number(`${Math.round(shifted)}e-${d}`);
  const out = n < 0 ? -r : r;
  return Object.is(out, -0) ? 0 : out;
}

function call(fn: FormulaFunction, args: (number | null)[]): number | null {
  if (args.some((a) => a === null)) return null;
  const xs = args as number[];
  switch (fn) {
    case 'round':
      return roundTo(xs[0]!, xs[1] ?? 0);
    case 'min':
      return Math.min(...xs);
    case 'max':
      return Math.max(...xs);
    case 'sum':
      return xs.reduce((a, b) => a + b, 0);
  }
}

/**
 * A formula's value given each reference's number (`read`); null when there is none (a division
 * by zero, a result too large to be a number).
 */
export function evaluateFormula(f: Formula, read: (name: string) => number): number | null {
  const go = (g: Formula): number | null => {
    switch (g.kind) {
      case 'num':
        return g.value;
      case 'ref':
        return read(g.name);
      case 'neg': {
        const v = go(g.arg);
        return v === null ? null : -v;
      }
      case 'bin': {
        const a = go(g.left);
        const b = go(g.right);
        if (a === null || b === null) return null;
        if (g.op === '/') return b === 0 ? null : a / b;
        return g.op === '+' ? a + b : g.op === '-' ? a - b : a * b;
      }
      case 'call':
        return call(g.fn, g.args.map(go));
    }
  };
  const v = go(f);
  return v !== null && Number.isFinite(v) ? v : null;
}
