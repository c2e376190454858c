import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeStream } from '../src/verify/decode.ts';
import { PdfFile } from '../src/verify/file.ts';
import { levelOf, readDssHistory, timeOf } from '../src/verify/levels.ts';
import type { Stream } from '../src/verify/lexer.ts';
import { View } from '../src/verify/model.ts';
import { coverCrl, coverOcsp, covers, emptyCoverage } from '../src/verify/revocation-cover.ts';
import { findSignatures } from '../src/verify/signatures.ts';

// Issue 40 (levels): B-LT needs revocation data about the signature's own certificates; an OCSP
// response or CRL about some other certificate in the /DSS does not make a signature long-term
// verifiable. The two files come from different tools and CAs (outside/manifest.json): pyHanko's
// B-LTA (the corpus's test CA, a CRL in the /DSS) and a Hungarian qualified signature from the EU
// DSS validator's corpus (Microsec's CAs, OCSP responses in the /DSS).

const read = (name: string) => {
  const file = new PdfFile(
    new Uint8Array(readFileSync(path.join(import.meta.dirname, 'outside/files', name))),
  );
  return { file, found: findSignatures(file) };
};
const pyhanko = read('ph-pades-b-lta.pdf');
const ours = read('dss-Signature-P-HU_POL-7.pdf');
const approval = (f: typeof pyhanko) => f.found.find((s) => s.kind !== 'document_timestamp')!;

describe('PAdES level: revocation data counts only for the certificates it is about', () => {
  it("each file's own /DSS covers its signer's certificate, and not the other file's", () => {
    for (const [self, other] of [
      [pyhanko, ours],
      [ours, pyhanko],
    ] as const) {
      const coverage = readDssHistory(self.file).byRevision.at(-1)!.coverage;
      expect(coverage.crlIssuers.size + coverage.ocsp.length).toBeGreaterThan(0);
      expect(covers(coverage, approval(self).check.certificates[0]!)).toBe(true);
      expect(covers(coverage, approval(other).check.certificates[0]!)).toBe(false);
    }
  });

  it('a signature reads B-LT or B-LTA with its own validation data, and B-T when the /DSS speaks of another CA', () => {
    for (const [self, other] of [
      [pyhanko, ours],
      [ours, pyhanko],
    ] as const) {
      const s = approval(self);
      const own = readDssHistory(self.file);
      expect(levelOf(s, self.found, own, timeOf(s, self.found))).toMatch(/^B-LTA?$/);
      // The same file with the other file's revocation entries in place of its own (certificates kept).
      const foreign = readDssHistory(other.file).byRevision.at(-1)!.coverage;
      const swapped = { byRevision: own.byRevision.map((r) => ({ ...r, coverage: foreign })) };
      expect(s.check.revocation.crls.length + s.check.revocation.ocsps.length).toBe(0);
      expect(levelOf(s, self.found, swapped, timeOf(s, self.found))).toBe('B-T');
    }
  });

  it('an entry in a Buffer that views a larger one (a decoded stream) is read from its own bytes', () => {
    const coverage = readDssHistory(ours.file).byRevision.at(-1)!.coverage;
    expect(coverage.ocsp.length).toBeGreaterThan(0);
    // Rebuild one OCSP entry's coverage from bytes that sit inside a larger buffer.
    const view = new View(ours.file, ours.file.revisions.at(-1)!);
    const dss = view.dict(view.catalog()?.get('DSS'));
    const first = view.get(view.array(dss?.get('OCSPs'))![0]) as Stream;
    const der = decodeStream(first)!;
    const inside = Buffer.concat([Buffer.from('padding before the entry'), der]).subarray(24);
    const again = emptyCoverage();
    coverOcsp(inside, again);
    expect(again.ocsp.length).toBeGreaterThan(0);
    expect(coverage.ocsp).toEqual(expect.arrayContaining(again.ocsp));
  });

  it('unreadable entries cover nothing', () => {
    const coverage = emptyCoverage();
    coverCrl(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01]), coverage);
    coverOcsp(new TextEncoder().encode('not DER at all'), coverage);
    expect(coverage.crlIssuers.size + coverage.ocsp.length).toBe(0);
    expect(covers(coverage, approval(ours).check.certificates[0]!)).toBe(false);
  });
});
