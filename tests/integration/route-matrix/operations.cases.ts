// Every operation of the document: the happy call answers the documented status and schema,
// and each refusal (no key, a revoked key, another mode's or account's object, a missing
// scope, a missing grouping, an unknown field) answers its documented error.

import { GROUPINGS, groupingAllows, ROUTE_TABLE, SCOPE_RESOURCES } from '@paygrid/contracts';
import { eventually, type ApiResponse } from '../../support/platform';
import {
  hasId,
  isAction,
  MANDATE_CHARGE,
  PREPARE,
  RECEIPT,
  requestBody,
  UNKNOWN,
  type RouteMatrix,
} from './matrix.helpers';

export function operationCases(ctx: () => RouteMatrix) {
  describe('every operation', () => {
    it('answers the happy call with the documented status and response schema', async () => {
      const { platform, operations, account, ids, call, validate, exampleBody, pathFor, recurringMandate } =
        ctx();
      for (const op of operations) {
        if (isAction(op) || PREPARE[op.label]) ids.test.delete(op.owner.prefix);
        if (op.label === MANDATE_CHARGE) ids.test.set(op.owner.prefix, await recurringMandate());
        const path = await pathFor(op, 'test', account.testKey);
        for (const step of PREPARE[op.label] ?? []) {
          const object = path.split('/').slice(0, 4).join('/');
          const prepared = await call(account.testKey, 'POST', `${object}/${step}`);
          expect({ op: op.label, step, status: prepared.status }).toEqual({
            op: op.label,
            step,
            status: 200,
          });
        }
        const [, success] = Object.entries(op.op.responses).find(([s]) => s.startsWith('2')) as [string, any];
        if (success.content['text/event-stream']) {
          // A stream does not end: its status and media type, then the client leaves.
          const leave = new AbortController();
          const stream = await fetch(`${platform.url}${path}`, {
            headers: { authorization: `Bearer ${account.testKey}` },
            signal: leave.signal,
          });
          leave.abort();
          expect({ op: op.label, status: stream.status, type: stream.headers.get('content-type') }).toEqual({
            op: op.label,
            status: 200,
            type: 'text/event-stream; charset=utf-8',
          });
          continue;
        }
        // The receipt is issued moments after payment.succeeded: wait for it as a client would.
        if (op.label === RECEIPT)
          await eventually(async () =>
            (await call(account.testKey, 'GET', path)).status === 200 ? true : undefined,
          );
        const response = await call(account.testKey, op.method.toUpperCase(), path, exampleBody(op));
        // A deleted object is gone, an action's object is spent: the next operation creates another.
        if (op.method === 'delete' || isAction(op) || PREPARE[op.label]) ids.test.delete(op.owner.prefix);
        const [status, documented] = Object.entries(op.op.responses).find(([s]) => s.startsWith('2')) as [
          string,
          any,
        ];
        expect({ op: op.label, status: response.status }).toEqual({ op: op.label, status: Number(status) });
        const [media] = Object.keys(documented.content);
        if (media !== 'application/json') {
          // A document (e.g. a PDF): the media type is what the operation promises.
          expect({ op: op.label, type: response.headers.get('content-type') }).toEqual({
            op: op.label,
            type: media,
          });
          continue;
        }
        const schema = documented.content['application/json'].schema;
        expect({ op: op.label, problems: validate(schema, response.body) }).toEqual({
          op: op.label,
          problems: [],
        });
      }
    });

    it('without a key: 401 authentication_required', async () => {
      const { operations, call, expectError, exampleBody } = ctx();
      for (const op of operations) {
        const response = await call(
          undefined,
          op.method.toUpperCase(),
          op.path.replace('{id}', 'mer_00000000'),
          exampleBody(op),
        );
        expectError(op, response, 401, 'authentication_required');
      }
    });

    it('with a revoked key: 401 invalid_api_key', async () => {
      const { platform, operations, account, call, expectError, exampleBody, pathFor } = ctx();
      const created = await platform.admin('POST', `/admin/v1/accounts/${account.id}/keys`, {
        mode: 'test',
        kind: 'secret',
      });
      const revoked = await platform.admin('POST', `/admin/v1/keys/${created.body.id}/revoke`);
      expect(revoked.status).toBe(200);
      // Revocation reaches every gateway within a second (docs/api.md §2).
      await eventually(async () =>
        (await call(created.body.secret, 'GET', '/v1/events')).status === 401 ? true : undefined,
      );
      for (const op of operations) {
        const path = await pathFor(op, 'test', account.testKey);
        const response = await call(created.body.secret, op.method.toUpperCase(), path, exampleBody(op));
        expectError(op, response, 401, 'invalid_api_key');
      }
    });

    it("on another mode's or another account's object: 404 resource_missing", async () => {
      const { platform, operations, account, call, expectError, exampleBody, pathFor } = ctx();
      const other = await platform.newAccount(['payments', 'invoicing']);
      const withId = operations.filter(hasId);
      for (const op of withId) {
        const live = await pathFor(op, 'live', account.liveKey);
        expectError(
          op,
          await call(account.testKey, op.method.toUpperCase(), live, exampleBody(op)),
          404,
          'resource_missing',
        );
        const test = await pathFor(op, 'test', account.testKey);
        expectError(
          op,
          await call(account.liveKey, op.method.toUpperCase(), test, exampleBody(op)),
          404,
          'resource_missing',
        );
        expectError(
          op,
          await call(other.testKey, op.method.toUpperCase(), test, exampleBody(op)),
          404,
          'resource_missing',
        );
      }
      expect(withId.length).toBeGreaterThan(0);
    });

    it('with a key that lacks the scope: 403 insufficient_scope naming it', async () => {
      const { operations, account, call, expectError, exampleBody, pathFor, keyFor } = ctx();
      for (const op of operations) {
        const scope: string = op.op['x-required-scope'];
        const [resource, access] = scope.split(':');
        // Write needs more than read; read needs more than another resource's write.
        const otherScope =
          access === 'write' ? `${resource}:read` : `${SCOPE_RESOURCES.find((r) => r !== resource)}:write`;
        const key = await keyFor(account.id, 'restricted', [otherScope]);
        const path = await pathFor(op, 'test', account.testKey);
        const response = await call(key, op.method.toUpperCase(), path, exampleBody(op));
        expectError(op, response, 403, 'insufficient_scope');
        expect(response.body.error.message).toContain(scope);
      }
    });

    it('from an account without the grouping: 403 grouping_not_enabled', async () => {
      const { platform, operations, call, expectError, exampleBody } = ctx();
      const single = {
        payments: await platform.newAccount(['payments']),
        invoicing: await platform.newAccount(['invoicing']),
      };
      const skipped = new Set<string>();
      for (const op of operations) {
        const lacking = GROUPINGS.filter((g) => !groupingAllows(op.owner, [g], op.method.toUpperCase()));
        if (lacking.length === 0) skipped.add(op.owner.prefix);
        for (const grouping of lacking) {
          const response = await call(
            single[grouping].testKey,
            op.method.toUpperCase(),
            op.path.replace('{id}', 'mer_00000000'),
            exampleBody(op),
          );
          expectError(op, response, 403, 'grouping_not_enabled');
        }
      }
      // Only what every grouping reaches is skipped: the prefixes open to both groupings.
      const documented = new Set(operations.map((o) => o.owner.prefix));
      const openToAll = ROUTE_TABLE.filter((r) => GROUPINGS.every((g) => r.groupings.includes(g)))
        .map((r) => r.prefix)
        .filter((prefix) => documented.has(prefix));
      expect([...skipped].sort()).toEqual(openToAll.sort());
    });

    it('with an unknown field: 400 parameter_unknown naming it (body for POST, query for lists)', async () => {
      const { operations, account, call, expectError, hasQuery, exampleBody, pathFor } = ctx();
      let checked = 0;
      for (const op of operations) {
        const path = await pathFor(op, 'test', account.testKey);
        let response: ApiResponse;
        if (requestBody(op)) {
          response = await call(account.testKey, op.method.toUpperCase(), path, {
            ...(exampleBody(op) as object),
            [UNKNOWN]: 'x',
          });
        } else if (hasQuery(op)) {
          response = await call(account.testKey, op.method.toUpperCase(), `${path}?${UNKNOWN}=x`);
        } else {
          // GET or DELETE of one object: no body and no query parameters to add one to.
          // Or an action on one object that takes no parameters (POST /v1/webhooks/{id}/test).
          // The account's profile is one object without an id (GET /v1/account, DELETE its logo).
          const oneObject =
            (op.method === 'get' || op.method === 'delete' || (op.method === 'post' && !requestBody(op))) &&
            (hasId(op) || op.owner.prefix === 'account');
          expect({ op: op.label, oneObject }).toEqual({ op: op.label, oneObject: true });
          continue;
        }
        expectError(op, response, 400, 'parameter_unknown');
        expect(response.body.error.param).toBe(UNKNOWN);
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
    });
  });
}
