import { describe, expect, it } from 'vitest';
import { csvCell, csvFile } from '../src/csv.ts';

describe('CSV cells are neutralised against formula injection (issue 29 item 5, OWASP CSV injection)', () => {
  it.each([
    ['=', '=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ['+', '+1+cmd|calc', `"'+1+cmd|calc"`],
    ['-', '-2+3', `"'-2+3"`],
    ['@', '@SUM(A1:A2)', `"'@SUM(A1:A2)"`],
    ['tab', '\t=1+1', `"'\t=1+1"`],
    ['carriage return', '\r=1+1', `"'\r=1+1"`],
  ])('a cell starting with %s gets a leading quote and is quoted', (_prefix, value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('plain cells stay as they are; commas, quotes and line breaks are quoted (RFC 4180)', () => {
    expect(csvCell('sent')).toBe('sent');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('a@b.example')).toBe('a@b.example');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('csvFile writes every row through csvCell with CRLF line ends', () => {
    expect(
      csvFile([
        ['row', 'error_message'],
        [1, '=cmd'],
      ]),
    ).toBe(`row,error_message\r\n1,"'=cmd"\r\n`);
  });
});
