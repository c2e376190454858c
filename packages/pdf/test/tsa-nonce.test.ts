import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { describe, expect, it } from 'vitest';
import { createTimestampAuthority, type TrustFetch } from '../src/seal/index.ts';

// RFC 3161 §2.4.1: the TimeStampReq nonce is an INTEGER, and DER (X.690 §8.3.2) encodes an
// INTEGER in the fewest octets: a first octet 0x00 followed by one under 0x80 is not minimal, and a
// first octet of 0x80 or more makes it negative. TSAs such as `openssl ts` refuse either, so about
// 1 request in 256 failed before the nonce's first byte was held to 0x01–0x7f (trust.ts).

const REQUESTS = 2_000;

/** Sends REQUESTS timestamp requests to a fake TSA that keeps each body and answers 503. */
async function capturedRequests(): Promise<Uint8Array[]> {
  const bodies: Uint8Array[] = [];
  const fetch: TrustFetch = async (_url, init) => {
    bodies.push(init.body!);
    return { status: 503, body: new Uint8Array(0) };
  };
  const tsa = createTimestampAuthority({ url: 'https://tsa.example/tsr', fetch });
  const digest = new Uint8Array(32).fill(9);
  for (let i = 0; i < REQUESTS; i++)
    await expect(tsa.timestamp(digest, 'SHA-256')).rejects.toThrow(/answered HTTP 503/);
  return bodies;
}

/** The nonce INTEGER's content octets, read from the DER of a TimeStampReq. */
function nonceOctets(body: Uint8Array): Uint8Array {
  const asn = asn1js.fromBER(body.slice().buffer);
  expect(asn.offset).toBe(body.length);
  const req = new pkijs.TimeStampReq({ schema: asn.result });
  expect(req.nonce).toBeInstanceOf(asn1js.Integer);
  // The encoding as sent: re-encoding the parsed request gives the same bytes.
  expect(Buffer.from(req.toSchema().toBER(false)).equals(Buffer.from(body))).toBe(true);
  return new Uint8Array(req.nonce!.valueBlock.valueHexView);
}

describe('TSA nonce: a positive INTEGER in minimal DER (RFC 3161 §2.4.1, X.690 §8.3.2)', () => {
  it(`across ${REQUESTS} requests every nonce is 8 octets with a first octet of 0x01–0x7f, positive, and they all differ`, {
    timeout: 120_000,
  }, async () => {
    const bodies = await capturedRequests();
    expect(bodies).toHaveLength(REQUESTS);
    const nonces = bodies.map(nonceOctets);
    const firsts = new Set<number>();
    for (const n of nonces) {
      expect(n).toHaveLength(8);
      expect(n[0]).toBeGreaterThanOrEqual(0x01);
      expect(n[0]).toBeLessThanOrEqual(0x7f);
      expect(BigInt(`0x${Buffer.from(n).toString('hex')}`)).toBeGreaterThan(0n);
      firsts.add(n[0]!);
    }
    // Random, not a constant: the first octets spread over the allowed range, no nonce repeats.
    expect(firsts.size).toBeGreaterThan(60);
    expect(new Set(nonces.map((n) => Buffer.from(n).toString('hex'))).size).toBe(REQUESTS);
  });
});
