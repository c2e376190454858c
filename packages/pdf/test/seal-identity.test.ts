import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSigningIdentity } from '../src/seal/index.ts';
import { tempDir } from './seal-helpers.ts';

const identityModule = fileURLToPath(new URL('../src/seal/identity.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

function runChild(script: string, dataDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir], { cwd: repoRoot });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(err))));
  });
}

describe('loadSigningIdentity: the sealing certificate', () => {
  it('generates a self-signed RSA-2048 certificate once, stores it as PKCS#12 + password (mode 0600) and reuses it', async () => {
    const dataDir = tempDir('identity');
    const first = await loadSigningIdentity({ dataDir, commonName: 'Example Sealing' });
    expect(first.subject).toBe('CN=Example Sealing');
    expect(first.fingerprintSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(first.certificatePem).toContain('-----BEGIN CERTIFICATE-----');
    expect(first.signer.keyType).toBe('RSA');
    expect(first.generated).toBe(true);
    for (const file of ['signing.p12', 'signing.password']) {
      expect(statSync(path.join(dataDir, 'signing', file)).mode & 0o777).toBe(0o600);
    }
    const again = await loadSigningIdentity({ dataDir });
    expect(again.fingerprintSha256).toBe(first.fingerprintSha256);
  });

  it('loads an operator-provided PKCS#12 and rejects a wrong password', async () => {
    const dataDir = tempDir('identity-p12');
    const generated = await loadSigningIdentity({ dataDir });
    const p12 = new Uint8Array(readFileSync(path.join(dataDir, 'signing', 'signing.p12')));
    const password = readFileSync(path.join(dataDir, 'signing', 'signing.password'), 'utf8');
    const loaded = await loadSigningIdentity({ p12, password, dataDir: tempDir('unused') });
    expect(loaded.fingerprintSha256).toBe(generated.fingerprintSha256);
    expect(loaded.generated).toBe(false);
    await expect(loadSigningIdentity({ p12, password: 'wrong', dataDir })).rejects.toThrow();
  });

  it('concurrent first calls from several processes end with one and the same certificate', async () => {
    const dataDir = tempDir('identity-race');
    const script = path.join(dataDir, 'load.mts');
    writeFileSync(
      script,
      `import { loadSigningIdentity } from ${JSON.stringify(identityModule)};\n` +
        'const id = await loadSigningIdentity({ dataDir: process.argv[2] });\n' +
        'process.stdout.write(id.fingerprintSha256);\n',
    );
    const prints = await Promise.all([1, 2, 3, 4].map(() => runChild(script, dataDir)));
    expect(new Set(prints).size).toBe(1);
    const inProcess = await loadSigningIdentity({ dataDir });
    expect(prints[0]).toBe(inProcess.fingerprintSha256);
  });
});
