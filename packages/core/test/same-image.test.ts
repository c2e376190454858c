import { deflateSync } from 'node:zlib';
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { cleanImageValue, sameImage } from '../src/services/images.ts';

/** A 3 × 2 RGBA PNG written by hand (not by Skia): another encoder's bytes for the same pixels. */
function handPng(pixels: number[]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(3, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const rows = [0, 1].map((y) => Buffer.from([0, ...pixels.slice(y * 12, y * 12 + 12)]));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const uri = (b: Buffer, type = 'png') => `data:image/${type};base64,${b.toString('base64')}`;
const OPAQUE = [
  10, 20, 30, 255, 200, 100, 50, 255, 0, 0, 0, 255, 255, 255, 255, 255, 1, 2, 3, 255, 9, 9, 9, 255,
];

describe('sameImage (issue 33.3: compare what the picture is, not its bytes)', () => {
  it('issue 33.3: the image given and its stored clean re-encoding are the same picture', () => {
    const canvas = createCanvas(40, 20);
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, 40, 20);
    g.fillStyle = '#123';
    g.fillRect(5, 5, 20, 4);
    for (const [type, bytes] of [
      ['png', canvas.toBuffer('image/png')],
      ['jpeg', canvas.toBuffer('image/jpeg', 80)],
    ] as const) {
      const given = uri(bytes, type);
      const stored = cleanImageValue(given);
      expect(sameImage(given, stored)).toBe(true);
      expect(sameImage(bytes.toString('base64'), stored)).toBe(true);
    }
  });

  it('issue 33.3: the same pixels written by another PNG encoder are the same picture; one changed pixel is not', () => {
    const stored = uri(handPng(OPAQUE));
    const canvas = createCanvas(3, 2);
    const g = canvas.getContext('2d');
    const img = g.createImageData(3, 2);
    img.data.set(OPAQUE);
    g.putImageData(img, 0, 0);
    const skia = uri(canvas.toBuffer('image/png'));
    expect(skia).not.toBe(stored);
    expect(sameImage(skia, stored)).toBe(true);
    const changed = [...OPAQUE];
    changed[0] = 11;
    expect(sameImage(uri(handPng(changed)), stored)).toBe(false);
  });

  it('issue 33.3: what does not decode is never the same picture', () => {
    const stored = uri(handPng(OPAQUE));
    expect(sameImage('data:image/png;base64,AAAA', stored)).toBe(false);
    expect(sameImage('not an image', stored)).toBe(false);
  });
});
