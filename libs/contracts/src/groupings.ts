// Groupings, scopes and the public route table: which service owns which /v1 prefix and
// which grouping an account needs to reach it (docs/api.md §2).

export const GROUPINGS = ['payments', 'invoicing'] as const;
export type Grouping = (typeof GROUPINGS)[number];

export const SCOPE_RESOURCES = [
  'merchants',
  'payment_links',
  'transactions',
  'refunds',
  'disputes',
  'mandates',
  'processor_connections',
  'invoices',
  'customers',
  'subscriptions',
  'estimates',
  'webhooks',
  'events',
  'request_logs',
  'test_clocks',
  'account',
] as const;
export type ScopeResource = (typeof SCOPE_RESOURCES)[number];
export type Scope = `${ScopeResource}:${'read' | 'write'}`;

export const ALL_SCOPES: Scope[] = SCOPE_RESOURCES.flatMap((r) => [
  `${r}:read` as Scope,
  `${r}:write` as Scope,
]);

/** Write implies read. */
export function scopeSatisfied(granted: readonly string[], needed: Scope): boolean {
  if (granted.includes(needed)) return true;
  if (needed.endsWith(':read')) return granted.includes(needed.replace(/:read$/, ':write'));
  return false;
}

export type ServiceName = 'payments' | 'invoicing' | 'webhooks';

export interface RouteOwner {
  /** First path segment after /v1, e.g. "payment-links". */
  prefix: string;
  service: ServiceName;
  /** The account needs at least one of these groupings. */
  groupings: readonly Grouping[];
  /** The scope resource used by this prefix. */
  resource: ScopeResource;
}

const BOTH: readonly Grouping[] = ['payments', 'invoicing'];

export const ROUTE_TABLE: readonly RouteOwner[] = [
  { prefix: 'merchants', service: 'payments', groupings: ['payments'], resource: 'merchants' },
  { prefix: 'payment-links', service: 'payments', groupings: ['payments'], resource: 'payment_links' },
  { prefix: 'transactions', service: 'payments', groupings: ['payments'], resource: 'transactions' },
  { prefix: 'refunds', service: 'payments', groupings: ['payments'], resource: 'refunds' },
  { prefix: 'disputes', service: 'payments', groupings: ['payments'], resource: 'disputes' },
  { prefix: 'mandates', service: 'payments', groupings: ['payments'], resource: 'mandates' },
  {
    prefix: 'processor-connections',
    service: 'payments',
    groupings: ['payments'],
    resource: 'processor_connections',
  },
  { prefix: 'invoices', service: 'invoicing', groupings: BOTH, resource: 'invoices' },
  { prefix: 'customers', service: 'invoicing', groupings: ['invoicing'], resource: 'customers' },
  { prefix: 'subscriptions', service: 'invoicing', groupings: ['invoicing'], resource: 'subscriptions' },
  { prefix: 'estimates', service: 'invoicing', groupings: ['invoicing'], resource: 'estimates' },
  { prefix: 'test-clocks', service: 'invoicing', groupings: ['invoicing'], resource: 'test_clocks' },
  { prefix: 'webhooks', service: 'webhooks', groupings: BOTH, resource: 'webhooks' },
  { prefix: 'events', service: 'webhooks', groupings: BOTH, resource: 'events' },
  // The gateway records each API request and hands them to the webhooks service, which keeps
  // them 24 hours and serves them (`paygrid logs tail`).
  { prefix: 'request-logs', service: 'webhooks', groupings: BOTH, resource: 'request_logs' },
  // The business profile (docs/adr/0011): owned by invoicing, projected into payments.
  { prefix: 'account', service: 'invoicing', groupings: BOTH, resource: 'account' },
];

/**
 * Public, unauthenticated pages (hosted checkout, hosted invoice, quote page). The gateway
 * forwards them with a public internal context; the owning service renders them.
 */
export const PUBLIC_PAGE_PREFIXES: readonly { prefix: string; service: ServiceName }[] = [
  { prefix: 'pay', service: 'payments' },
  // Processor webhooks in (POST /hooks/<processor>/<connection id>): signed by the processor.
  { prefix: 'hooks', service: 'payments' },
  { prefix: 'i', service: 'invoicing' },
  { prefix: 'q', service: 'invoicing' },
  // The customer portal (docs/adr/0013): a signed link per customer.
  { prefix: 'portal', service: 'invoicing' },
];

/**
 * Paths served by another service than their prefix's owner. A payment's receipt is issued,
 * numbered, rendered and e-mailed by invoicing, which keeps the mail queue and the PDF
 * renderer (docs/adr/0012); its URL stays under the transaction it is for.
 */
export const ROUTE_OVERRIDES: readonly { method: string; path: RegExp; service: ServiceName }[] = [
  { method: 'GET', path: /^\/v1\/transactions\/[^/]+\/receipt$/, service: 'invoicing' },
];

/** The service that answers `method path` under `owner`'s prefix. */
export function routeService(owner: RouteOwner, method: string, path: string): ServiceName {
  return ROUTE_OVERRIDES.find((o) => o.method === method && o.path.test(path))?.service ?? owner.service;
}

export function routeOwner(prefix: string): RouteOwner | undefined {
  return ROUTE_TABLE.find((r) => r.prefix === prefix);
}

/** Invoices are readable with the payments grouping but writable only with invoicing. */
export function groupingAllows(owner: RouteOwner, groupings: readonly Grouping[], method: string): boolean {
  if (owner.prefix === 'invoices' && method !== 'GET') return groupings.includes('invoicing');
  return owner.groupings.some((g) => groupings.includes(g));
}
