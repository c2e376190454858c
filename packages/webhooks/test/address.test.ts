import { describe, expect, it } from 'vitest';
import { type AddressClass, classifyAddress, isPublicAddress, parseHostToIp } from '../src/index.ts';

// Spec, Events, Delivery rules: "Webhook URLs must be public http:// or https:// addresses;
// private, loopback and link-local targets ... are rejected". Every row is one address form.
const CASES: Array<[string, AddressClass]> = [
  // IPv4 public
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['93.184.215.14', 'public'],
  ['100.63.255.255', 'public'], // just below 100.64/10
  ['100.128.0.0', 'public'], // just above 100.64/10
  ['172.15.255.255', 'public'],
  ['172.32.0.0', 'public'],
  ['192.31.196.1', 'public'], // AS112, globally reachable
  ['198.17.255.255', 'public'],
  ['198.20.0.0', 'public'],
  ['223.255.255.255', 'public'],
  // IPv4 special
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'this-network'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['192.168.255.255', 'private'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  ['169.254.0.1', 'link-local'],
  ['169.254.169.254', 'metadata'],
  ['169.254.170.2', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.55', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.99', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['192.88.99.1', 'reserved'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  // IPv4 in the forms WHATWG URL and inet_aton accept
  ['2130706433', 'loopback'], // decimal 127.0.0.1
  ['0177.0.0.1', 'loopback'], // octal
  ['0177.0000.0000.0001', 'loopback'],
  ['0x7f.0.0.1', 'loopback'], // hex
  ['0X7F.0.0.1', 'loopback'],
  ['0x7f000001', 'loopback'],
  ['0x7f.1', 'loopback'],
  ['127.1', 'loopback'], // short forms
  ['127.0.1', 'loopback'],
  ['127.0.0.1.', 'loopback'], // trailing dot
  ['017700000001', 'loopback'], // octal whole number
  ['3232235521', 'private'], // 192.168.0.1
  ['0xa.0.0.1', 'private'],
  ['012.0.0.1', 'private'], // octal 10.0.0.1
  ['010.0.0.1', 'public'], // octal 8.0.0.1: the way a URL reads it, not 10.0.0.1
  ['2852039166', 'metadata'], // 169.254.169.254
  ['0xa9fea9fe', 'metadata'],
  ['0251.0376.0251.0376', 'metadata'],
  ['0', 'unspecified'],
  ['134744072', 'public'], // 8.8.8.8
  // IPv6
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['[::1]', 'loopback'],
  ['2606:4700:4700::1111', 'public'],
  ['2a00:1450:4001:81b::200e', 'public'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['fd00:ec2::254', 'metadata'],
  ['fd00:ec2:0::254', 'metadata'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf::1', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['ff05::1:3', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['2001:2::1', 'benchmarking'],
  ['100::1', 'reserved'], // discard-only
  ['4000::1', 'reserved'], // outside 2000::/3
  ['2001:10::1', 'reserved'], // ORCHID
  ['2001:4:112::1', 'public'], // AS112-v6
  // IPv4-mapped IPv6 (::ffff:0:0/96): the socket talks IPv4 to the embedded address
  ['::ffff:127.0.0.1', 'loopback'],
  ['[::ffff:127.0.0.1]', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
  ['::FFFF:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['::ffff:a9fe:a9fe', 'metadata'],
  ['::ffff:192.168.1.1', 'private'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:8.8.8.8', 'public'],
  // IPv4-compatible (deprecated) and IPv4-translated
  ['::127.0.0.1', 'loopback'],
  ['::10.0.0.1', 'private'],
  ['::8.8.8.8', 'reserved'],
  ['::ffff:0:127.0.0.1', 'loopback'],
  // NAT64 well-known prefix 64:ff9b::/96 and local-use 64:ff9b:1::/48
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b::10.0.0.1', 'private'],
  ['64:ff9b::a9fe:a9fe', 'metadata'],
  ['64:ff9b::8.8.8.8', 'public'],
  ['64:ff9b:1::8.8.8.8', 'private'],
  ['64:ff9b:1::10.0.0.1', 'private'],
  // 6to4 2002::/16 embeds an IPv4 in bits 16..47
  ['2002:7f00:1::1', 'loopback'],
  ['2002:c0a8:101::1', 'private'], // 192.168.1.1
  ['2002:a9fe:a9fe::', 'metadata'],
  ['2002:808:808::1', 'public'],
  // Teredo 2001::/32 stores the client IPv4 inverted
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'], // ~80ff:fffe = 127.0.0.1
  ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private'], // ~f5ff:fffe = 10.0.0.1
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'reserved'], // ~ = 8.8.8.8: still not a webhook address
  // Not addresses
  ['example.com', 'invalid'],
  ['localhost', 'invalid'],
  ['', 'invalid'],
  ['1.2.3.4.5', 'invalid'],
  ['256.0.0.1', 'invalid'],
  ['08.0.0.1', 'invalid'],
  ['0x.0x.0x.0xg', 'invalid'],
  ['4294967296', 'invalid'],
  ['1.2.3.256', 'invalid'],
  ['1.2.65536', 'invalid'],
  ['::ffff:1.2.3', 'invalid'],
  ['1:2:3:4:5:6:7:8:9', 'invalid'],
  ['[::1', 'invalid'],
  ['gggg::1', 'invalid'],
];

describe('Delivery rules: only public addresses may receive webhooks (address classes)', () => {
  it.each(CASES)('%s is %s', (input, expected) => {
    expect(classifyAddress(input)).toBe(expected);
  });

  it('isPublicAddress is true only for public addresses', () => {
    for (const [input, expected] of CASES) expect(isPublicAddress(input)).toBe(expected === 'public');
  });
});

describe('Hosts are read as IP addresses the way WHATWG URL and inet_aton read them', () => {
  it.each([
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['0x7F000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['10.1', '10.0.0.1'],
    ['1.2.3.4.', '1.2.3.4'],
    ['0x', '0.0.0.0'],
    ['4294967295', '255.255.255.255'],
    ['[::1]', '::1'],
    ['[0:0:0:0:0:ffff:7f00:1]', '::ffff:7f00:1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['[2001:DB8:0:0:0:0:0:1]', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1%eth0'],
  ])('%s -> %s', (host, ip) => {
    expect(parseHostToIp(host)).toBe(ip);
  });

  it.each([
    'example.com',
    'localhost',
    'a.b.c.d',
    '1.2.3.4.5',
    '4294967296',
    '09',
    '[example.com]',
    'xn--n3h.com',
  ])('%s is not an IP address', (host) => {
    expect(parseHostToIp(host)).toBeNull();
  });

  it('agrees with the WHATWG URL parser on every IPv4 form it accepts', () => {
    const forms = [
      '2130706433',
      '0177.0.0.1',
      '0x7f.0.0.1',
      '127.1',
      '0x7f.1',
      '3232235521',
      '012.0.0.1',
      '0x',
      '1.2.3.4.',
    ];
    for (const form of forms) expect(parseHostToIp(form)).toBe(new URL(`http://${form}/`).hostname);
  });
});
