import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadSigningIdentity, type SigningIdentity } from '../../src/seal/index.ts';
import { tempDir } from '../seal-helpers.ts';

// The corpus's sealing identity: a root CA and a sealing leaf under it (openssl CLI), whole chain
// in the PKCS#12 as long-term validation requires; neither names an OCSP responder or a CRL, so
// sealing at B-LTA asks nothing but the corpus TSA.

export async function corpusIdentity(): Promise<SigningIdentity> {
  const dir = tempDir('corpus-pki');
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  writeFileSync(
    path.join(dir, 'leaf.ext'),
    'keyUsage=critical,digitalSignature,nonRepudiation\nbasicConstraints=critical,CA:FALSE\n',
  );
  run([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'root.key',
    '-out',
    'root.pem',
    '-days',
    '3650',
    '-subj',
    '/O=corpus/CN=Corpus Root',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  run([
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'leaf.key',
    '-out',
    'leaf.csr',
    '-subj',
    '/O=corpus/CN=Corpus Seal',
  ]);
  run([
    'x509',
    '-req',
    '-in',
    'leaf.csr',
    '-CA',
    'root.pem',
    '-CAkey',
    'root.key',
    '-set_serial',
    '2',
    '-days',
    '365',
    '-extfile',
    'leaf.ext',
    '-out',
    'leaf.pem',
  ]);
  run([
    'pkcs12',
    '-export',
    '-inkey',
    'leaf.key',
    '-in',
    'leaf.pem',
    '-certfile',
    'root.pem',
    '-passout',
    'pass:corpus',
    '-out',
    'leaf.p12',
  ]);
  return loadSigningIdentity({
    dataDir: dir,
    p12: new Uint8Array(readFileSync(path.join(dir, 'leaf.p12'))),
    password: 'corpus',
  });
}
