// payments.commands.v1: a payment.charge_mandate command charges an on-demand mandate once per
// reference, however often the bus or the sender repeats it, and an unknown mandate (or one of
// the other mode) is answered with a failed payment (mandate_invalid).

import { CARDS } from '../../support/pages';
import { eventually } from '../../support/platform';
import { mandateHelpers, type MandatesContext } from './mandates.helpers';

export function chargeCommandCases(ctx: () => MandatesContext) {
  const { get, publishCommand } = mandateHelpers(ctx);

  describe('payments.commands.v1: payment.charge_mandate', () => {
    it('charges an on-demand mandate once per reference and answers an invalid mandate with mandate_invalid', async () => {
      const { platform, account } = ctx();
      // A real customer: the test helper refuses an id invoicing never announced (issue 12 finding 10).
      const created = await platform.api(account.testKey, 'POST', '/v1/customers', { name: 'Commands' });
      expect(created.status).toBe(200);
      const customer: string = created.body.id;
      const saved = await platform.api(account.testKey, 'POST', '/v1/transactions/test-helpers/payments', {
        amount: 100,
        currency: 'USD',
        card_number: CARDS.ok,
        save_card: true,
        customer,
      });
      expect(saved.status).toBe(200);
      const mandate = await get(`/v1/mandates/${saved.body.mandate}`);
      expect(mandate).toMatchObject({ type: 'on_demand', customer, interval: null, next_charge_at: null });

      const command = {
        mandate: mandate.id,
        amount: 4200,
        currency: 'USD',
        invoice: 'inv_0000000000command01',
        customer,
        reference: 'inv_0000000000command01:1',
      };
      const first = await publishCommand(account.id, false, command);
      // The same message again (redelivery) and a new message with the same reference (sender retry).
      await publishCommand(account.id, false, command, first);
      await publishCommand(account.id, false, command);
      const charged = await eventually(async () => {
        const list = (await get('/v1/transactions?limit=100')).data.filter(
          (t: any) => t.reference === command.reference,
        );
        return list.length && list[0].status !== 'pending' ? list : undefined;
      });
      expect(charged).toHaveLength(1);
      expect(charged[0]).toMatchObject({
        status: 'succeeded',
        amount: 4200,
        mandate: mandate.id,
        invoice: command.invoice,
        customer,
        reference: command.reference,
      });
      const event = await eventually(async () =>
        (await get('/v1/events?type=payment.succeeded&limit=100')).data.find(
          (e: any) => e.data.object.id === charged[0].id,
        ),
      );
      expect(event.data.object.reference).toBe(command.reference);

      // Nothing more arrives for that reference, whatever the bus redelivers.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const rows = await platform.sql(
        'payments',
        'select id from payments.transactions where reference = $1',
        [command.reference],
      );
      expect(rows).toHaveLength(1);

      const invalid = { ...command, mandate: 'mdt_000000000000nonexistent', reference: 'inv_x:1' };
      await publishCommand(account.id, false, invalid);
      const answer = await eventually(async () =>
        (await get('/v1/transactions?limit=100')).data.find((t: any) => t.reference === 'inv_x:1'),
      );
      expect(answer).toMatchObject({
        status: 'failed',
        failure_code: 'mandate_invalid',
        invoice: command.invoice,
      });
      await eventually(async () =>
        (await get('/v1/events?type=payment.failed&limit=100')).data.find(
          (e: any) => e.data.object.id === answer.id,
        ),
      );

      // Another mode's mandate is as good as unknown.
      const otherMode = { ...command, reference: 'inv_y:1' };
      await publishCommand(account.id, true, otherMode);
      const live = await eventually(async () =>
        (await get('/v1/transactions?limit=100', account.liveKey)).data.find(
          (t: any) => t.reference === 'inv_y:1',
        ),
      );
      expect(live).toMatchObject({ status: 'failed', failure_code: 'mandate_invalid', livemode: true });
    });
  });
}
