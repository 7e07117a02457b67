import { BlockList, isIP } from 'node:net';
import { readServiceConfig, type ServiceConfig } from '@paygrid/platform';
import { MAX_IN_FLIGHT } from './delivery/worker';

export interface WebhooksConfig extends ServiceConfig {
  /**
   * Lets sandbox (test-mode) endpoints target private and loopback addresses over http
   * (local receivers). Live endpoints are always https to public addresses only.
   * Default: on in embedded mode, off in distributed mode.
   */
  allowPrivateTargets: boolean;
  /**
   * The private addresses those sandbox endpoints may reach besides loopback: the operator's
   * explicit list of IPs and CIDRs (WEBHOOKS_PRIVATE_TARGETS). Empty: loopback only, so a
   * sandbox key cannot make the platform probe the rest of its network.
   */
  privateTargets: string[];
  /**
   * Deliveries one instance has in flight at most (WEBHOOKS_MAX_IN_FLIGHT, default 200); past
   * it the instance claims no more and the other instances take the queue.
   */
  maxInFlight: number;
}

/** `10.0.0.5`, `10.1.0.0/16`, `fd00::/8`: the parts of WEBHOOKS_PRIVATE_TARGETS, or why not. */
export function parsePrivateTargets(raw: string | undefined): { list: string[]; problems: string[] } {
  const list: string[] = [];
  const problems: string[] = [];
  for (const entry of (raw ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    const max = family === 6 ? 128 : 32;
    if (
      !family ||
      extra !== undefined ||
      (bits !== undefined && (!Number.isInteger(bits) || bits < 0 || bits > max))
    ) {
      problems.push(`WEBHOOKS_PRIVATE_TARGETS: "${entry}" is not an IP address or CIDR`);
    } else list.push(entry);
  }
  return { list, problems };
}

/** A BlockList of the given IPs/CIDRs (already validated by parsePrivateTargets). */
export function blockListOf(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

export function readWebhooksConfig(
  env: Record<string, string | undefined>,
  overrides: Partial<WebhooksConfig> = {},
): WebhooksConfig {
  const { reader, config } = readServiceConfig(env, 'webhooks', 3003);
  const allowPrivateTargets = reader.bool('WEBHOOKS_ALLOW_PRIVATE_TARGETS', config.mode === 'embedded');
  const privateTargets = parsePrivateTargets(reader.optional('WEBHOOKS_PRIVATE_TARGETS'));
  for (const problem of privateTargets.problems) reader.invalid(problem);
  const maxInFlight = reader.int('WEBHOOKS_MAX_IN_FLIGHT', MAX_IN_FLIGHT, 1, 10_000);
  reader.done();
  return { ...config, allowPrivateTargets, privateTargets: privateTargets.list, maxInFlight, ...overrides };
}
