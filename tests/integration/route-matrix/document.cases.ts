// The OpenAPI document itself: served without a key as OpenAPI 3.1, listing exactly the /v1
// routes the services serve, each operation with an id, a scope, its groupings and documented
// errors, and a human reference at /docs that loads nothing from elsewhere.

import { GROUPINGS, groupingAllows, ROUTE_TABLE, type ServiceName } from '@paygrid/contracts';
import { requestBody, type RouteMatrix } from './matrix.helpers';

export function documentCases(ctx: () => RouteMatrix) {
  describe('the OpenAPI document', () => {
    it('is served without a key, as OpenAPI 3.1 with the bearer scheme and global security', () => {
      const { doc, operations } = ctx();
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.info.title).toBe('Paygrid');
      expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(doc.security).toEqual([{ ApiKey: [] }]);
      expect(
        doc.components.schemas.ErrorEnvelope.properties.error.properties.code.enum.length,
      ).toBeGreaterThan(0);
      expect(operations.length).toBeGreaterThan(0);
    });

    it('lists exactly the /v1 routes the services serve', async () => {
      const { platform, doc, operations } = ctx();
      const services = [...new Set(ROUTE_TABLE.map((r) => r.service))] as ServiceName[];
      const served: string[] = [];
      for (const service of services) {
        const fragment = await platform.internal(service, '/openapi.json');
        expect({ service, status: fragment.status }).toEqual({ service, status: 200 });
        served.push(
          ...fragment.body['x-registered-routes'].filter((r: string) => r.split(' ')[1].startsWith('/v1/')),
        );
      }
      expect(operations.map((o) => o.label).sort()).toEqual(served.sort());
      expect(JSON.stringify(doc)).not.toContain('x-registered-routes');
    });

    it('gives every operation an id, a scope, the groupings that reach it and documented errors', () => {
      const { operations, resolve } = ctx();
      const operationIds = operations.map((o) => o.op.operationId);
      expect(new Set(operationIds).size).toBe(operationIds.length);
      for (const op of operations) {
        const [resource, access] = String(op.op['x-required-scope']).split(':');
        expect({ op: op.label, resource, read: access === 'read' || access === 'write' }).toEqual({
          op: op.label,
          resource: op.owner.resource,
          read: true,
        });
        expect({ op: op.label, groupings: op.op['x-groupings'] }).toEqual({
          op: op.label,
          groupings: GROUPINGS.filter((g) => groupingAllows(op.owner, [g], op.method.toUpperCase())),
        });
        for (const status of ['401', '403', '429']) expect(Object.keys(op.op.responses)).toContain(status);
        if (requestBody(op)) expect(resolve(requestBody(op)).additionalProperties).toBe(false);
      }
    });

    it('serves a human reference at /docs that needs nothing from elsewhere', async () => {
      const { platform, operations } = ctx();
      const page = await platform.api(undefined, 'GET', '/docs');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = String(page.body);
      for (const op of operations) expect(html).toContain(op.op.operationId);
      expect(html).not.toMatch(/<script|<link|src=|href="https?:/i);
    });
  });
}
