import { describe, expect, it } from 'vitest';
import { untranslatedWords } from './dashboard-words.ts';

describe("issue 32: the dashboard's strings are ready to translate", () => {
  it('no dashboard source writes English inline: every word a user reads comes from dashboard/src/messages/', () => {
    const findings = untranslatedWords().map((f) => `${f.file}:${f.line} ${f.text}`);
    expect(findings).toEqual([]);
  });
});
