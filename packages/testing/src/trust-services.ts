import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// Real trust services on loopback for the sealing tests (issue 15): a test PKI made with the
// openssl CLI (root CA → intermediate CA → sealing leaf, and a time-stamping unit under the
// root), an RFC 3161 TSA (`openssl ts -reply`), an OCSP responder (`openssl ocsp`) for the
// certificates the intermediate issued, and a CRL of the root, all behind one small HTTP server.

const run = promisify(execFile);

export interface TrustServices {
  /** http://127.0.0.1:PORT */
  origin: string;
  tsaUrl: string;
  /** The sealing identity: leaf key + certificate + intermediate + root, PKCS#12. */
  leafP12: Uint8Array;
  leafP12Password: string;
  rootPem: string;
  intermediatePem: string;
  leafPem: string;
  tsaPem: string;
  /** Requests served per path (`/tsa`, `/ocsp`, `/root.crl`). */
  hits: Record<string, number>;
  /** Paths (`/tsa`, `/ocsp`, `/root.crl`) answered with this status and no body (a failing service). */
  fail: Record<string, number>;
  /** Basic credentials the TSA demands when set (`user:password`). */
  tsaCredentials: string | null;
  /** When true the TSA's tokens carry only its own certificate, not the root above it. */
  tsaWithoutChain: boolean;
  /** Called with the path of each request as it arrives (what else is going on at that moment). */
  onRequest: ((path: string) => void) | null;
  dir: string;
  close(): Promise<void>;
}

async function openssl(dir: string, args: string[], input?: string): Promise<void> {
  const child = run('openssl', args, { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  if (input !== undefined) child.child.stdin?.end(input);
  await child;
}

function extFile(origin: string): string {
  return `
[root]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash

[intermediate]
basicConstraints = critical,CA:TRUE,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = URI:${origin}/root.crl

[leaf]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature,nonRepudiation
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
authorityInfoAccess = OCSP;URI:${origin}/ocsp

[tsa]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature,nonRepudiation
extendedKeyUsage = critical,timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = URI:${origin}/root.crl

[ca]
default_ca = root_ca
[root_ca]
database = index-root.txt
crlnumber = crlnumber
default_md = sha256
default_crl_days = 30

[tsa_section]
default_tsa = tsa_config
[tsa_config]
serial = tsaserial
signer_digest = sha256
default_policy = 1.3.6.1.4.1.99999.1
other_policies = 1.3.6.1.4.1.99999.2
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = no
tsa_name = no
ess_cert_id_chain = no
ess_cert_id_alg = sha256
crypto_device = builtin
`;
}

async function issue(dir: string, name: string, subject: string, ext: string, ca: string, serial: string) {
  await openssl(dir, [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    subject,
  ]);
  await openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.pem`,
    '-CAkey',
    `${ca}.key`,
    '-set_serial',
    `0x${serial}`,
    '-days',
    '3650',
    '-sha256',
    '-extfile',
    'ext.cnf',
    '-extensions',
    ext,
    '-out',
    `${name}.pem`,
  ]);
}

async function makePki(dir: string, origin: string): Promise<void> {
  writeFileSync(path.join(dir, 'ext.cnf'), extFile(origin));
  writeFileSync(path.join(dir, 'index-root.txt'), '');
  writeFileSync(path.join(dir, 'crlnumber'), '01\n');
  writeFileSync(path.join(dir, 'tsaserial'), '01\n');
  await openssl(dir, [
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
    '/O=esign tests/CN=Test Root CA',
    '-config',
    'ext.cnf',
    '-extensions',
    'root',
  ]);
  await issue(dir, 'intermediate', '/O=esign tests/CN=Test Intermediate CA', 'intermediate', 'root', '1000');
  await issue(dir, 'leaf', '/O=esign tests/CN=Test Sealing Leaf', 'leaf', 'intermediate', '1001');
  await issue(dir, 'tsa', '/O=esign tests/CN=Test Time Stamping Unit', 'tsa', 'root', '1002');
  // The OCSP responder's database: the leaf is valid (V), serial 1001.
  const leafSubject = '/O=esign tests/CN=Test Sealing Leaf';
  writeFileSync(path.join(dir, 'index-int.txt'), `V\t491231235959Z\t\t1001\tunknown\t${leafSubject}\n`);
  await openssl(dir, [
    'ca',
    '-gencrl',
    '-config',
    'ext.cnf',
    '-keyfile',
    'root.key',
    '-cert',
    'root.pem',
    '-out',
    'root.crl.pem',
  ]);
  await openssl(dir, ['crl', '-in', 'root.crl.pem', '-outform', 'DER', '-out', 'root.crl']);
  writeFileSync(
    path.join(dir, 'chain.pem'),
    readFileSync(path.join(dir, 'intermediate.pem'), 'utf8') +
      readFileSync(path.join(dir, 'root.pem'), 'utf8'),
  );
  await openssl(dir, [
    'pkcs12',
    '-export',
    '-inkey',
    'leaf.key',
    '-in',
    'leaf.pem',
    '-certfile',
    'chain.pem',
    '-passout',
    'pass:leaf-secret',
    '-name',
    'Test Sealing Leaf',
    '-out',
    'leaf.p12',
  ]);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

let sequence = 0;

/** Answers one request with `openssl` working on files named after a per-request sequence. */
async function answer(
  dir: string,
  url: string,
  body: Buffer,
  withChain: boolean,
): Promise<{ type: string; bytes: Buffer }> {
  const n = ++sequence;
  if (url === '/tsa') {
    writeFileSync(path.join(dir, `q${n}.tsq`), body);
    await openssl(dir, [
      'ts',
      '-reply',
      '-config',
      'ext.cnf',
      '-section',
      'tsa_config',
      '-queryfile',
      `q${n}.tsq`,
      '-inkey',
      'tsa.key',
      '-signer',
      'tsa.pem',
      ...(withChain ? ['-chain', 'root.pem'] : []),
      '-out',
      `r${n}.tsr`,
    ]);
    return { type: 'application/timestamp-reply', bytes: readFileSync(path.join(dir, `r${n}.tsr`)) };
  }
  if (url === '/ocsp') {
    writeFileSync(path.join(dir, `o${n}.req`), body);
    await openssl(dir, [
      'ocsp',
      '-index',
      'index-int.txt',
      '-CA',
      'intermediate.pem',
      '-rsigner',
      'intermediate.pem',
      '-rkey',
      'intermediate.key',
      '-reqin',
      `o${n}.req`,
      '-respout',
      `o${n}.resp`,
      '-ndays',
      '7',
    ]);
    return { type: 'application/ocsp-response', bytes: readFileSync(path.join(dir, `o${n}.resp`)) };
  }
  if (url === '/root.crl')
    return { type: 'application/pkix-crl', bytes: readFileSync(path.join(dir, 'root.crl')) };
  return { type: 'text/plain', bytes: Buffer.from('not found') };
}

/** Starts the loopback PKI and its services; `close()` stops the server. */
export async function startTrustServices(): Promise<TrustServices> {
  const dir = mkdtempSync(path.join(tmpdir(), 'esign-trust-'));
  const hits: Record<string, number> = {};
  const server: Server = createServer(async (req, res) => {
    const url = req.url ?? '/';
    hits[url] = (hits[url] ?? 0) + 1;
    services.onRequest?.(url);
    const body = await readBody(req);
    const failure = services.fail[url];
    if (failure) return void res.writeHead(failure).end();
    const expected =
      services.tsaCredentials && `Basic ${Buffer.from(services.tsaCredentials).toString('base64')}`;
    if (url === '/tsa' && expected && req.headers.authorization !== expected) {
      return void res.writeHead(401, { 'www-authenticate': 'Basic' }).end();
    }
    try {
      const out = await answer(dir, url, body, !services.tsaWithoutChain);
      res.writeHead(out.type === 'text/plain' ? 404 : 200, { 'content-type': out.type }).end(out.bytes);
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await makePki(dir, origin);
  const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');
  const services: TrustServices = {
    origin,
    tsaUrl: `${origin}/tsa`,
    leafP12: new Uint8Array(readFileSync(path.join(dir, 'leaf.p12'))),
    leafP12Password: 'leaf-secret',
    rootPem: read('root.pem'),
    intermediatePem: read('intermediate.pem'),
    leafPem: read('leaf.pem'),
    tsaPem: read('tsa.pem'),
    hits,
    fail: {},
    tsaCredentials: null,
    tsaWithoutChain: false,
    onRequest: null,
    dir,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return services;
}
