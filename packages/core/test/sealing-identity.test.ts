import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSigningIdentity } from '../../pdf/src/index.ts';
import { getSigningIdentity, readP12 } from '../src/services/sealing/identity.ts';

const temp = (p: string) => mkdtempSync(path.join(tmpdir(), `esign-${p}-`));

describe('sealing identity (SIGNING_CERT_P12 / SIGNING_CERT_PASSWORD)', () => {
  it('SIGNING_CERT_P12 is read as a file path when the file exists, else as base64', async () => {
    const source = temp('p12-source');
    const generated = await loadSigningIdentity({ dataDir: source });
    const p12Path = path.join(source, 'signing', 'signing.p12');
    const password = readFileSync(path.join(source, 'signing', 'signing.password'), 'utf8').trim();

    const fromPath = await getSigningIdentity({
      SIGNING_CERT_P12: p12Path,
      SIGNING_CERT_PASSWORD: password,
      DATA_DIR: temp('a'),
    });
    expect(fromPath.fingerprintSha256).toBe(generated.fingerprintSha256);
    expect(fromPath.generated).toBe(false);

    const base64 = readFileSync(p12Path).toString('base64');
    const fromBase64 = await getSigningIdentity({
      SIGNING_CERT_P12: base64,
      SIGNING_CERT_PASSWORD: password,
      DATA_DIR: temp('b'),
    });
    expect(fromBase64.fingerprintSha256).toBe(generated.fingerprintSha256);
  });

  it('unset, the identity is generated under DATA_DIR once and cached per process', async () => {
    const dataDir = temp('gen');
    const first = getSigningIdentity({ DATA_DIR: dataDir });
    expect(getSigningIdentity({ DATA_DIR: dataDir })).toBe(first);
    const identity = await first;
    expect(identity.generated).toBe(true);
    expect((await loadSigningIdentity({ dataDir })).fingerprintSha256).toBe(identity.fingerprintSha256);
  });

  it('a value that is neither a file nor base64 fails (and the failure is not cached); a wrong password fails', async () => {
    await expect(readP12('/no/such/cert.p12')).rejects.toThrow(/neither an existing file nor a base64/);
    // A failed load is not cached: once the file appears, the same configuration loads.
    const source0 = temp('late');
    const generated = await loadSigningIdentity({ dataDir: source0 });
    const late = path.join(temp('late-target'), 'cert.p12');
    const config = {
      SIGNING_CERT_P12: late,
      SIGNING_CERT_PASSWORD: readFileSync(path.join(source0, 'signing', 'signing.password'), 'utf8').trim(),
      DATA_DIR: temp('late-data'),
    };
    await expect(getSigningIdentity(config)).rejects.toThrow(/SIGNING_CERT_P12/);
    copyFileSync(path.join(source0, 'signing', 'signing.p12'), late);
    expect((await getSigningIdentity(config)).fingerprintSha256).toBe(generated.fingerprintSha256);
    const source = temp('pw');
    await loadSigningIdentity({ dataDir: source });
    await expect(
      getSigningIdentity({
        SIGNING_CERT_P12: path.join(source, 'signing', 'signing.p12'),
        SIGNING_CERT_PASSWORD: 'wrong',
        DATA_DIR: source,
      }),
    ).rejects.toThrow();
  });
});
