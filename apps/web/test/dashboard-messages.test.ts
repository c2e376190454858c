import { parseMessage as parse } from '@esign/i18n/precompile';
import { describe, expect, it } from 'vitest';
import { messages } from '../dashboard/src/messages.ts';

describe("issue 32: the dashboard's words are ready to translate", () => {
  it('every dashboard message is a non-empty ICU message of the one catalogue (dashboard/src/messages.ts)', () => {
    const problems: string[] = [];
    for (const [key, message] of Object.entries(messages)) {
      if (!message.trim()) problems.push(`${key}: empty`);
      try {
        parse(message);
      } catch (e) {
        problems.push(`${key}: ${(e as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
    expect(Object.keys(messages).length).toBeGreaterThan(30);
  });
});
