import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  generateWebhookSecret,
  parseSignatureHeader,
  SIGNATURE_TOLERANCE_SECONDS,
  signWebhook,
  verifyWebhook,
} from '../src/index.ts';

// Expected values computed independently with Python's hmac module:
// hmac.new(secret.encode(), f"{t}.{body}".encode(), hashlib.sha256).hexdigest()
const VECTORS = [
  {
    secret: 'whsec_test',
    t: 1700000000,
    body: '{"a":1}',
    hex: '38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789',
  },
  {
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    t: 1735689600,
    body: '{"id":"evt_1","type":"signer.signed","created_at":"2025-01-01T00:00:00.000Z","data":{"id":12}}',
    hex: '0f04b2c7557780774f07ef29eb66d2ae7ffcb9e037251019e2ea9a3bd840cbec',
  },
  {
    secret: 's3crét',
    t: 0,
    body: '',
    hex: 'ddaad4640c13bd5e2e82d37b156e63c1aae6f7bc7fcbc6a139bc345afe1c4cea',
  },
  {
    secret: 'whsec_test',
    t: 1700000000,
    body: 'Grüße, 世界 🎉',
    hex: '87c7c8c629ff6691743db7bb0c74780e6157863c704cf2c639ca5b76ed2ab4f2',
  },
];

const SECRET = 'whsec_test';
const BODY = '{"id":"evt_1","type":"signer.signed"}';
const T = 1_700_000_000;

describe('Signature verification step 1-2: HMAC-SHA256 over "<t>.<raw body>", hex-encoded', () => {
  it.each(VECTORS)('signs $body with t=$t as t=<t>,v1=<hex>', ({ secret, t, body, hex }) => {
    expect(signWebhook(secret, body, t)).toBe(`t=${t},v1=${hex}`);
  });

  it('matches a plain node:crypto computation', () => {
    const hex = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(signWebhook(SECRET, BODY, T)).toBe(`t=${T},v1=${hex}`);
  });

  it('refuses an empty secret and a non-integer or negative timestamp', () => {
    expect(() => signWebhook('', BODY, T)).toThrow(TypeError);
    expect(() => signWebhook(SECRET, BODY, 1.5)).toThrow(RangeError);
    expect(() => signWebhook(SECRET, BODY, -1)).toThrow(RangeError);
    expect(() => signWebhook(SECRET, BODY, Number.NaN)).toThrow(RangeError);
  });
});

describe('Signature verification step 3: compare to v1 in constant time', () => {
  const header = signWebhook(SECRET, BODY, T);

  it('accepts the signature over the exact raw body, given as a string or as bytes', () => {
    expect(verifyWebhook(SECRET, header, BODY, 300, T)).toBe(true);
    expect(verifyWebhook(SECRET, header, new TextEncoder().encode(BODY), 300, T)).toBe(true);
  });

  it('accepts non-ASCII bodies given as bytes', () => {
    const v = VECTORS[3]!;
    const bytes = new TextEncoder().encode(v.body);
    expect(verifyWebhook(v.secret, `t=${v.t},v1=${v.hex}`, bytes, 300, v.t)).toBe(true);
  });

  it('rejects a tampered body', () => {
    expect(verifyWebhook(SECRET, header, BODY.replace('signed', 'viewed'), 300, T)).toBe(false);
    expect(verifyWebhook(SECRET, header, `${BODY} `, 300, T)).toBe(false);
    expect(verifyWebhook(SECRET, header, JSON.stringify(JSON.parse(BODY), null, 2), 300, T)).toBe(false);
  });

  it('rejects the wrong secret', () => {
    expect(verifyWebhook('whsec_other', header, BODY, 300, T)).toBe(false);
    expect(verifyWebhook('', header, BODY, 300, T)).toBe(false);
  });

  it('rejects a timestamp changed after signing', () => {
    const forged = header.replace(`t=${T}`, `t=${T + 1}`);
    expect(verifyWebhook(SECRET, forged, BODY, 300, T)).toBe(false);
  });

  it('accepts any matching v1 among several (secret rotation), in any position', () => {
    const good = header.split('v1=')[1]!;
    const other = signWebhook('whsec_old', BODY, T).split('v1=')[1]!;
    expect(verifyWebhook(SECRET, `t=${T},v1=${other},v1=${good}`, BODY, 300, T)).toBe(true);
    expect(verifyWebhook(SECRET, `t=${T},v1=${good},v1=${other}`, BODY, 300, T)).toBe(true);
    expect(verifyWebhook(SECRET, `t=${T},v1=${other},v1=${other}`, BODY, 300, T)).toBe(false);
  });

  it('ignores unknown schemes and whitespace around elements; upper-case hex is the same digest', () => {
    const good = header.split('v1=')[1]!;
    expect(verifyWebhook(SECRET, ` t=${T} , v0=abc, v1=${good} `, BODY, 300, T)).toBe(true);
    expect(verifyWebhook(SECRET, `v1=${good.toUpperCase()},t=${T}`, BODY, 300, T)).toBe(true);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['empty', ''],
    ['no t', 'v1=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789'],
    ['no v1', `t=${T}`],
    ['only v0', `t=${T},v0=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789`],
    ['two t', `t=${T},t=${T},v1=${'0'.repeat(64)}`],
    ['t not an integer', `t=17e8,v1=${'0'.repeat(64)}`],
    ['negative t', `t=-1,v1=${'0'.repeat(64)}`],
    ['element without =', `t=${T},v1`],
    ['short v1', `t=${T},v1=abcd`],
    ['non-hex v1', `t=${T},v1=${'z'.repeat(64)}`],
    ['semicolons', `t=${T};v1=${'0'.repeat(64)}`],
    ['huge header', `t=${T},${'v1=0,'.repeat(2000)}`],
  ])('rejects a malformed header (%s)', (_name, bad) => {
    expect(verifyWebhook(SECRET, bad, BODY, 300, T)).toBe(false);
  });

  it('never throws on a wrong-typed body', () => {
    expect(verifyWebhook(SECRET, header, 42 as unknown as string, 300, T)).toBe(false);
  });

  it('parses the header into its timestamp and digests', () => {
    const parsed = parseSignatureHeader(header);
    expect(parsed?.timestamp).toBe(T);
    expect(parsed?.signatures.map((s) => s.toString('hex'))).toEqual([header.split('v1=')[1]]);
  });
});

describe('Signature verification step 4: reject t more than 300 seconds old (reference verifier)', () => {
  const header = signWebhook(SECRET, BODY, T);

  it('uses 300 seconds by default', () => {
    expect(SIGNATURE_TOLERANCE_SECONDS).toBe(300);
    expect(verifyWebhook(SECRET, header, BODY, undefined, T + 300)).toBe(true);
    expect(verifyWebhook(SECRET, header, BODY, undefined, T + 301)).toBe(false);
  });

  it('rejects a stale t and one too far in the future', () => {
    expect(verifyWebhook(SECRET, header, BODY, 300, T + 3600)).toBe(false);
    expect(verifyWebhook(SECRET, header, BODY, 300, T - 301)).toBe(false);
    expect(verifyWebhook(SECRET, header, BODY, 300, T - 300)).toBe(true);
  });

  it('honours a custom tolerance and rejects a negative one', () => {
    expect(verifyWebhook(SECRET, header, BODY, 10, T + 11)).toBe(false);
    expect(verifyWebhook(SECRET, header, BODY, 0, T)).toBe(true);
    expect(verifyWebhook(SECRET, header, BODY, -1, T)).toBe(false);
  });

  it('defaults to the current clock', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifyWebhook(SECRET, signWebhook(SECRET, BODY, now), BODY)).toBe(true);
    expect(verifyWebhook(SECRET, header, BODY)).toBe(false);
  });
});

describe('Per-endpoint signing secret', () => {
  it('is whsec_ followed by 32 random bytes in base64url', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(6), 'base64url')).toHaveLength(32);
  });

  it('is different every time', () => {
    const secrets = new Set(Array.from({ length: 50 }, generateWebhookSecret));
    expect(secrets.size).toBe(50);
  });
});
