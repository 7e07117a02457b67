// The operator's onboarding decisions on live merchants (approve, restrict, reject), which
// the gateway forwards to the payments service: each with its event, every move the state
// does not allow refused with 409, and the internal decision route out of reach of API keys.

import { signContext } from '@paygrid/platform';
import { eventually, type DistributedPlatform } from '../../support/platform';
import { MERCHANT, type AdminContext } from './admin.helpers';

export function merchantDecisionCases(ctx: () => AdminContext) {
  describe('merchant onboarding decisions', () => {
    async function liveMerchant(key = ctx().account.liveKey) {
      const { platform } = ctx();
      const created = await platform.api(key, 'POST', '/v1/merchants', MERCHANT);
      expect(created.status).toBe(200);
      // Live onboarding waits for the operator.
      expect(created.body).toMatchObject({ livemode: true, onboarding: { status: 'in_review' } });
      return created.body.id as string;
    }

    it('approves, restricts and re-approves a live merchant, each with its event', async () => {
      const { platform, account } = ctx();
      const id = await liveMerchant();
      const approved = await platform.admin('POST', `/admin/v1/merchants/${id}/approve`);
      expect(approved.status).toBe(200);
      expect(approved.headers.get('request-id')).toMatch(/^req_/);
      expect(approved.body).toMatchObject({
        id,
        object: 'merchant',
        livemode: true,
        onboarding: { status: 'active', reason: null },
        capabilities: { card_payments: 'active' },
      });
      expect(approved.body.onboarding.decided_at).not.toBeNull();

      const event = await eventually(async () => {
        const list = await platform.api(
          account.liveKey,
          'GET',
          '/v1/events?type=merchant.onboarding.updated&limit=100',
        );
        return list.body.data.find(
          (e: any) => e.data.object.id === id && e.data.object.onboarding.status === 'active',
        );
      });
      expect(event).toMatchObject({ livemode: true, account: account.id, merchant: id });
      expect(event.data.previous_attributes).toEqual({ onboarding: { status: 'in_review' } });

      const restricted = await platform.admin('POST', `/admin/v1/merchants/${id}/restrict`, {
        reason: 'Chargeback ratio under review',
      });
      expect(restricted.body.onboarding).toMatchObject({
        status: 'restricted',
        reason: 'Chargeback ratio under review',
      });
      const seen = await platform.api(account.liveKey, 'GET', `/v1/merchants/${id}`);
      expect(seen.body.onboarding.status).toBe('restricted');

      const reapproved = await platform.admin('POST', `/admin/v1/merchants/${id}/approve`, {});
      expect(reapproved.body.onboarding).toMatchObject({ status: 'active', reason: null });

      const reject = await platform.admin('POST', `/admin/v1/merchants/${id}/reject`, { reason: 'no' });
      expect([reject.status, reject.body.error.code]).toEqual([409, 'invalid_state_transition']);
      expect(reject.body.error.request_id).toBe(reject.headers.get('request-id'));

      const history = await eventually(async () => {
        const list = await platform.api(
          account.liveKey,
          'GET',
          '/v1/events?type=merchant.onboarding.updated&limit=100',
        );
        const mine = list.body.data.filter((e: any) => e.data.object.id === id);
        return mine.length >= 4 ? mine : undefined;
      });
      // Newest first: pending -> in_review (on create) -> active -> restricted -> active; the 409 added none.
      expect(history.map((e: any) => e.data.object.onboarding.status)).toEqual([
        'active',
        'restricted',
        'active',
        'in_review',
      ]);
      expect(history.map((e: any) => e.data.previous_attributes.onboarding.status)).toEqual([
        'restricted',
        'active',
        'in_review',
        'pending',
      ]);
    });

    it('rejects a merchant in review, and refuses every other move with 409', async () => {
      const { platform, account } = ctx();
      const id = await liveMerchant();
      const restrictInReview = await platform.admin('POST', `/admin/v1/merchants/${id}/restrict`);
      expect([restrictInReview.status, restrictInReview.body.error.code]).toEqual([
        409,
        'invalid_state_transition',
      ]);

      const rejected = await platform.admin('POST', `/admin/v1/merchants/${id}/reject`, {
        reason: 'Incomplete documents',
      });
      expect(rejected.body.onboarding).toMatchObject({ status: 'rejected', reason: 'Incomplete documents' });
      for (const decision of ['approve', 'reject', 'restrict']) {
        const response = await platform.admin('POST', `/admin/v1/merchants/${id}/${decision}`);
        expect([response.status, response.body.error.code]).toEqual([409, 'invalid_state_transition']);
      }

      // A merchant with details missing is pending: nothing to decide yet.
      const pending = await platform.api(account.liveKey, 'POST', '/v1/merchants', { business_name: 'Half' });
      expect(pending.body.onboarding.status).toBe('pending');
      const early = await platform.admin('POST', `/admin/v1/merchants/${pending.body.id}/approve`);
      expect([early.status, early.body.error.code]).toEqual([409, 'invalid_state_transition']);
    });

    it('answers unknown merchants with 404 and bad bodies with 400', async () => {
      const { platform, account } = ctx();
      const missing = await platform.admin('POST', '/admin/v1/merchants/mer_doesnotexist/approve');
      expect([missing.status, missing.body.error.code]).toEqual([404, 'resource_missing']);
      const id = await liveMerchant();
      const unknown = await platform.admin('POST', `/admin/v1/merchants/${id}/approve`, { status: 'active' });
      expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'status' });
      const long = await platform.admin('POST', `/admin/v1/merchants/${id}/reject`, {
        reason: 'x'.repeat(501),
      });
      expect(long.body.error).toMatchObject({ code: 'parameter_invalid', param: 'reason' });
      const bogus = await platform.admin('POST', `/admin/v1/merchants/${id}/delete`);
      expect([bogus.status, bogus.body.error.code]).toEqual([404, 'route_not_found']);
      // Nothing above changed the merchant.
      const still = await platform.api(account.liveKey, 'GET', `/v1/merchants/${id}`);
      expect(still.body.onboarding.status).toBe('in_review');
    });

    it('keeps the internal decision route out of reach of API keys', async () => {
      const { platform, account } = ctx();
      const id = await liveMerchant();
      const viaV1 = await platform.api(account.liveKey, 'POST', `/v1/internal/merchants/${id}/decision`, {
        decision: 'approve',
      });
      expect([viaV1.status, viaV1.body.error.code]).toEqual([404, 'route_not_found']);
      const onGateway = await platform.api(account.liveKey, 'POST', `/internal/merchants/${id}/decision`, {
        decision: 'approve',
      });
      expect(onGateway.status).toBe(404);

      if (platform.mode === 'distributed') {
        // Straight to the payments service, signed like the gateway signs: only the operator's
        // context opens the route.
        const distributed = platform as DistributedPlatform;
        const url = `/internal/merchants/${id}/decision`;
        const call = (headers: Record<string, string>) =>
          fetch(`http://127.0.0.1:${distributed.ports.payments}${url}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body: JSON.stringify({ decision: 'approve' }),
          });
        const secret = distributed.env.INTERNAL_SIGNING_SECRET;
        const apiContext = signContext(
          secret,
          {
            kind: 'api',
            account: account.id,
            account_name: 'Acme',
            livemode: true,
            key_id: 'key_12345678',
            scopes: ['merchants:write'],
            groupings: ['payments'],
            request_id: 'req_12345678',
            issued_at: Date.now(),
          },
          'POST',
          url,
        );
        const asApi = await call(apiContext);
        expect(asApi.status).toBe(403);
        expect(((await asApi.json()) as { error: { code: string } }).error.code).toBe('insufficient_scope');
        const unsigned = await call({});
        expect(unsigned.status).toBe(401);
        const asOperator = await call(
          signContext(
            secret,
            { kind: 'operator', request_id: 'req_12345679', issued_at: Date.now() },
            'POST',
            url,
          ),
        );
        expect(asOperator.status).toBe(200);
      }

      const after = await platform.api(account.liveKey, 'GET', `/v1/merchants/${id}`);
      expect(after.body.onboarding.status).toBe(platform.mode === 'distributed' ? 'active' : 'in_review');
    });
  });
}
