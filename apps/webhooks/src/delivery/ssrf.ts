// SSRF guard for webhook targets: which addresses a delivery may reach, checked when an
// endpoint is registered and again at every connection (the resolved address is validated
// inside the socket's `lookup`, so the address connected to is the one checked and DNS
// rebinding cannot reach inside).

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const blocked = new BlockList();
const V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local / metadata'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const V6: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'unique local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
  ['2001:db8::', 32, 'documentation'],
  ['100::', 64, 'discard'],
  // Tunnels and translators that reach IPv4 (or local networks) behind a public-looking
  // address: local-use NAT64 (RFC 8215), Teredo, ORCHID.
  ['64:ff9b:1::', 48, 'local NAT64'],
  ['2001::', 32, 'Teredo'],
  ['2001:10::', 28, 'ORCHID'],
  ['2001:20::', 28, 'ORCHIDv2'],
];
const reasons: { list: BlockList; reason: string }[] = [];
for (const [net, prefix, reason] of V4) {
  const list = new BlockList();
  list.addSubnet(net, prefix, 'ipv4');
  blocked.addSubnet(net, prefix, 'ipv4');
  reasons.push({ list, reason });
}
for (const [net, prefix, reason] of V6) {
  const list = new BlockList();
  list.addSubnet(net, prefix, 'ipv6');
  blocked.addSubnet(net, prefix, 'ipv6');
  reasons.push({ list, reason });
}

/** The 16 bytes of an IPv6 literal (any notation: `::` compression, a dotted IPv4 tail). */
function ipv6Bytes(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string) => (part ? part.split(':') : []);
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const all = [...head, ...Array<string>(Math.max(fill, 0)).fill('0'), ...tail];
  if (all.length !== 8) return undefined;
  return all.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 255];
  });
}

const v4Of = (bytes: number[], at: number) => bytes.slice(at, at + 4).join('.');
const zero = (bytes: number[], from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);

/**
 * The IPv4 address an IPv6 one carries, in every notation that routes to it: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), SIIT (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96)
 * and 6to4 (2002:AABB:CCDD::). `::ffff:7f00:1` and `[::127.0.0.1]` are loopback all the same.
 */
function embeddedV4(address: string): string | undefined {
  const bytes = ipv6Bytes(address);
  if (!bytes) return undefined;
  const word = (i: number) => (bytes[i] << 8) | bytes[i + 1];
  if (zero(bytes, 0, 10) && word(10) === 0xffff) return v4Of(bytes, 12); // mapped
  if (zero(bytes, 0, 8) && word(8) === 0xffff && word(10) === 0) return v4Of(bytes, 12); // SIIT
  if (zero(bytes, 0, 12) && !zero(bytes, 12, 16)) return v4Of(bytes, 12); // compatible (::1 too)
  if (word(0) === 0x64 && word(2) === 0xff9b && zero(bytes, 4, 12)) return v4Of(bytes, 12); // NAT64
  if (word(0) === 0x2002) return v4Of(bytes, 2); // 6to4
  return undefined;
}

/**
 * Why an IP address must not be a webhook target, or undefined for a public address.
 * Accepts IPv4 and IPv6 literals (brackets allowed); anything else is refused.
 */
export function nonPublicReason(input: string): string | undefined {
  const address = input.replace(/^\[|\]$/g, '');
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    const v4 = embeddedV4(address);
    if (v4) return nonPublicReason(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (!blocked.check(address, type)) return undefined;
  return reasons.find((r) => r.list.check(address, type))?.reason ?? 'not public';
}

export const isPublicAddress = (address: string): boolean => nonPublicReason(address) === undefined;

export class TargetRefused extends Error {}

export interface TargetPolicy {
  /** Private targets allowed (operator setting; sandbox endpoints only): loopback, plus `privateAllowList`. */
  allowPrivate: boolean;
  /** The operator's other private addresses a sandbox endpoint may reach (WEBHOOKS_PRIVATE_TARGETS). */
  privateAllowList?: BlockList;
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/**
 * Why `address` may not be reached under `policy`, or undefined. Public addresses always may;
 * a private one only when the policy allows private targets and it is loopback or on the
 * operator's list (issue 12 finding 1: a sandbox key could otherwise read internal services
 * of the embedded default's network through delivery excerpts and connect errors).
 */
export function refusalOf(address: string, policy: TargetPolicy): string | undefined {
  const reason = nonPublicReason(address);
  if (!reason || !policy.allowPrivate) return reason;
  const bare = address.replace(/^\[|\]$/g, '');
  const v4 = isIP(bare) === 6 ? embeddedV4(bare) : undefined;
  const plain = v4 ?? bare;
  const type = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
  if (loopback.check(plain, type) || policy.privateAllowList?.check(plain, type)) return undefined;
  return `${reason} (only loopback and the operator's WEBHOOKS_PRIVATE_TARGETS are allowed)`;
}

/** Whether `address` is not a public one (what a delivery to it may not reveal). */
export const isPrivateAddress = (address: string): boolean => nonPublicReason(address) !== undefined;

/** Checks the shape of a URL: http(s), no credentials; https only when private targets are not allowed. */
export function checkUrlShape(url: URL, policy: TargetPolicy): void {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TargetRefused('url must be http(s)');
  if (!policy.allowPrivate && url.protocol !== 'https:') throw new TargetRefused('url must be https');
  if (url.username || url.password) throw new TargetRefused('url must not contain credentials');
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Registration-time check: the URL's host, an IP literal or a name, must be (or resolve only
 * to) public addresses. A name that does not resolve yet is accepted: every connection is
 * checked again.
 */
export async function checkTarget(url: URL, policy: TargetPolicy): Promise<void> {
  checkUrlShape(url, policy);
  const host = hostOf(url).toLowerCase();
  if (!policy.allowPrivate && (host === 'localhost' || host.endsWith('.localhost')))
    throw new TargetRefused('url resolves to loopback');
  if (isIP(host)) {
    const reason = refusalOf(host, policy);
    if (reason) throw new TargetRefused(`url points to a ${reason} address`);
    return;
  }
  const addresses = await resolveAll(host).catch(() => [] as LookupAddress[]);
  for (const { address } of addresses) {
    const reason = refusalOf(address, policy);
    if (reason) throw new TargetRefused(`url resolves to a ${reason} address`);
  }
}

function resolveAll(host: string, timeoutMs = 3000): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('DNS time-out')), timeoutMs);
    dnsLookup(host, { all: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(addresses);
    });
  });
}

/**
 * A `lookup` for http(s).request: resolves once, refuses the connection unless every address
 * is allowed, and connects to the first (pinned) one.
 */
export function guardedLookup(policy: TargetPolicy, onResolved?: (address: string) => void): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as LookupAddress[];
      if (!list.length) return callback(new Error(`${hostname} did not resolve`), '', 0);
      for (const { address } of list) {
        const reason = refusalOf(address, policy);
        if (reason) return callback(new TargetRefused(`${hostname} resolves to a ${reason} address`), '', 0);
      }
      const [first] = list;
      onResolved?.(first.address);
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [first]);
      callback(null, first.address, first.family);
    });
  };
}

/** Connection-time check for IP-literal hosts (node does not call `lookup` for them). */
export function checkLiteralHost(url: URL, policy: TargetPolicy): void {
  checkUrlShape(url, policy);
  const host = hostOf(url);
  if (isIP(host)) {
    const reason = refusalOf(host, policy);
    if (reason) throw new TargetRefused(`url points to a ${reason} address`);
  }
}
