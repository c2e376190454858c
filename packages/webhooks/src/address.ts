import { isIPv4, isIPv6 } from 'node:net';

/**
 * What an IP address is, from the point of view of an outbound request the service makes on a
 * customer's behalf. Only `public` may be contacted by default (spec, Events, Delivery rules:
 * "Webhook URLs must be public http:// or https:// addresses").
 */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'this-network'
  | 'loopback'
  | 'private'
  | 'cgnat'
  | 'link-local'
  | 'metadata'
  | 'unique-local'
  | 'site-local'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved'
  | 'invalid';

// ---------------------------------------------------------------------------------------------
// Host parsing
// ---------------------------------------------------------------------------------------------

/**
 * Parses one dotted part of an IPv4 host the way the WHATWG URL standard (and inet_aton) do:
 * `0x`/`0X` prefix = hexadecimal, a leading `0` = octal, otherwise decimal.
 * Returns null when the part is not a number in that radix.
 */
function parseIPv4Part(part: string): number | null {
  let digits = part;
  let radix = 10;
  if (digits.length >= 2 && (digits.startsWith('0x') || digits.startsWith('0X'))) {
    digits = digits.slice(2);
    radix = 16;
  } else if (digits.length >= 2 && digits.startsWith('0')) {
    digits = digits.slice(1);
    radix = 8;
  }
  if (digits === '') return 0;
  const valid = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) return null;
  // Anything longer cannot be a valid part; avoids precision games with huge inputs.
  if (digits.length > 12) return Number.POSITIVE_INFINITY;
  return Number.parseInt(digits, radix);
}

/** WHATWG "IPv4 parser": returns the 32-bit value or null if `host` is not an IPv4 address. */
function parseIPv4Number(host: string): number | null {
  const parts = host.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    if (part === '') return null;
    const n = parseIPv4Part(part);
    if (n === null) return null;
    numbers.push(n);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255)) return null;
  if (last >= 256 ** (5 - parts.length)) return null;
  let value = last;
  numbers.forEach((n, i) => {
    value += n * 256 ** (3 - i);
  });
  return value;
}

function ipv4ToString(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/** Parses a valid IPv6 literal (no brackets, no zone) into its eight 16-bit groups. */
function parseIPv6Groups(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address;
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const lastPart = text.slice(lastColon + 1);
  if (lastPart.includes('.')) {
    const v4 = isIPv4(lastPart) ? parseIPv4Number(lastPart) : null;
    if (v4 === null) return null;
    tail.push(v4 >>> 16, v4 & 0xffff);
    text = text.slice(0, lastColon + 1);
    // "::1.2.3.4" leaves "::", "a:b::1.2.3.4" leaves "a:b::", "a:b:c:d:e:f:1.2.3.4" leaves "...f:".
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const toGroups = (s: string) => (s === '' ? [] : s.split(':').map((h) => Number.parseInt(h, 16)));
  const doubleColon = text.indexOf('::');
  let groups: number[];
  if (doubleColon === -1) {
    groups = [...toGroups(text), ...tail];
  } else {
    const head = toGroups(text.slice(0, doubleColon));
    const rest = [...toGroups(text.slice(doubleColon + 2)), ...tail];
    const missing = 8 - head.length - rest.length;
    if (missing < 1) return null;
    groups = [...head, ...new Array<number>(missing).fill(0), ...rest];
  }
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) return null;
  return groups;
}

/**
 * Turns a URL host into a canonical IP address string, or null if it is a domain name.
 *
 * IPv4 is read the way the WHATWG URL parser (and C `inet_aton`) read it, so whatever form an
 * attacker uses, we classify the same address the connection would reach: decimal `2130706433`,
 * octal `0177.0.0.1`, hexadecimal `0x7f.0.0.1` / `0x7f000001`, short forms `127.1` and `127.0.1`,
 * and a trailing dot. IPv6 may be bracketed (`[::1]`); it is returned in canonical (RFC 5952) form.
 */
export function parseHostToIp(host: string): string | null {
  let text = host.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (text.includes(':')) {
    const zone = text.indexOf('%');
    const bare = zone === -1 ? text : text.slice(0, zone);
    if (!isIPv6(bare)) return null;
    // The WHATWG serializer is the canonical compressed form (e.g. ::ffff:7f00:1).
    const canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
    return zone === -1 ? canonical : `${canonical}${text.slice(zone)}`;
  }
  const v4 = parseIPv4Number(text);
  return v4 === null ? null : ipv4ToString(v4);
}

// ---------------------------------------------------------------------------------------------
// Classification
// ---------------------------------------------------------------------------------------------

const ipv4 = (text: string): number => parseIPv4Number(text)!;

/** [network, prefix length, class]; the first match wins, so more specific entries come first. */
const IPV4_RANGES: ReadonlyArray<readonly [number, number, AddressClass]> = (
  [
    // Cloud instance metadata services: the classic SSRF target.
    ['169.254.169.254', 32, 'metadata'], // AWS, GCP, Azure, OCI, DigitalOcean, ...
    ['169.254.170.2', 32, 'metadata'], // AWS ECS task metadata / credentials
    ['169.254.170.23', 32, 'metadata'], // AWS EKS Pod Identity agent
    ['100.100.100.200', 32, 'metadata'], // Alibaba Cloud
    ['0.0.0.0', 32, 'unspecified'],
    ['0.0.0.0', 8, 'this-network'],
    ['10.0.0.0', 8, 'private'],
    ['100.64.0.0', 10, 'cgnat'],
    ['127.0.0.0', 8, 'loopback'],
    ['169.254.0.0', 16, 'link-local'],
    ['172.16.0.0', 12, 'private'],
    ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments (DS-Lite, NAT64 discovery, ...)
    ['192.0.2.0', 24, 'documentation'], // TEST-NET-1
    ['192.88.99.0', 24, 'reserved'], // deprecated 6to4 relay anycast
    ['192.168.0.0', 16, 'private'],
    ['198.18.0.0', 15, 'benchmarking'],
    ['198.51.100.0', 24, 'documentation'], // TEST-NET-2
    ['203.0.113.0', 24, 'documentation'], // TEST-NET-3
    ['224.0.0.0', 4, 'multicast'],
    ['255.255.255.255', 32, 'broadcast'],
    ['240.0.0.0', 4, 'reserved'],
  ] as const
).map(([net, bits, cls]) => [ipv4(net), bits, cls] as const);

function classifyIPv4(value: number): AddressClass {
  for (const [net, bits, cls] of IPV4_RANGES) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((value & mask) >>> 0 === net) return cls;
  }
  return 'public';
}

/** Embedded IPv4 in a transition address that might reach IPv4 space: keep its class unless public. */
function embeddedOr(value: number, whenPublic: AddressClass): AddressClass {
  const cls = classifyIPv4(value);
  return cls === 'public' ? whenPublic : cls;
}

const IPV6_METADATA = new Set(['fd00:ec2::254', 'fd00:ec2::23', 'fd20:ce::254']);

type Groups = [number, number, number, number, number, number, number, number];

function classifyIPv6(g: Groups): AddressClass {
  const [g0, g1, g2, , g4, g5, g6, g7] = g;
  const low32 = ((g6 << 16) | g7) >>> 0;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);

  if (zeros(0, 8)) return 'unspecified';
  if (zeros(0, 7) && g7 === 1) return 'loopback';
  // ::ffff:a.b.c.d IPv4-mapped: the socket really talks IPv4 to the embedded address.
  if (zeros(0, 5) && g5 === 0xffff) return classifyIPv4(low32);
  // ::a.b.c.d IPv4-compatible (deprecated) and ::ffff:0:a.b.c.d IPv4-translated (SIIT).
  if (zeros(0, 6) || (zeros(0, 4) && g4 === 0xffff && g5 === 0)) return embeddedOr(low32, 'reserved');
  // 64:ff9b::/96 well-known NAT64 prefix: the translator connects to the embedded IPv4.
  if (g0 === 0x64 && g1 === 0xff9b && zeros(2, 6)) return classifyIPv4(low32);
  // 64:ff9b:1::/48 local-use NAT64 (RFC 8215): never globally reachable.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return embeddedOr(low32, 'private');
  if ((g0 & 0xfe00) === 0xfc00) {
    const canonical = parseHostToIp(g.map((x) => x.toString(16)).join(':'));
    return canonical !== null && IPV6_METADATA.has(canonical) ? 'metadata' : 'unique-local';
  }
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'site-local';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  // Only 2000::/3 is allocated as global unicast; everything else (100::/64 discard, 5f00::/16
  // SRv6, unassigned space) is not a place a webhook can live.
  if ((g0 & 0xe000) !== 0x2000) return 'reserved';
  // 2001::/32 Teredo: the client's IPv4 address is stored inverted in the last 32 bits.
  if (g0 === 0x2001 && g1 === 0) return embeddedOr(~low32 >>> 0, 'reserved');
  if (g0 === 0x2001 && g1 === 0x2 && g2 === 0) return 'benchmarking';
  if (g0 === 0x2001 && g1 === 0xdb8) return 'documentation';
  if (g0 === 0x3fff && g1 < 0x1000) return 'documentation'; // 3fff::/20 (RFC 9637)
  // 2002::/16 6to4: relays deliver to the IPv4 address in bits 16..47.
  if (g0 === 0x2002) return embeddedOr(((g1 << 16) | g2) >>> 0, 'public');
  if (g0 === 0x2001 && g1 < 0x200) {
    // 2001::/23 IETF protocol assignments; a few entries in it are globally reachable.
    const globallyReachable =
      g1 === 0x3 || // 2001:3::/32 AMT
      (g1 === 0x4 && g2 === 0x112) || // 2001:4:112::/48 AS112-v6
      (g1 === 0x1 && zeros(2, 7) && g7 >= 1 && g7 <= 3); // 2001:1::1..3 anycast services
    return globallyReachable ? 'public' : 'reserved';
  }
  return 'public';
}

/**
 * Classifies an IP address (IPv4 or IPv6, brackets and zone IDs tolerated; any host form that
 * `parseHostToIp` accepts, such as `2130706433` or `0x7f.1`). Anything that is not an IP address is
 * `invalid`. IPv6 addresses that carry an IPv4 address (IPv4-mapped `::ffff:127.0.0.1`,
 * IPv4-compatible, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo) take the class of the embedded
 * IPv4 address when that one is not public.
 */
export function classifyAddress(ip: string): AddressClass {
  const canonical = parseHostToIp(ip);
  if (canonical === null) return 'invalid';
  if (!canonical.includes(':')) return classifyIPv4(parseIPv4Number(canonical)!);
  const zone = canonical.indexOf('%');
  const groups = parseIPv6Groups(zone === -1 ? canonical : canonical.slice(0, zone));
  return groups === null ? 'invalid' : classifyIPv6(groups as Groups);
}

/** True when `ip` is a globally reachable unicast address. */
export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip) === 'public';
}
