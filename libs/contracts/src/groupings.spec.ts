import {
  ALL_SCOPES,
  GROUPINGS,
  groupingAllows,
  PUBLIC_PAGE_PREFIXES,
  ROUTE_TABLE,
  routeOwner,
  SCOPE_RESOURCES,
  scopeSatisfied,
  type RouteOwner,
} from './groupings';

function owner(prefix: string): RouteOwner {
  const found = routeOwner(prefix);
  if (!found) throw new Error(`no route owner for ${prefix}`);
  return found;
}

describe('scopeSatisfied', () => {
  it('accepts the exact scope', () => {
    expect(scopeSatisfied(['invoices:read'], 'invoices:read')).toBe(true);
    expect(scopeSatisfied(['invoices:write'], 'invoices:write')).toBe(true);
  });

  it('write implies read', () => {
    expect(scopeSatisfied(['invoices:write'], 'invoices:read')).toBe(true);
    for (const resource of SCOPE_RESOURCES) {
      expect(scopeSatisfied([`${resource}:write`], `${resource}:read`)).toBe(true);
    }
  });

  it('read does not imply write', () => {
    expect(scopeSatisfied(['invoices:read'], 'invoices:write')).toBe(false);
    for (const resource of SCOPE_RESOURCES) {
      expect(scopeSatisfied([`${resource}:read`], `${resource}:write`)).toBe(false);
    }
  });

  it('a scope on another resource does not count', () => {
    expect(scopeSatisfied(['customers:write'], 'invoices:read')).toBe(false);
    expect(scopeSatisfied(['payment_links:write'], 'transactions:write')).toBe(false);
    expect(scopeSatisfied([], 'events:read')).toBe(false);
  });

  it('does not accept partial or look-alike scopes', () => {
    expect(scopeSatisfied(['invoices'], 'invoices:read')).toBe(false);
    expect(scopeSatisfied(['invoices:*'], 'invoices:read')).toBe(false);
    expect(scopeSatisfied(['INVOICES:READ'], 'invoices:read')).toBe(false);
    expect(scopeSatisfied(['xinvoices:write'], 'invoices:read')).toBe(false);
  });

  it('a key with ALL_SCOPES satisfies everything', () => {
    for (const scope of ALL_SCOPES) expect(scopeSatisfied(ALL_SCOPES, scope)).toBe(true);
  });
});

describe('groupingAllows', () => {
  it('invoices are readable with the payments grouping only', () => {
    expect(groupingAllows(owner('invoices'), ['payments'], 'GET')).toBe(true);
  });

  it('invoices are not writable with the payments grouping only', () => {
    for (const method of ['POST', 'DELETE', 'PATCH', 'PUT']) {
      expect(groupingAllows(owner('invoices'), ['payments'], method)).toBe(false);
    }
  });

  it('invoices are readable and writable with invoicing', () => {
    expect(groupingAllows(owner('invoices'), ['invoicing'], 'GET')).toBe(true);
    expect(groupingAllows(owner('invoices'), ['invoicing'], 'POST')).toBe(true);
    expect(groupingAllows(owner('invoices'), ['payments', 'invoicing'], 'POST')).toBe(true);
  });

  it('payments routes need the payments grouping', () => {
    for (const prefix of ['merchants', 'payment-links', 'transactions', 'refunds', 'mandates']) {
      expect(groupingAllows(owner(prefix), ['payments'], 'POST')).toBe(true);
      expect(groupingAllows(owner(prefix), ['invoicing'], 'GET')).toBe(false);
    }
  });

  it('invoicing routes (other than invoices) need the invoicing grouping', () => {
    for (const prefix of ['customers', 'subscriptions', 'estimates', 'test-clocks']) {
      expect(groupingAllows(owner(prefix), ['invoicing'], 'POST')).toBe(true);
      expect(groupingAllows(owner(prefix), ['payments'], 'GET')).toBe(false);
    }
  });

  it('webhooks and events are available with either grouping', () => {
    for (const prefix of ['webhooks', 'events']) {
      for (const grouping of GROUPINGS) {
        expect(groupingAllows(owner(prefix), [grouping], 'GET')).toBe(true);
        expect(groupingAllows(owner(prefix), [grouping], 'POST')).toBe(true);
      }
    }
  });

  it('an account without groupings reaches nothing', () => {
    for (const route of ROUTE_TABLE) {
      expect(groupingAllows(route, [], 'GET')).toBe(false);
      expect(groupingAllows(route, [], 'POST')).toBe(false);
    }
  });
});

describe('ROUTE_TABLE', () => {
  it('has unique prefixes', () => {
    const prefixes = ROUTE_TABLE.map((r) => r.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it('does not clash with the public page prefixes', () => {
    const prefixes = new Set(ROUTE_TABLE.map((r) => r.prefix));
    for (const page of PUBLIC_PAGE_PREFIXES) expect(prefixes.has(page.prefix)).toBe(false);
    const pages = PUBLIC_PAGE_PREFIXES.map((p) => p.prefix);
    expect(new Set(pages).size).toBe(pages.length);
  });

  it('uses known resources and groupings, each resource by exactly one prefix', () => {
    for (const route of ROUTE_TABLE) {
      expect(SCOPE_RESOURCES).toContain(route.resource);
      expect(route.groupings.length).toBeGreaterThan(0);
      for (const g of route.groupings) expect(GROUPINGS).toContain(g);
      expect(route.prefix).toMatch(/^[a-z]+(-[a-z]+)*$/);
    }
    const resources = ROUTE_TABLE.map((r) => r.resource);
    expect(new Set(resources).size).toBe(resources.length);
    expect([...resources].sort()).toEqual([...SCOPE_RESOURCES].sort());
  });

  it('routeOwner finds by prefix and nothing else', () => {
    expect(routeOwner('payment-links')?.service).toBe('payments');
    expect(routeOwner('invoices')?.service).toBe('invoicing');
    expect(routeOwner('events')?.service).toBe('webhooks');
    expect(routeOwner('payment_links')).toBeUndefined();
    expect(routeOwner('')).toBeUndefined();
    expect(routeOwner('pay')).toBeUndefined();
  });
});

describe('ALL_SCOPES', () => {
  it('has 30 distinct entries: read and write for each of the 15 resources', () => {
    expect(SCOPE_RESOURCES).toHaveLength(16);
    expect(ALL_SCOPES).toHaveLength(32);
    expect(new Set(ALL_SCOPES).size).toBe(32);
    for (const resource of SCOPE_RESOURCES) {
      expect(ALL_SCOPES).toContain(`${resource}:read`);
      expect(ALL_SCOPES).toContain(`${resource}:write`);
    }
    for (const scope of ALL_SCOPES) expect(scope).toMatch(/^[a-z_]+:(read|write)$/);
  });
});
