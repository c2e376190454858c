import { crc32, deflateSync } from 'node:zlib';
import { SEAL_JOB } from '@esign/core/testing';
import { sendRequest, tokenOf, trpc, twoRoleTemplate } from '@esign/testing/signing';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Image values (signature, initials, image, stamp) are checked in one place wherever they are
// accepted — signing.saveValues / signing.complete and the prefill of POST /signature_requests and
// PATCH /signers: decodable PNG or JPEG, at most 4096 × 4096 pixels and 3 MB, re-encoded to a
// clean image. A value that could not be drawn must never complete a request (it would block
// sealing for good and use the credit).

let t: TestApp;
let owner: TestAccount;
let tpl: any;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 50 });
  tpl = await twoRoleTemplate(t, owner);
});
afterAll(() => t.close());

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** A PNG whose header declares width × height, with `rows` rows of pixel data (RGBA, all zero). */
function declaredPng(width: number, height: number, rows = 1, extra: Buffer[] = []): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    ...extra,
    chunk('IDAT', deflateSync(Buffer.alloc(rows * (1 + width * 4)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real drawn image: a dark stroke on white. */
function drawn(format: 'png' | 'jpeg', width = 300, height = 100): Buffer {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, width, height);
  g.strokeStyle = '#123';
  g.lineWidth = 4;
  g.beginPath();
  g.moveTo(10, height - 10);
  g.lineTo(width - 10, 10);
  g.stroke();
  return format === 'png' ? canvas.toBuffer('image/png') : canvas.toBuffer('image/jpeg', 90);
}

const dataUri = (b: Buffer, type = 'image/png') => `data:${type};base64,${b.toString('base64')}`;
const BAD: [string, string][] = [
  ['not decodable (AAAA)', 'data:image/png;base64,AAAA'],
  ['a PNG declaring 30000 × 30000', dataUri(declaredPng(30000, 30000))],
  ['4097 pixels wide', dataUri(declaredPng(4097, 1))],
  ['a GIF', dataUri(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'), 'image/gif')],
];
/** The REST API takes 1 MB bodies; the signing page's tRPC endpoint more (a file field may be 10 MB). */
const TOO_LARGE: [string, string] = [
  'larger than 3 MB',
  `data:image/png;base64,${'A'.repeat(4 * 1024 * 1024 + 4)}`,
];

async function sent(prefill?: Record<string, unknown>) {
  return sendRequest(t, owner, {
    template_id: tpl.id,
    signing_order: 'parallel',
    signers: [
      { name: 'Cleo', email: 'cleo.images@example.com', ...(prefill ? { prefill } : {}) },
      { name: 'Andy', email: 'andy.images@example.com' },
    ],
  });
}

const requestRow = (id: number) =>
  t.db.selectFrom('signature_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function storedValue(signerId: number, field: string): Promise<string> {
  const row = await t.db
    .selectFrom('signers')
    .selectAll()
    .where('id', '=', signerId)
    .executeTakeFirstOrThrow();
  return ({ ...(row.prefill as object), ...(row.values as object) } as Record<string, string>)[field]!;
}

describe('signing.complete / signing.saveValues', () => {
  it.each([...BAD, TOO_LARGE])(
    'refuses a signature that is %s: 422 invalid_request naming the field; nothing is completed or used up',
    async (_name, value) => {
      const res = await sendRequest(t, owner, {
        template_id: tpl.id,
        signers: [{ name: 'Solo', email: 'solo.images@example.com' }],
      });
      // One-signer request from a template whose Agent role has no signer: the Client completes it.
      const token = tokenOf(res.body.signers[0].signing_url);
      const done = await trpc(t, 'complete', {
        token,
        values: { 'Client signature': value, 'Client name': 'C' },
      });
      expect(done.status).toBe(422);
      expect(done.error?.code).toBe('invalid_request');
      expect(done.error?.message).toContain('"Client signature"');
      const saved = await trpc(t, 'saveValues', { token, values: { 'Client signature': value } });
      expect([saved.status, saved.error?.code]).toEqual([422, 'invalid_request']);
      expect((await requestRow(res.body.id)).status).toBe('sent');
      const jobs = await t.db
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', SEAL_JOB)
        .where((eb) => eb(eb.ref('payload', '->>').key('requestId'), '=', String(res.body.id)))
        .execute();
      expect(jobs).toHaveLength(0);
      const ledger = await t.db
        .selectFrom('credit_ledger')
        .select('id')
        .where('signature_request_id', '=', res.body.id)
        .execute();
      expect(ledger).toHaveLength(0);
    },
  );

  it('a valid PNG is stored re-encoded as a clean PNG (metadata chunks dropped); a JPEG stays a JPEG', async () => {
    const res = await sent();
    const cleo = res.body.signers[0];
    const withText = drawn('png');
    // Insert a tEXt chunk after IHDR (8 + 25 bytes).
    const tagged = Buffer.concat([
      withText.subarray(0, 33),
      chunk('tEXt', Buffer.from('Comment\0<script>alert(1)</script>', 'latin1')),
      withText.subarray(33),
    ]);
    const r = await trpc(t, 'saveValues', {
      token: tokenOf(cleo.signing_url),
      values: { 'Client signature': dataUri(tagged) },
    });
    expect(r.error).toBeNull();
    const stored = await storedValue(cleo.id, 'Client signature');
    expect(stored).toMatch(/^data:image\/png;base64,/);
    const bytes = Buffer.from(stored.split(',')[1]!, 'base64');
    expect(bytes.includes(Buffer.from('tEXt'))).toBe(false);
    const img = await loadImage(bytes);
    expect([img.width, img.height]).toEqual([300, 100]);

    const jpeg = await trpc(t, 'saveValues', {
      token: tokenOf(cleo.signing_url),
      values: { 'Client signature': dataUri(drawn('jpeg'), 'image/jpeg') },
    });
    expect(jpeg.error).toBeNull();
    expect(await storedValue(cleo.id, 'Client signature')).toMatch(/^data:image\/jpeg;base64,\/9j\//);
  });

  it('4096 × 4096 is the largest size accepted', async () => {
    const res = await sent();
    const r = await trpc(t, 'saveValues', {
      token: tokenOf(res.body.signers[0].signing_url),
      values: { 'Client signature': dataUri(declaredPng(4096, 1, 1)) },
    });
    expect(r.error).toBeNull();
  });
});

describe('prefill (POST /signature_requests, PATCH /signers)', () => {
  it.each(BAD)(
    'POST /signature_requests refuses a prefilled signature that is %s: 422 invalid_request naming the field',
    async (_name, value) => {
      const res = await sent({ 'Client signature': value });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toContain('Client signature');
    },
  );

  it.each(BAD)(
    'PATCH /signers refuses a prefilled signature that is %s: 422 invalid_request naming the field',
    async (_name, value) => {
      const res = await sent();
      const patch = await t.api('PATCH', `signers/${res.body.signers[0].id}`, {
        key: owner.key,
        body: { prefill: { 'Client signature': value } },
      });
      expect(patch.status).toBe(422);
      expect(patch.body.error.code).toBe('invalid_request');
      expect(patch.body.error.message).toContain('Client signature');
    },
  );

  it('a prefilled image given as plain base64 (no data: prefix) is accepted, PNG or JPEG, and stored as a clean data: URI', async () => {
    const png = drawn('png');
    const res = await sent({ 'Client signature': png.toString('base64') });
    expect(res.status).toBe(201);
    const cleo = res.body.signers[0];
    expect(await storedValue(cleo.id, 'Client signature')).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);

    const patch = await t.api('PATCH', `signers/${cleo.id}`, {
      key: owner.key,
      body: { prefill: { 'Client signature': drawn('jpeg').toString('base64') } },
    });
    expect(patch.status).toBe(200);
    expect(await storedValue(cleo.id, 'Client signature')).toMatch(/^data:image\/jpeg;base64,\/9j\//);
  });

  it.each(['png', 'jpeg'] as const)(
    'issue 33.3: the prefilled %s signature sent back as the client gave it is accepted (the stored one is re-encoded); a different image is still 422',
    async (format) => {
      const type = `image/${format}`;
      // A PNG carrying a text chunk, so the stored clean copy has other bytes than the one given.
      const given =
        format === 'png' ? dataUri(withTextChunk(drawn('png')), type) : dataUri(drawn('jpeg'), type);
      const res = await sent({ 'Client signature': given });
      expect(res.status).toBe(201);
      const cleo = res.body.signers[0];
      const stored = await storedValue(cleo.id, 'Client signature');
      expect(stored).not.toBe(given);
      const token = tokenOf(cleo.signing_url);

      const other = dataUri(drawn(format, 300, 101), type);
      const refused = await trpc(t, 'saveValues', { token, values: { 'Client signature': other } });
      expect([refused.status, refused.error?.message]).toEqual([
        422,
        'Field "Client signature" was filled in by the sender and cannot be changed',
      ]);
      const done = await trpc(t, 'complete', {
        token,
        values: { 'Client signature': given, 'Client name': 'Cleo' },
      });
      expect(done.status, JSON.stringify(done.error)).toBe(200);
      // The sender's picture stays as stored (not re-encoded again from what the client sent).
      expect(await storedValue(cleo.id, 'Client signature')).toBe(stored);
      const signer = await t.api('GET', `signers/${cleo.id}`, { key: owner.key });
      expect(signer.body.status).toBe('signed');
    },
  );
});

/** The PNG with a tEXt chunk inserted after IHDR (same pixels, other bytes). */
function withTextChunk(png: Buffer): Buffer {
  const afterIhdr = 8 + 4 + 4 + 13 + 4;
  return Buffer.concat([
    png.subarray(0, afterIhdr),
    chunk('tEXt', Buffer.from('Comment\u0000from the client', 'latin1')),
    png.subarray(afterIhdr),
  ]);
}
