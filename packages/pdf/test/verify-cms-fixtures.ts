import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { children, type Element, readElement } from '../src/verify/ber.ts';
import type { CmsInput } from '../src/verify/cms-check.ts';
import { tempDir } from './seal-helpers.ts';

// Signed PDFs made with OpenSSL (`openssl cms -sign`, `openssl ts -reply`, `openssl ca -gencrl`)
// and a minimal PDF whose /ByteRange and /Contents are written here, as any signing tool does:
// the CMS never comes from this service's own writer.

export const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

const latin1 = new TextDecoder('latin1');
const ascii = (s: string) => Buffer.from(s, 'latin1');

const PAGE = 'BT /F1 12 Tf 20 100 Td (Fee: EUR 400) Tj ET';

export interface Prepared {
  /** The file with a zero-filled /Contents. */
  pdf: Uint8Array;
  /** Offsets of the /Contents hex string's `<` and after its `>`. */
  gap: [number, number];
  /** The bytes the /ByteRange covers, joined. */
  signed: Uint8Array;
}

/**
 * A one-page PDF with a signature field whose dictionary is `sigDict` (without /ByteRange and
 * /Contents, which are added: /Contents holds `capacity` bytes of hex).
 */
export function preparePdf(sigDict: string, capacity: number): Prepared {
  const placeholder = '/ByteRange [0 0000000000 0000000000 0000000000]';
  const contents = `<${'0'.repeat(capacity * 2)}>`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] /SigFlags 3 >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Annots [4 0 R] /Contents 6 0 R /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>',
    '<< /FT /Sig /T (Signature1) /Type /Annot /Subtype /Widget /Rect [0 0 0 0] /F 132 /P 3 0 R /V 5 0 R >>',
    `<< ${sigDict} ${placeholder} /Contents ${contents} >>`,
    `<< /Length ${PAGE.length} >>\nstream\n${PAGE}\nendstream`,
  ];
  let text = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) text += `${String(o).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  const start = text.indexOf(contents);
  const end = start + contents.length;
  const range = `/ByteRange [0 ${start} ${end} ${text.length - end}]`.padEnd(placeholder.length, ' ');
  text = text.replace(placeholder, range);
  const pdf = ascii(text);
  return { pdf, gap: [start, end], signed: Buffer.concat([pdf.subarray(0, start), pdf.subarray(end)]) };
}

/** The prepared file with `cms` (and `after` it) in /Contents, zero padded. */
export function embed(prepared: Prepared, cms: Uint8Array, after: Uint8Array = new Uint8Array()): Uint8Array {
  const hex = Buffer.concat([cms, after]).toString('hex');
  const [start, end] = prepared.gap;
  if (hex.length > end - start - 2) throw new Error('CMS larger than /Contents');
  const pdf = Uint8Array.from(prepared.pdf);
  pdf.set(ascii(hex), start + 1);
  return pdf;
}

/** What a signature finder hands to checkCms, read from the file. */
export function inputOf(pdf: Uint8Array): CmsInput {
  const text = latin1.decode(pdf);
  const m = /\/ByteRange \[(\d+) (\d+) (\d+) (\d+)/.exec(text)!;
  const [a, b, c, d] = m.slice(1).map(Number) as [number, number, number, number];
  const hex = text.slice(b + 1, c - 1);
  const dict = text.slice(text.lastIndexOf('5 0 obj', m.index), text.indexOf('endobj', m.index));
  const subFilter = /\/SubFilter \/(\S+)/.exec(dict)?.[1] ?? '';
  return {
    contents: Buffer.from(hex, 'hex'),
    subFilter,
    documentTimestamp: /\/Type \/DocTimeStamp/.test(dict) || subFilter === 'ETSI.RFC3161',
    signed: [pdf.subarray(a, a + b), pdf.subarray(c, c + d)],
  };
}

/** The file with its signed fee changed (EUR 400 → EUR 900), as a forger would. */
export function tamper(pdf: Uint8Array): Uint8Array {
  const at = latin1.decode(pdf).indexOf('EUR 400');
  const out = Uint8Array.from(pdf);
  out[at + 4] = 0x39;
  return out;
}

/** OpenSSL in a temporary folder holding the keys and certificates of the tests. */
export class Openssl {
  readonly dir = tempDir('verify-cms');

  run(...args: string[]): Buffer {
    return execFileSync('openssl', args, { cwd: this.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  }

  write(name: string, bytes: Uint8Array | string): string {
    writeFileSync(path.join(this.dir, name), bytes);
    return name;
  }

  read(name: string): Uint8Array {
    return new Uint8Array(readFileSync(path.join(this.dir, name)));
  }

  /** A self-signed certificate `name`.pem with key `name`.key. */
  identity(name: string, key: 'rsa' | 'P-256' | 'P-384', extra: string[] = []): void {
    if (key === 'rsa')
      this.run('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', `${name}.key`);
    else
      this.run('genpkey', '-algorithm', 'EC', '-pkeyopt', `ec_paramgen_curve:${key}`, '-out', `${name}.key`);
    this.run(
      'req',
      '-new',
      '-x509',
      '-key',
      `${name}.key`,
      '-subj',
      `/CN=${name}`,
      '-days',
      '3',
      ...extra,
      '-out',
      `${name}.pem`,
    );
  }

  /** `openssl cms -sign` over `data` (DER out); `args` add -md, -noattr, -nodetach, … */
  cms(data: Uint8Array, signers: string[], args: string[] = []): Uint8Array {
    this.write('data.bin', data);
    const signerArgs = signers.flatMap((s) => ['-signer', `${s}.pem`, '-inkey', `${s}.key`]);
    this.run(
      'cms',
      '-sign',
      '-binary',
      '-in',
      'data.bin',
      '-outform',
      'DER',
      '-out',
      'sig.der',
      ...signerArgs,
      ...args,
    );
    return this.read('sig.der');
  }

  /** An RFC 3161 TimeStampToken from `openssl ts -reply` over `data`, imprinted with `digest`. */
  timestamp(data: Uint8Array, digest: 'sha1' | 'sha256', tsa = 'tsa'): Uint8Array {
    this.write('ts.bin', data);
    this.write('tsaserial', '01\n');
    this.write(
      'ts.cnf',
      `[ tsa ]\ndefault_tsa = t\n[ t ]\nserial = ./tsaserial\nsigner_cert = ./${tsa}.pem\ncerts = ./${tsa}.pem\nsigner_key = ./${tsa}.key\nsigner_digest = sha256\ndefault_policy = 1.2.3.4.1\ndigests = sha1, sha256\ness_cert_id_alg = sha256\n`,
    );
    this.run('ts', '-query', '-data', 'ts.bin', `-${digest}`, '-cert', '-out', 'ts.tsq');
    this.run('ts', '-reply', '-config', 'ts.cnf', '-queryfile', 'ts.tsq', '-token_out', '-out', 'ts.tst');
    return this.read('ts.tst');
  }

  /** A time-stamping certificate (extendedKeyUsage critical timeStamping). */
  tsaIdentity(name: string, key: 'rsa' | 'P-256'): void {
    this.identity(name, key, ['-addext', 'extendedKeyUsage=critical,timeStamping']);
  }

  /** A CRL by `ca` listing `count` revoked serials (`openssl ca -gencrl`), DER. */
  crl(ca: string, count: number): Uint8Array {
    const lines: string[] = [];
    for (let i = 1; i <= count; i++) {
      const serial = i.toString(16).toUpperCase().padStart(8, '0');
      lines.push(`R\t300101000000Z\t250101000000Z\t${serial}\tunknown\t/CN=revoked ${i}`);
    }
    this.write('index.txt', `${lines.join('\n')}\n`);
    this.write('crlnumber', '01\n');
    this.write(
      'ca.cnf',
      `[ ca ]\ndefault_ca = d\n[ d ]\ndatabase = ./index.txt\ncrlnumber = ./crlnumber\ndefault_md = sha256\ndefault_crl_days = 30\ncertificate = ./${ca}.pem\nprivate_key = ./${ca}.key\n`,
    );
    this.run('ca', '-config', 'ca.cnf', '-gencrl', '-batch', '-out', 'big.crl');
    this.run('crl', '-in', 'big.crl', '-outform', 'DER', '-out', 'big.crl.der');
    return this.read('big.crl.der');
  }

  der(pem: string): Uint8Array {
    this.run('x509', '-in', pem, '-outform', 'DER', '-out', `${pem}.der`);
    return this.read(`${pem}.der`);
  }
}

// A DER tree, to change what OpenSSL wrote where a tool would write it differently (elements
// outside the signed attributes: certificates, crls, unsigned attributes, the algorithm names).

export interface Node {
  id: Uint8Array;
  kids?: Node[];
  /** A primitive element's content. */
  value?: Uint8Array;
  /** An element kept as it was encoded. */
  der?: Uint8Array;
}

export function tree(bytes: Uint8Array, el: Element = readElement(bytes, 0)): Node {
  const idLength = (bytes[el.start]! & 0x1f) === 0x1f ? 2 : 1;
  const id = bytes.subarray(el.start, el.start + idLength);
  if (!el.constructed) return { id, value: bytes.subarray(el.contentStart, el.contentEnd) };
  return { id, kids: children(bytes, el).map((c) => tree(bytes, c)) };
}

export function encode(node: Node): Uint8Array {
  if (node.der) return node.der;
  const content = node.kids ? Buffer.concat(node.kids.map(encode)) : Buffer.from(node.value!);
  return Buffer.concat([node.id, lengthOf(content.length), content]);
}

/** An element from its identifier and content (or already encoded parts). */
export const tlv = (id: number, ...parts: Uint8Array[]): Uint8Array => {
  const content = Buffer.concat(parts);
  return Buffer.concat([Uint8Array.of(id), lengthOf(content.length), content]);
};

/** A node standing for an already encoded element. */
export const raw = (der: Uint8Array): Node => ({ id: der.subarray(0, 1), der });

function lengthOf(n: number): Uint8Array {
  if (n < 0x80) return Uint8Array.of(n);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

/** The SignedData node of a ContentInfo tree, and its SignerInfo nodes. */
export function signedData(root: Node): { sd: Node; signerInfos: Node[] } {
  const sd = root.kids![1]!.kids![0]!;
  return { sd, signerInfos: sd.kids![sd.kids!.length - 1]!.kids! };
}

export const oidNode = (dotted: string): Node => {
  const arcs = dotted.split('.').map(Number);
  const out = [arcs[0]! * 40 + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const chunk: number[] = [];
    for (let v = arc; ; v = Math.floor(v / 128)) {
      chunk.unshift((v % 128) | (chunk.length ? 0x80 : 0));
      if (v < 128) break;
    }
    out.push(...chunk);
  }
  return { id: Uint8Array.of(6), value: Uint8Array.from(out) };
};
