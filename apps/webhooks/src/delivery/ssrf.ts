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

/** The IPv4 address embedded in an IPv4-mapped (::ffff:a.b.c.d), -compatible or NAT64 IPv6 one. */
function embeddedV4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
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
  /** Private targets allowed (operator setting; sandbox endpoints only). */
  allowPrivate: boolean;
}

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
  if (policy.allowPrivate) return;
  const host = hostOf(url).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost'))
    throw new TargetRefused('url resolves to loopback');
  if (isIP(host)) {
    const reason = nonPublicReason(host);
    if (reason) throw new TargetRefused(`url points to a ${reason} address`);
    return;
  }
  const addresses = await resolveAll(host).catch(() => [] as LookupAddress[]);
  for (const { address } of addresses) {
    const reason = nonPublicReason(address);
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
export function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as LookupAddress[];
      if (!list.length) return callback(new Error(`${hostname} did not resolve`), '', 0);
      if (!policy.allowPrivate) {
        for (const { address } of list) {
          const reason = nonPublicReason(address);
          if (reason)
            return callback(new TargetRefused(`${hostname} resolves to a ${reason} address`), '', 0);
        }
      }
      const [first] = list;
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [first]);
      callback(null, first.address, first.family);
    });
  };
}

/** Connection-time check for IP-literal hosts (node does not call `lookup` for them). */
export function checkLiteralHost(url: URL, policy: TargetPolicy): void {
  checkUrlShape(url, policy);
  if (policy.allowPrivate) return;
  const host = hostOf(url);
  if (isIP(host)) {
    const reason = nonPublicReason(host);
    if (reason) throw new TargetRefused(`url points to a ${reason} address`);
  }
}
