import type { TemplateRow } from '@esign/db';
import type { SendFieldRow } from '@esign/db/queries/signature-requests';
import { SignerInput } from '../../contracts/signature-requests.ts';
import { CoreError, formatPath } from '../../errors.ts';
import { keepImages, planRequest, type TemplateSource } from '../signature-requests/plan.ts';
import type { Cell, Spreadsheet } from './spreadsheet-read.ts';

// A bulk send's column mapping: which column holds each role's name, email and phone, and which
// columns prefill which fields. Each row becomes the `signers` of one POST /signature_requests,
// checked by the same rules.

interface SignerMapping {
  role: string;
  name?: string;
  email?: string;
  phone?: string;
  /** Issue 47: the column of this role's part (signer, approver, viewer; empty: signer). */
  kind?: string;
  /** field name → column */
  prefill?: Record<string, string>;
}

export interface BulkMapping {
  signers: SignerMapping[];
}

type RowSigner = Record<string, unknown> & { role: string };

export interface CheckedRow {
  row_number: number;
  signers: RowSigner[];
  errors: string[];
}

const ymd = (d: Date) => d.toISOString().slice(0, 10);

function text(c: Cell): string | undefined {
  if (c === null || c === undefined) return undefined;
  const s = c instanceof Date ? ymd(c) : String(c).trim();
  return s === '' ? undefined : s;
}

/** Prefill keeps what the spreadsheet typed: booleans, numbers; dates as YYYY-MM-DD. */
function prefillValue(c: Cell): unknown {
  if (c instanceof Date) return ymd(c);
  if (typeof c === 'string') return c.trim() === '' ? undefined : c.trim();
  return c ?? undefined;
}

/** Every column the mapping names must exist, every role must be the template's, each role once. */
export function checkMapping(mapping: BulkMapping, columns: string[], template: TemplateRow): void {
  const seen = new Set<string>();
  for (const [i, m] of mapping.signers.entries()) {
    if (!template.roles.includes(m.role))
      throw new CoreError(
        'invalid_parameter',
        `mapping.signers[${i}].role: "${m.role}" is not a role of this template`,
      );
    if (seen.has(m.role))
      throw new CoreError('invalid_parameter', `mapping.signers[${i}].role: "${m.role}" is mapped twice`);
    seen.add(m.role);
    const named = [m.name, m.email, m.phone, m.kind, ...Object.values(m.prefill ?? {})].filter(
      (c) => c !== undefined,
    );
    for (const c of named) {
      if (!columns.includes(c!))
        throw new CoreError('invalid_parameter', `mapping.signers[${i}]: the file has no column "${c}"`);
    }
    if (!m.email && !m.phone)
      throw new CoreError(
        'invalid_parameter',
        `mapping.signers[${i}]: map an email or a phone column for ${m.role}`,
      );
  }
  if (mapping.signers.length === 0)
    throw new CoreError('invalid_parameter', 'mapping.signers: map at least one role');
}

function rowSigners(mapping: BulkMapping, columns: string[], row: Cell[]): RowSigner[] {
  const at = (col: string | undefined) => (col === undefined ? null : (row[columns.indexOf(col)] ?? null));
  return mapping.signers.map((m) => {
    const s: RowSigner = { role: m.role };
    for (const key of ['name', 'email', 'phone'] as const) {
      const v = text(at(m[key]));
      if (v !== undefined) s[key] = v;
    }
    const kind = text(at(m.kind))?.toLowerCase();
    if (kind !== undefined) s.kind = kind;
    const prefill: Record<string, unknown> = {};
    for (const [field, col] of Object.entries(m.prefill ?? {})) {
      const v = prefillValue(at(col));
      if (v !== undefined) prefill[field] = v;
    }
    if (Object.keys(prefill).length) s.prefill = prefill;
    return s;
  });
}

export type MappingSource = TemplateSource;

/** Each row's signers and what is wrong with it, by the send rules (nothing is fetched here). */
export async function checkRows(
  sheet: Spreadsheet,
  mapping: BulkMapping,
  source: MappingSource,
): Promise<CheckedRow[]> {
  const out: CheckedRow[] = [];
  for (const [i, row] of sheet.rows.entries()) {
    const signers = rowSigners(mapping, sheet.columns, row);
    const errors: string[] = [];
    for (const [j, s] of signers.entries()) {
      const parsed = SignerInput.safeParse(s);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const col = mapping.signers[j]![issue.path[0] as 'email' | 'kind'] ?? String(issue.path[0]);
        errors.push(`${s.role} ${formatPath(issue.path)} (column "${col}"): ${issue.message}`);
      }
      if (!s.email && !s.phone) errors.push(`${s.role}: no email or phone in this row`);
    }
    if (!errors.length) {
      try {
        await planRequest(source, signers as never, keepImages);
      } catch (err) {
        if (!(err instanceof CoreError)) throw err;
        errors.push(err.message);
      }
    }
    // Row 1 is the header: the first data row is row 2, as a spreadsheet program numbers it.
    out.push({ row_number: i + 2, signers, errors });
  }
  return out;
}

/** A mapping guessed from the column names: "<Role> email", "Email", field names. */
export function suggestMapping(
  columns: string[],
  template: TemplateRow,
  fields: SendFieldRow[],
): BulkMapping {
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const find = (...names: string[]) => columns.find((c) => names.some((n) => norm(c) === norm(n)));
  const single = template.roles.length === 1;
  return {
    signers: template.roles.map((role) => {
      const m: SignerMapping = { role };
      const pick = (what: string) => find(`${role} ${what}`, ...(single ? [what] : []));
      const name = pick('name');
      const email = pick('email');
      const phone = pick('phone');
      const kind = pick('kind') ?? pick('part');
      if (kind) m.kind = kind;
      if (name) m.name = name;
      if (email) m.email = email;
      if (phone) m.phone = phone;
      const prefill: Record<string, string> = {};
      for (const f of fields.filter((f) => f.role === role && f.name)) {
        const col = find(f.name!);
        if (col && col !== name && col !== email && col !== phone && col !== kind) prefill[f.name!] = col;
      }
      if (Object.keys(prefill).length) m.prefill = prefill;
      return m;
    }),
  };
}
