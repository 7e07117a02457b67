import { ALL_SCOPES } from '@paygrid/contracts';
import { scopesForGroupings } from './account.model';

describe('scopesForGroupings', () => {
  it('gives the payments grouping its resources, and invoices read-only', () => {
    const scopes = scopesForGroupings(['payments']);
    expect(scopes).toEqual(expect.arrayContaining(['merchants:write', 'refunds:write', 'account:read']));
    expect(scopes).toContain('invoices:read');
    expect(scopes).not.toContain('invoices:write');
    expect(scopes).not.toContain('customers:read');
    expect(scopes).not.toContain('test_clocks:read');
  });

  it('gives the invoicing grouping its resources and none of payments', () => {
    const scopes = scopesForGroupings(['invoicing']);
    expect(scopes).toEqual(
      expect.arrayContaining(['invoices:write', 'customers:write', 'test_clocks:write', 'webhooks:write']),
    );
    expect(scopes.filter((s) => /^(merchants|refunds|transactions|mandates|disputes):/.test(s))).toEqual([]);
  });

  it('gives both groupings every scope', () => {
    expect([...scopesForGroupings(['payments', 'invoicing'])].sort()).toEqual([...ALL_SCOPES].sort());
  });
});
