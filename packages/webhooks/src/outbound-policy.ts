import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { type AddressClass, classifyAddress, parseHostToIp } from './address.ts';
import { OutboundBlockedError, OutboundHttpError } from './errors.ts';

// The outbound address policy: which URLs and addresses the project may reach (the SSRF guard's
// rules). `assertPublicUrl` checks an endpoint URL when it is saved; `guardedFetch` (outbound.ts)
// checks every address of every request with `checkUrl` and connects only to the checked ones.

export type OutboundProtocol = 'http:' | 'https:';

/** Resolves a host name to every address it has (A and AAAA). Injectable for tests. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export interface OutboundPolicy {
  /**
   * Allow loopback, private, link-local and every other non-public class except cloud metadata
   * addresses (`WEBHOOK_ALLOW_PRIVATE`, for local development and tests only). Default false.
   */
  allowPrivate?: boolean;
  /**
   * Addresses or CIDR ranges that are allowed even though not public (`10.1.2.3`, `10.8.0.0/16`,
   * `fd12::/48`): an operator's explicit exception, narrower than `allowPrivate`.
   */
  allowedAddresses?: readonly string[];
  /** Default both `http:` and `https:` (spec: webhook URLs are public http:// or https:// addresses). */
  allowedProtocols?: readonly OutboundProtocol[];
  /** DNS resolution; default the system resolver (`dns.lookup`, all addresses). */
  lookup?: ResolveHost;
}

export interface CheckedUrl {
  url: URL;
  /** The addresses that were checked; the connection is made to these and no others. */
  addresses: string[];
}

const DEFAULT_PROTOCOLS: readonly OutboundProtocol[] = ['http:', 'https:'];

const lookupAll: ResolveHost = async (hostname) => {
  const results = await dnsLookup(hostname, { all: true, verbatim: true });
  return results.map((r) => r.address);
};

/** How long an answer of the system resolver is reused (it does not report the record's TTL). */
export const DNS_CACHE_MS = 5_000;
const DNS_CACHE_ENTRIES = 1024;

/**
 * A resolver that reuses each name's answer for `maxAgeMs` and shares one lookup among the requests
 * that ask at the same time, so a busy endpoint costs one lookup per few seconds instead of one per
 * delivery. Only the answer is reused: every request still checks every address against its policy
 * and connects to those addresses only. Failed lookups are not kept.
 */
export function cachingResolver(
  resolve: ResolveHost,
  maxAgeMs = DNS_CACHE_MS,
  now: () => number = () => performance.now(),
): ResolveHost {
  const answers = new Map<string, { until: number; addresses: Promise<string[]> }>();
  return (hostname) => {
    const name = hostname.toLowerCase();
    const hit = answers.get(name);
    if (hit && hit.until > now()) return hit.addresses;
    answers.delete(name);
    const addresses = resolve(hostname);
    answers.set(name, { until: now() + maxAgeMs, addresses });
    addresses.catch(() => {
      if (answers.get(name)?.addresses === addresses) answers.delete(name);
    });
    if (answers.size > DNS_CACHE_ENTRIES) answers.delete(answers.keys().next().value!);
    return addresses;
  };
}

const systemResolve: ResolveHost = cachingResolver(lookupAll);

const EMPTY_ALLOW_LIST = new BlockList();
/** Each policy's allow list, built once per list of entries (a policy's list does not change). */
const allowLists = new WeakMap<readonly string[], BlockList>();

function allowListOf(entries: readonly string[] | undefined): BlockList {
  if (entries === undefined || entries.length === 0) return EMPTY_ALLOW_LIST;
  let list = allowLists.get(entries);
  if (!list) {
    list = buildAllowList(entries);
    allowLists.set(entries, list);
  }
  return list;
}

/**
 * An address's canonical form and class. Both depend on the address text alone, so they are kept
 * (bounded): the policy is still applied to every address of every request.
 */
const classified = new Map<string, { canonical: string | null; cls: AddressClass }>();
const CLASSIFIED_ENTRIES = 4096;

function classifyCached(address: string): { canonical: string | null; cls: AddressClass } {
  let hit = classified.get(address);
  if (!hit) {
    hit = { canonical: parseHostToIp(address), cls: classifyAddress(address) };
    if (classified.size >= CLASSIFIED_ENTRIES) classified.clear();
    classified.set(address, hit);
  }
  return hit;
}

function buildAllowList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const slash = entry.indexOf('/');
    const address = slash === -1 ? entry : entry.slice(0, slash);
    const family = isIP(address);
    if (family === 0) throw new TypeError(`allowedAddresses: not an IP address or CIDR: ${entry}`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (slash === -1) list.addAddress(address, type);
    else list.addSubnet(address, Number(entry.slice(slash + 1)), type);
  }
  return list;
}

function isAllowedAddress(
  address: string,
  cls: AddressClass,
  policy: OutboundPolicy,
  allow: BlockList,
): boolean {
  if (cls === 'public') return true;
  if (cls === 'invalid') return false;
  const family = isIP(address);
  if (family !== 0 && allow.check(address, family === 4 ? 'ipv4' : 'ipv6')) return true;
  return policy.allowPrivate === true && cls !== 'metadata';
}

function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

function rejectOnAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export async function checkUrl(
  rawUrl: string | URL,
  policy: OutboundPolicy,
  signal?: AbortSignal,
): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new OutboundBlockedError('invalid_url', 'Not a valid absolute URL');
  }
  const protocols = policy.allowedProtocols ?? DEFAULT_PROTOCOLS;
  if (!(protocols as readonly string[]).includes(url.protocol)) {
    throw new OutboundBlockedError(
      'protocol',
      `Protocol ${url.protocol} is not allowed (${protocols.join(', ')})`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new OutboundBlockedError('credentials', 'URLs with embedded credentials are not allowed');
  }
  const allow = allowListOf(policy.allowedAddresses);
  // The WHATWG parser has already turned 0x7f.1, 2130706433 and friends into dotted IPv4.
  const literal = classifyCached(url.hostname).canonical;
  let addresses: string[];
  if (literal !== null) {
    addresses = [literal];
  } else {
    if (isLocalhostName(url.hostname) && policy.allowPrivate !== true) {
      throw new OutboundBlockedError('private_address', `${url.hostname} is a loopback name`, {
        addressClass: 'loopback',
      });
    }
    const resolve = policy.lookup ?? systemResolve;
    try {
      addresses = await rejectOnAbort(resolve(url.hostname), signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new OutboundHttpError('dns_error', `Could not resolve ${url.hostname}`, { cause: error });
    }
    if (addresses.length === 0) throw new OutboundHttpError('dns_error', `${url.hostname} has no address`);
  }
  for (const address of addresses) {
    const { cls } = classifyCached(address);
    if (!isAllowedAddress(address, cls, policy, allow)) {
      const what = literal === null ? `${url.hostname} resolves to ${address}, a` : `${address} is a`;
      throw new OutboundBlockedError(
        'private_address',
        `${what} ${cls} address; only public addresses are allowed`,
        { address, addressClass: cls },
      );
    }
  }
  return { url, addresses: addresses.map((a) => classifyCached(a).canonical ?? a) };
}

/**
 * Checks that a URL may be fetched (spec, Events, Delivery rules: public http:// or https://
 * addresses only; private, loopback and link-local targets are rejected when the endpoint is
 * saved and again at delivery). Resolves the host name and requires every A/AAAA address to be
 * public (unless `allowPrivate` / `allowedAddresses`). Throws OutboundBlockedError, or
 * OutboundHttpError `dns_error` when the name does not resolve.
 */
export async function assertPublicUrl(url: string, opts: OutboundPolicy = {}): Promise<CheckedUrl> {
  return checkUrl(url, opts);
}
