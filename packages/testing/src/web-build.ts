import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './spawn.ts';

/**
 * The build `npm start` runs (`turbo run build`): the dashboard and the signing page into
 * apps/web/dist, which every server the tests start reads. Restored from turbo's cache when no
 * source changed, so only the first run after a change pays for it.
 */
export function buildWeb(): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      join(ROOT, 'node_modules/.bin/turbo'),
      ['run', 'build', '--output-logs=errors-only'],
      { cwd: ROOT, maxBuffer: 16 * 2 ** 20 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`turbo run build failed:\n${stdout}${stderr}`)) : resolve(),
    );
  });
}
