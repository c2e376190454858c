import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requirement } from '@esign/testing/requirements';
import { afterAll, describe, expect, it } from 'vitest';

// Issue 48 item 2, the install path of docs/clients.md ("pip install ./clients/python"): Debian's
// python3 builds and installs the package offline (no index, no build isolation: setuptools is
// Debian's own), and the installed copy, not the checkout, imports and verifies a webhook.
const PYTHON = '/usr/bin/python3';
const SOURCE = new URL('../../../clients/python', import.meta.url).pathname;

function run(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      PYTHON,
      args,
      {
        cwd,
        timeout: 120_000,
        env: { PATH: process.env.PATH, HOME: cwd, PYTHONDONTWRITEBYTECODE: '1', PIP_NO_INPUT: '1' },
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

const hasPip = requirement(
  'Debian python3 with pip and setuptools',
  existsSync(PYTHON) && existsSync('/usr/lib/python3/dist-packages/pip'),
  'apt-get install -y python3-pip python3-setuptools',
);

/** Imported from the install target with no site-packages (-S): what the installed package holds. */
const CHECK = `
import hashlib, hmac, json, sys, time
sys.path.insert(0, sys.argv[1])
import esign_client
from esign_client import EsignClient, WebhookVerificationError, parse_webhook, OPERATIONS
assert esign_client.__file__.startswith(sys.argv[1]), esign_client.__file__
body = json.dumps({"id": "evt_1", "type": "signer.signed", "data": {"id": 1}})
t = int(time.time())
sig = hmac.new(b"whsec_new", f"{t}.{body}".encode(), hashlib.sha256).hexdigest()
event = parse_webhook(body, f"t={t},v1={sig}", ["whsec_old", "whsec_new"])
refused = []
for payload, header, secrets in [
    (body + " ", f"t={t},v1={sig}", "whsec_new"),
    (body, f"t={t - 3600},v1={sig}", "whsec_new"),
    (body, f"t={t},v1={sig}", "whsec_wrong"),
]:
    try:
        parse_webhook(payload, header, secrets)
    except WebhookVerificationError as e:
        refused.append(e.reason)
client = EsignClient("http://127.0.0.1:9", "svc_test_key")
print(json.dumps({"type": event["type"], "refused": refused, "operations": len(OPERATIONS)}))
`;

describe.runIf(hasPip)('the Python client installs with pip, offline (docs/clients.md)', () => {
  const work = mkdtempSync(join(tmpdir(), 'esign-pip-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('pip install --no-build-isolation --no-index into a target; the installed copy imports and verifies a webhook', {
    timeout: 150_000,
  }, async () => {
    // Built from a copy: pip builds in the source folder (build/, *.egg-info), not in the checkout.
    const source = join(work, 'src');
    cpSync(SOURCE, source, {
      recursive: true,
      filter: (p) => !/(__pycache__|[\\/]tests$|[\\/]build$|egg-info)/.test(p),
    });
    const target = join(work, 'site');
    const install = await run(
      [
        '-m',
        'pip',
        'install',
        '--no-build-isolation',
        '--no-index',
        '--no-deps',
        '--no-cache-dir',
        '--no-compile',
        '--disable-pip-version-check',
        '--target',
        target,
        source,
      ],
      work,
    );
    expect(install.code, install.output).toBe(0);
    expect(install.output).toMatch(/Successfully installed esign-client-1\.0\.0/);
    expect(readdirSync(join(target, 'esign_client')).sort()).toEqual(
      readdirSync(join(SOURCE, 'esign_client'))
        .filter((f) => f.endsWith('.py'))
        .sort(),
    );

    const check = await run(['-S', '-c', CHECK, target], work);
    expect(check.code, check.output).toBe(0);
    const result = JSON.parse(check.output.trim().split('\n').at(-1)!);
    expect(result).toMatchObject({
      type: 'signer.signed',
      refused: ['no_matching_signature', 'timestamp_outside_tolerance', 'no_matching_signature'],
    });
    // Every generated operation is in the installed copy.
    const generated = readFileSync(join(SOURCE, 'esign_client/_operations.py'), 'utf8').match(
      /^ {4}"[\w-]+": \(/gm,
    );
    expect(result.operations).toBe(generated!.length);
  });
});
