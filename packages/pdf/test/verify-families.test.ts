import { rmSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { inspectSignatures, isIntact, type SignatureCheck } from '../src/seal/index.ts';
import type { Base } from './corpus/corpus.ts';
import {
  buildFamilies,
  caseName,
  FAMILY_TITLES,
  type Families,
  type Family,
  type FamilyCase,
} from './corpus/families.ts';
import { differs, mapLimit, mupdf, poppler, type Reader, type Shown } from './readers.ts';
import { requireTool, tempDir } from './seal-helpers.ts';

// Issue 40: the families of forgeries the verifier's redesign must read `modified`, each on a B-B
// and a B-LTA seal of ours (corpus/families.ts), and the benign variants it must keep intact.
// Each file is held to two things: what the readers show (poppler and MuPDF against the signed
// revision: a forgery must look different in at least one of them, a benign file the same in
// both), and the verdict of inspectSignatures.

// The files are built when the module loads the tests (vitest collects titles before beforeAll),
// so each file gets a test of its own.
const families: Families = await buildFamilies();
const checks = new Map<FamilyCase, SignatureCheck[]>();

beforeAll(async () => {
  for (const c of families.cases) checks.set(c, await inspectSignatures(c.bytes));
}, 120_000);

const verdict = (c: FamilyCase) => (isIntact(checks.get(c)!) ? 'intact_signature' : 'modified');

for (const family of Object.keys(FAMILY_TITLES) as Family[]) {
  describe(`issue 40, family ${family}: ${FAMILY_TITLES[family]}`, () => {
    for (const c of families.cases.filter((x) => x.family === family)) {
      const name = caseName(c);
      it(`issue 40, family ${family}: ${name} [${c.expect}]`, () => {
        const all = checks.get(c)!;
        if (c.invalid) {
          // The forged approval signature (whatever its place among the seal's timestamps) never verifies.
          const approvals = all.filter((s) => s.kind === 'approval');
          expect(approvals.length, 'the forged signature is found').toBeGreaterThan(0);
          for (const s of approvals)
            expect(s.valid, 'a signature whose /ByteRange is not its own').toBe(false);
        }
        expect(verdict(c)).toBe(c.expect);
      });
    }
  });
}

describe('issue 40, the families corpus', () => {
  it('every family holds files on B-B and on B-LTA seals, each attack on both', () => {
    const families_ = new Set(families.cases.map((c) => c.family));
    expect([...families_].sort()).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    for (const attack of new Set(families.cases.map((c) => c.attack))) {
      const levels = families.cases.filter((c) => c.attack === attack).map((c) => c.base.level);
      expect(levels.sort(), attack).toEqual(['B-B', 'B-LTA']);
    }
    expect(families.cases.length).toBeGreaterThanOrEqual(56);
  });

  it('oracle: every forgery shows something other than the signed revision in poppler or MuPDF, and every benign file shows the signed revision in both', async () => {
    requireTool('pdftotext');
    requireTool('pdftoppm');
    requireTool('mutool');
    const shown = await showAll(families.cases);
    const wrong: string[] = [];
    for (const c of families.cases) {
      const { poppler: p, mupdf: m } = shown.get(c)!;
      if (process.env.FAMILIES_REPORT)
        console.log(
          `${c.family} | ${verdict(c)} | poppler: ${p ?? 'same'} | MuPDF: ${m ?? 'same'} | ${caseName(c)}`,
        );
      if (c.oracle === 'differs' && !p && !m) wrong.push(`${caseName(c)}: shown as signed by both readers`);
      if (c.oracle === 'same' && (p || m)) wrong.push(`${caseName(c)}: poppler ${p}, MuPDF ${m}`);
    }
    expect(wrong).toEqual([]);
  }, 300_000);
});

/** What poppler and MuPDF show differently from the signed revision, per file (null: the same). */
async function showAll(
  cases: FamilyCase[],
): Promise<Map<FamilyCase, { poppler: string | null; mupdf: string | null }>> {
  const dir = tempDir('families-oracle');
  const signed = new Map<string, Promise<Shown | null>>();
  const showSigned = (reader: Reader, b: Base) => {
    const key = `${reader.name}-${families.bases.indexOf(b)}`;
    let s = signed.get(key);
    if (!s) {
      s = reader.show(dir, `signed-${key}`, b.bytes.subarray(0, b.signedEnd));
      signed.set(key, s);
    }
    return s;
  };
  const rows = await mapLimit(cases, 3, async (c, i) => {
    const out: { poppler: string | null; mupdf: string | null } = { poppler: null, mupdf: null };
    for (const reader of [poppler, mupdf]) {
      const [whole, before] = await Promise.all([
        reader.show(dir, `case-${reader.name}-${i}`, c.bytes),
        showSigned(reader, c.base),
      ]);
      out[reader === poppler ? 'poppler' : 'mupdf'] = differs(reader, whole, before);
    }
    return out;
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
  return new Map(cases.map((c, i) => [c, rows[i]!]));
}
