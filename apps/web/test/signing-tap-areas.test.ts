import { describe, expect, it } from 'vitest';
import { type Rect, tapRoomStyle, tapRooms } from '../src/signing/client/tap-areas.ts';

const rect = (left: number, top: number, right: number, bottom: number): Rect => ({
  left,
  top,
  right,
  bottom,
});

describe('tap areas of the signing page (issue 33 item 1)', () => {
  it('issue 33.1: fields on consecutive lines: each tap area reaches halfway to the next one, never over it', () => {
    // 13 pt tall fields 14 pt apart: 1 pt between them.
    const [a, b] = tapRooms([rect(100, 0, 240, 13), rect(90, 14, 220, 27)], 2);
    expect(a).toEqual({ left: Infinity, right: Infinity, top: Infinity, bottom: 0.5 / 13 });
    expect(b).toEqual({ left: Infinity, right: Infinity, top: 0.5 / 13, bottom: Infinity });
  });

  it('issue 33.1: fields side by side on one line meet halfway sideways; overlapping fields get no enlarged area', () => {
    const [date, place] = tapRooms([rect(0, 0, 100, 10), rect(120, 0, 200, 10)], 2);
    expect(date!.right).toBeCloseTo(10 / 100);
    expect(place!.left).toBeCloseTo(10 / 80);
    expect(date!.bottom).toBe(Infinity);
    const [over] = tapRooms([rect(0, 0, 100, 10), rect(50, 5, 150, 15)], 1);
    expect(over).toEqual({ left: 0, right: 0, top: 0, bottom: 0 });
  });

  it('issue 33.1: a field after the counted ones (another signer’s) caps too; the CSS gets percentages of the field', () => {
    const [only] = tapRooms([rect(0, 0, 100, 10), rect(0, 20, 100, 30)], 1);
    expect(only!.bottom).toBeCloseTo(0.5);
    expect(tapRoomStyle(only!)).toEqual({
      '--tap-bottom': 'calc(50.000% + 2.000 * var(--field-border, 0px))',
    });
  });
});
