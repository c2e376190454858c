import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  inspectSignatures,
  isIntact,
  loadSigningIdentity,
  type SigningIdentity,
  sealDocument,
} from '../src/seal/index.ts';
import { sourcePdf, tempDir } from './seal-helpers.ts';

let identity: SigningIdentity;
let sealed: Uint8Array;
const signedAt = new Date(Date.UTC(2025, 5, 1, 12, 0, 0));

beforeAll(async () => {
  identity = await loadSigningIdentity({ dataDir: tempDir('seal-verify') });
  sealed = await sealDocument({
    pdf: await sourcePdf(1),
    values: [{ type: 'text', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.4, h: 0.04 }], value: 'Tamper target' }],
    identity,
    name: 'verify',
    signedAt,
  });
});

function signatureGap(pdf: Uint8Array): { start: number; end: number; byteRangeAt: number } {
  const text = new TextDecoder('latin1').decode(pdf);
  const m = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text)!;
  return { start: Number(m[2]), end: Number(m[3]), byteRangeAt: m.index };
}

describe('POST /documents/verify: inspectSignatures checks signed PDFs', () => {
  it('reports the intact seal: valid, whole document, signer certificate, signing time, reason', async () => {
    const checks = await inspectSignatures(sealed);
    expect(checks).toEqual([
      {
        valid: true,
        coversWholeDocument: true,
        modifiedAfterSigning: false,
        kind: 'certification',
        docMdp: 1,
        subFilter: 'ETSI.CAdES.detached',
        signerSubject: identity.subject,
        signerCertificateSha256: identity.fingerprintSha256,
        signingTime: signedAt.toISOString(),
        timestampTime: null,
        timestampAuthority: undefined,
        timestampTrusted: undefined,
        timestampIssues: undefined,
        level: 'B-B',
        revision: 2,
        modificationLevel: 'none',
        modificationsPermitted: 'validation_data',
        modifications: [],
        changesAfter: [],
        weakAlgorithms: undefined,
        reason: 'Signed electronically',
        error: undefined,
      },
    ]);
    expect(isIntact(checks)).toBe(true);
  });

  it('the CMS is CAdES detached with content-type, message-digest and signing-certificate-v2, and no signing-time (PAdES baseline: the time is in /M only)', () => {
    const { start, end } = signatureGap(sealed);
    const hex = new TextDecoder('latin1').decode(sealed.subarray(start + 1, end - 1));
    const asn = asn1js.fromBER(Buffer.from(hex, 'hex'));
    const signed = new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: asn.result }).content });
    expect(signed.encapContentInfo.eContent).toBeUndefined();
    const oids = signed.signerInfos[0]!.signedAttrs!.attributes.map((a) => a.type);
    expect(oids).toEqual([
      '1.2.840.113549.1.9.3', // content-type
      '1.2.840.113549.1.9.4', // message-digest
      '1.2.840.113549.1.9.16.2.47', // signing-certificate-v2
    ]);
    expect(new TextDecoder('latin1').decode(sealed)).toMatch(/\/M\s*\(D:20250601120000Z\)/);
  });

  it('flipping any one byte inside the signed ranges, or the < and > around /Contents, is detected', async () => {
    const { start, end } = signatureGap(sealed);
    const positions: number[] = [];
    for (let i = 0; i < sealed.length; i++) if (i < start || i >= end) positions.push(i); // every signed byte
    positions.push(start, end - 1); // the < and > around /Contents
    for (const pos of positions) {
      const tampered = sealed.slice();
      tampered[pos] = tampered[pos]! ^ 0x01;
      expect(isIntact(await inspectSignatures(tampered)), `byte ${pos} flipped`).toBe(false);
    }
    expect(positions.length).toBeGreaterThan(3000);
  }, 60_000);

  it('issue 40 item 5: a hex digit changed in the padding after the CMS changes nothing signed: the seal stays valid (real files carry other bytes there)', async () => {
    const { end } = signatureGap(sealed);
    for (let i = end - 400; i < end - 1; i += 37) {
      const tampered = sealed.slice();
      tampered[i] = 0x37; // '7': still a hex digit, the string keeps its length
      const [check] = await inspectSignatures(tampered);
      expect(check, `padding byte ${i}`).toMatchObject({ valid: true, modifiedAfterSigning: false });
    }
  }, 60_000);

  it('a change to any byte of the signature dictionary still reports the signature, as not valid (verdict modified, never unsigned)', async () => {
    const text = new TextDecoder('latin1').decode(sealed);
    const { start, end, byteRangeAt } = signatureGap(sealed);
    const from = text.lastIndexOf(' obj', byteRangeAt) - 4;
    const to = text.indexOf('endobj', byteRangeAt) + 'endobj'.length;
    const positions: number[] = [];
    for (let i = from; i < to; i++) if (i < start + 1 || i >= end - 1) positions.push(i);
    expect(positions.length).toBeGreaterThan(200);
    const lost: string[] = [];
    for (const pos of positions) {
      const byte = sealed[pos]!;
      // As POST /documents/verify's test changes bytes, and one bit flipped.
      for (const changed of [byte === 0x30 ? 0x31 : byte === 0x20 ? 0x0a : 0x30, byte ^ 0x01]) {
        const tampered = sealed.slice();
        tampered[pos] = changed;
        const checks = await inspectSignatures(tampered);
        if (checks.length !== 1 || checks[0]!.valid) {
          lost.push(
            `${pos} ${JSON.stringify(text[pos])}→${JSON.stringify(String.fromCharCode(changed))}: ${checks.length} signatures`,
          );
        }
      }
    }
    expect(lost).toEqual([]);
    // The dictionary's /ByteRange keyword misspelt: still one signature, not valid, signer known.
    const misspelt = sealed.slice();
    misspelt[byteRangeAt + 1] = 0x30;
    const [check] = await inspectSignatures(misspelt);
    expect(check).toMatchObject({
      valid: false,
      kind: 'certification',
      revision: 2,
      signerSubject: identity.subject,
      error: 'Signature dictionary has no readable /ByteRange',
    });
  }, 60_000);

  it('changing any one hex digit of the CMS itself is detected (versions, lengths, unsigned fields included)', async () => {
    const { start } = signatureGap(sealed);
    const text = new TextDecoder('latin1').decode(sealed);
    const hex = text.slice(start + 1, text.indexOf('>', start));
    const derLength = asn1js.fromBER(Buffer.from(hex, 'hex')).offset;
    expect(derLength).toBeGreaterThan(1000);
    const accepted: number[] = [];
    for (let i = 0; i < derLength * 2; i++) {
      const tampered = sealed.slice();
      const at = start + 1 + i;
      tampered[at] = tampered[at] === 0x30 ? 0x31 : 0x30; // one hex digit to another
      if (isIntact(await inspectSignatures(tampered))) accepted.push(i);
    }
    expect(accepted, 'hex digits of the CMS whose change went unnoticed').toEqual([]);
  }, 300_000);

  it('bytes appended after the signature are reported as not covering the whole document', async () => {
    const appended = new Uint8Array([...sealed, ...new TextEncoder().encode('\n1 0 obj\n<< >>\nendobj\n')]);
    const [check] = await inspectSignatures(appended);
    expect(check).toMatchObject({ valid: true, coversWholeDocument: false, modifiedAfterSigning: true });
    expect(check!.changesAfter).toEqual([expect.objectContaining({ kind: 'appended_bytes', revision: 3 })]);
    expect(isIntact([check!])).toBe(false);
  });

  it('an unsigned PDF has no signatures, and a signature with a wrong key fails', async () => {
    expect(await inspectSignatures(await sourcePdf(1))).toEqual([]);
    // Swap the certificate for another identity's: the CMS no longer verifies.
    const other = await loadSigningIdentity({ dataDir: tempDir('seal-verify-other') });
    const mine = Buffer.from(identity.certificatePem.replace(/-----[^-]+-----|\s/g, ''), 'base64').toString(
      'hex',
    );
    const theirs = Buffer.from(other.certificatePem.replace(/-----[^-]+-----|\s/g, ''), 'base64').toString(
      'hex',
    );
    const text = new TextDecoder('latin1').decode(sealed);
    if (mine.length === theirs.length) {
      const swapped = text.replace(mine, theirs).replace(mine.toUpperCase(), theirs.toUpperCase());
      const checks = await inspectSignatures(Uint8Array.from(swapped, (c) => c.charCodeAt(0)));
      expect(checks[0]!.valid).toBe(false);
    }
  });
});
