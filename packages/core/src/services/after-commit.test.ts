import { describe, expect, it } from 'vitest';
import { CoreError } from '../errors.ts';
import { readAfterCommit } from './after-commit.ts';

// Issue 27: a create whose commit succeeded answers with what it did, not a 500 that the client's
// retry (with the same Idempotency-Key, released on failure) would turn into a second create.
describe('reading the result of a committed change (issue 27)', () => {
  it('a read that fails on the database (a dropped connection) is tried again until it answers', async () => {
    let calls = 0;
    const read = async () => {
      calls += 1;
      if (calls < 3)
        throw Object.assign(new Error('terminating connection due to administrator command'), {
          code: '57P01',
        });
      return 'the request';
    };
    expect(await readAfterCommit(read)).toBe('the request');
    expect(calls).toBe(3);
  });

  it('a rule (a CoreError) is passed on at once; a failure that lasts past the limit is passed on', async () => {
    let calls = 0;
    const refused = readAfterCommit(async () => {
      calls += 1;
      throw new CoreError('not_found', 'gone');
    });
    await expect(refused).rejects.toMatchObject({ code: 'not_found' });
    expect(calls).toBe(1);
    const started = Date.now();
    await expect(
      readAfterCommit(async () => {
        throw new Error('database unreachable');
      }, 500),
    ).rejects.toThrow('database unreachable');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
