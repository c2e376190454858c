import { describe, expect, it } from 'vitest';
import { inCI, requirement } from './requirements.ts';

describe('tests that need a tool never vanish silently (issue 28 item 7)', () => {
  const run = (present: boolean, env: NodeJS.ProcessEnv) => {
    const lines: string[] = [];
    const runs = requirement('qpdf', present, 'apt-get install -y qpdf', env, (l) => lines.push(l));
    return { runs, lines };
  };

  it('present: the tests run, nothing is printed', () => {
    expect(run(true, {})).toEqual({ runs: true, lines: [] });
    expect(run(true, { CI: 'true' })).toEqual({ runs: true, lines: [] });
  });

  it('missing on a developer machine: skipped, and the skip is printed with what to install', () => {
    const { runs, lines } = run(false, {});
    expect(runs).toBe(false);
    expect(lines.join('')).toMatch(/^skipped: tests that need qpdf .*apt-get install -y qpdf/);
  });

  it('missing under CI=true: the tests run (and fail on the missing tool) instead of being skipped', () => {
    const { runs, lines } = run(false, { CI: 'true' });
    expect(runs).toBe(true);
    expect(lines.join('')).toMatch(/qpdf is missing and CI is set/);
  });

  it('CI counts when set to anything but false, 0 or nothing', () => {
    expect([inCI({ CI: 'true' }), inCI({ CI: '1' }), inCI({ CI: 'yes' })]).toEqual([true, true, true]);
    expect([inCI({}), inCI({ CI: '' }), inCI({ CI: 'false' }), inCI({ CI: '0' })]).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
