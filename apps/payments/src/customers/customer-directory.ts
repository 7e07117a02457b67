// Which customer ids exist, per account and mode, as far as payments knows (issue 12 finding
// 10). Customers belong to invoicing, and no service reads another's tables, so payments keeps
// a projection of the ids it learns from invoicing.events.v1 (customer.created, .deleted) and
// checks a `customer` named in a request against it: another account's or mode's id, or an id
// that never existed, is 404 resource_missing (param `customer`), as everywhere else.
//
// The projection lags the API call that created the customer by the outbox relay and the bus
// (milliseconds on the embedded bus, typically well under a second through Kafka; a consumer
// group still joining after a start can take a few seconds). A customer created just before
// must not be refused, so an id not (yet) in the projection is waited on, polling, for at most
// `waitMs`; only then is it 404. An id the projection knows answers at once, whoever owns it.

import type { EventEnvelope } from '@paygrid/contracts';
import { ApiError, type Database, notFound, sleep, type Tenant, type Tx } from '@paygrid/platform';

export const CUSTOMER_DIRECTORY_CONSUMER = 'payments.customer-directory';

/** How long an unknown customer id is waited on before it is 404 (the projection's lag bound). */
export const CUSTOMER_WAIT_MS = 5_000;
const POLL_MS = 100;

interface DirectoryRow {
  account_id: string;
  livemode: boolean;
  archived: boolean;
}

export class CustomerDirectory {
  constructor(
    private readonly db: Database,
    private readonly waitMs = CUSTOMER_WAIT_MS,
  ) {}

  /**
   * One invoicing event (CustomerDirectoryConsumer, inside its inbox transaction):
   * customer.created adds the id, customer.deleted marks it archived.
   */
  async apply(event: EventEnvelope<{ id?: string }>, tx: Tx): Promise<void> {
    const id = event.data.object.id;
    if (!id || (event.type !== 'customer.created' && event.type !== 'customer.deleted')) return;
    // An upsert: a deleted event that overtook its created event (a replay) still archives.
    await tx.query(
      `insert into payments.customer_directory (id, account_id, livemode, archived, updated_at)
       values ($1, $2, $3, $4, now())
       on conflict (id) do update set archived = payments.customer_directory.archived or excluded.archived,
         updated_at = now()`,
      [id, event.account, event.livemode, event.type === 'customer.deleted'],
    );
  }

  /**
   * Resolves when `id` is a customer of `tenant` that is not archived; 404 resource_missing
   * (param `param`) when it belongs to someone else or is still unknown after the wait, 400
   * parameter_invalid when it is archived (as invoicing refuses an archived customer).
   */
  async requireUsable(tenant: Tenant, id: string, param = 'customer'): Promise<void> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const [row] = await this.db.query<DirectoryRow>(
        'select account_id, livemode, archived from payments.customer_directory where id = $1',
        [id],
      );
      if (row) {
        if (row.account_id !== tenant.account || row.livemode !== tenant.livemode)
          throw notFound('customer', id, param);
        if (row.archived) throw new ApiError('parameter_invalid', `Customer '${id}' is archived.`, param);
        return;
      }
      if (Date.now() >= deadline) throw notFound('customer', id, param);
      await sleep(POLL_MS);
    }
  }
}
